"""Exact values of the play/fold decision of Three Card Poker (player-banked) and its Florida
variant, from what the player saw.

The dealer's three cards are the cards known of them plus every set of the others from the
unseen cards (one deck), each weighted by how many orders of dealing agree with what an edge sort
told (``dealer_weights``). Every dealer hand is valued by the rules engine's own three-card table
(``tablectl.rules.hand3``), vectorised; the dealer values are classed by whether they qualify and
how they compare with the player's, one value of each class goes through
``three_card_poker.showdown``, and each showdown result is settled once by ``ante_play_payouts``
(and the Ante bonus, player-banked). With at most one dealer card known (every decision at a
table without advantage play among them) the counts by showdown class come from sorted tables
built once instead (``threecard_showdowns``); with the dealer's hand known, from one showdown.
Values are per unit of Ante: Ante plus Play (plus Ante bonus); the Pair Plus, Pairplus and 6 Card
Bonus are separate wagers and are left out.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import lcm, perm

import numpy as np

from tablectl.gamemath.decisions.sight import HIGH, LOW, DecisionValues, Sight
from tablectl.gamemath.decisions.threecard_sets import subsets, values3
from tablectl.gamemath.decisions.threecard_showdowns import class_counts
from tablectl.rules import three_card_poker as tcp
from tablectl.rules.hand3 import QUEEN_HIGH, value3

FOLD = tcp.FOLD_DECISION


def dealer_weights(sight: Sight, size: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """The value of each of the dealer's possible hands and its weight: the orders of dealing its
    unknown cards that agree with the high/low marks (1 each when nothing is marked)."""
    known = [c for c in sight.dealer if isinstance(c, int)]
    marks = [c for c in sight.dealer if isinstance(c, str)]
    want_high, want_low = marks.count(HIGH), marks.count(LOW)
    m = size - len(known)
    sets, masks, highs, values = subsets(m)
    seen = 0
    for c in sight.seen():
        seen |= 1 << c
    keep = (masks & np.uint64(seen)) == 0
    highs = highs[keep]
    if values is not None:  # the three-card sets' values are known: the sets themselves are not needed
        values = values[keep]
    else:
        sets = sets[keep]
    if want_high or want_low:
        weights = np.array([perm(h, want_high) * perm(m - h, want_low) for h in range(m + 1)], dtype=np.int64)[highs]
    else:
        weights = np.ones(len(highs), dtype=np.int64)
    if values is None:
        values = values3(np.hstack([np.full((len(sets), len(known)), known, dtype=np.int64), sets]))
    return values, weights


@cache
def _known(game: str, play_option: str, player: int, result: str, ante_bonus: object) -> DecisionValues:
    """The values of a hand of value ``player`` whose showdown with the dealer's known hand is
    ``result`` (shared: the same few thousand again and again)."""
    fold, _ = tcp.ante_play_payouts(None)
    return DecisionValues({play_option: _net(game, player, result, ante_bonus), FOLD: Fraction(fold.odds)})


@cache
def _net(game: str, player: int, result: str, ante_bonus: object) -> Fraction:
    """The Ante and Play (and Ante bonus) per Ante of a hand that plays, for a showdown result."""
    ante, play = tcp.ante_play_payouts(result)
    net = ante.odds + (play.odds if play else 0)
    if game == tcp.GAME:
        bonus = tcp.ante_bonus_payout(player, ante_bonus)  # type: ignore[arg-type]
        if bonus is not None:
            net += bonus.odds
    return Fraction(net)


@cache
def _scaled_nets(game: str, player: int, ante_bonus: object) -> tuple[int, dict[str, int]]:
    """A common denominator D of ``_net`` over the showdown results, and each result's net x D:
    the play's value summed exactly in integers."""
    nets = {r: _net(game, player, r, ante_bonus) for r in tcp.SHOWDOWNS}
    denominator = lcm(*(v.denominator for v in nets.values()))
    return denominator, {r: int(v * denominator) for r, v in nets.items()}


def _enumerated(player: int, sight: Sight) -> tuple[dict[str, int], int]:
    """The dealer's hands that agree with ``sight``, weighted, counted by showdown result; the total weight."""
    counted = class_counts(player, sight)  # from the sorted tables, where built
    if counted is not None:
        return counted
    dealer, weights = dealer_weights(sight)  # the rules' table holds every order of the three cards
    counts = np.bincount(dealer, weights=weights)  # weighted counts < 2**53: exact
    uniq = np.flatnonzero(counts)
    counts = counts[uniq].astype(np.int64)
    total = int(weights.sum())
    if total == 0:
        raise ValueError("no dealer hand agrees with what was seen")
    by_result = dict.fromkeys(tcp.SHOWDOWNS, 0)
    # the showdown turns on whether the dealer qualifies and how his value compares with the
    # player's: the distinct dealer values fall in at most four such classes, each settled once
    # through the rules engine's ``showdown`` on one of its values
    classes = np.where(uniq < QUEEN_HIGH, 0, 2 + np.sign(uniq - player))
    for c in np.unique(classes).tolist():
        members = classes == c
        by_result[tcp.showdown(player, int(uniq[members][0]))] += int(counts[members].sum())
    return by_result, total


def values(game: str, options: tuple[str, ...], sight: Sight, rules: object) -> DecisionValues:
    """Each option's value (``options`` = (play or raise, fold)) for a player holding
    ``sight.own`` with what ``sight`` says of the dealer's cards and the others seen."""
    play_option = next(o for o in options if o != FOLD)
    player = value3(sorted(sight.own))
    if len(sight.dealer) == 3 and all(isinstance(c, int) for c in sight.dealer):  # the dealer's hand known
        result = tcp.showdown(player, value3(sight.dealer))  # type: ignore[arg-type]
        return _known(game, play_option, player, result, getattr(rules, "ante_bonus", None))
    bonus = getattr(rules, "ante_bonus", None)
    by_result, total = _enumerated(player, sight)
    denominator, nets = _scaled_nets(game, player, bonus)
    play = Fraction(sum(n * nets[r] for r, n in by_result.items() if n), denominator * total)
    fold, _ = tcp.ante_play_payouts(None)
    return DecisionValues({play_option: play, FOLD: Fraction(fold.odds)})


__all__ = ["dealer_weights", "values"]
