"""Exact values of the decisions of the games ranks decide (N-deck shoes): One for the Money's
check, raise or trade and then stand or raise; One Card Poker's extend or surrender on a tie.

Cards unseen are counted by rank from the shoe less every card the player saw. The dealer's unknown
cards (and the card a trade would bring) are dealt from those counts; the weight of an ordered
deal is the product of the falling counts, restricted to ranks that agree with an edge sort's
high/low mark. One for the Money's main bets are settled by ``one_for_the_money.showdown`` and
``main_payouts`` on representative cards (per Ante: Ante, Trade and Raise); after a trade the
player stands or raises, knowing the new card, as ``gamemath.one_for_the_money.Strategy`` has it.
One Card Poker's war is the rules' ``primary_payouts`` on a won or lost war pair (the DP accepts
the war; per primary wager, primary plus war bet); the Tie wager is left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from math import lcm

from tablectl.gamemath.decisions.sight import HIGH, HIGH_RANKS, DecisionValues, Sight
from tablectl.gamemath.one_card_poker import _decided
from tablectl.rules import one_card_poker as ocp
from tablectl.rules import one_for_the_money as oftm
from tablectl.rules.houserules import OneCardPokerRules

Marks = tuple[str | None, ...]


def _card(rank: int, suit: int) -> int:
    return rank << 2 | suit


def shoe_counts(decks: int, seen: Sequence[int]) -> list[int]:
    """Cards left per rank in a shoe of ``decks`` decks once ``seen`` are out."""
    counts = [4 * decks] * 13
    for c in seen:
        counts[c >> 2] -= 1
        if counts[c >> 2] < 0:
            raise ValueError(f"more {c >> 2}-rank cards seen than {decks} deck(s) hold")
    return counts


def _allowed(mark: str | None, rank: int) -> bool:
    return mark is None or (rank in HIGH_RANKS) == (mark == HIGH)


def dealer_highs(counts: Sequence[int], known: Sequence[int], marks: Marks) -> list[int]:
    """Ordered deals of the dealer's unknown cards (one per mark; None: unmarked) from ``counts``,
    by the rank of the dealer's higher card (with the ``known`` ranks)."""
    if len(marks) > 2:
        return _walked(counts, known, marks)
    out = [0] * 13
    top = max(known, default=-1)
    if not marks:
        out[top] += 1
        return out
    if len(marks) == 1:
        for r in range(13):
            if counts[r] and _allowed(marks[0], r):
                out[max(top, r)] += counts[r]
        return out
    # two cards: the ordered deals whose higher rank is at most h are (first card's choices at most
    # h) x (second's), less the deals of one card twice (n^2 counted where n (n - 1) are possible)
    first = second = same = 0
    below = 0
    for r in range(13):
        n = counts[r]
        one, two = _allowed(marks[0], r), _allowed(marks[1], r)
        first += n if one else 0
        second += n if two else 0
        same += n if one and two else 0
        upto = first * second - same
        out[max(top, r)] += upto - below
        below = upto
    return out


def _walked(counts: Sequence[int], known: Sequence[int], marks: Marks) -> list[int]:
    """``dealer_highs`` by walking every ordered deal (any number of unknown cards)."""
    out = [0] * 13
    top = max(known, default=-1)

    def walk(i: int, left: list[int], high: int, weight: int) -> None:
        if i == len(marks):
            out[high] += weight
            return
        for r in range(13):
            if left[r] and _allowed(marks[i], r):
                n = left[r]
                left[r] -= 1
                walk(i + 1, left, max(high, r), weight * n)
                left[r] += 1

    walk(0, list(counts), top, 1)
    return out


@cache
def _main_net(final: int, high: int, decisions: tuple[str, ...]) -> Fraction:
    payouts = oftm.main_payouts(oftm.showdown(_card(final, 2), (_card(high, 0), _card(0, 1))), decisions)
    return sum((p.odds for _, p in payouts), Fraction(0))


@cache
def _denominator(decisions: tuple[str, ...]) -> int:
    """A common denominator of the main bets' nets under ``decisions``, over every pair of ranks."""
    return lcm(*(_main_net(final, high, decisions).denominator for final in range(13) for high in range(13)))


@cache
def _numerators(final: int, decisions: tuple[str, ...], denominator: int) -> tuple[int, ...]:
    """Per rank of the dealer's higher card, the main bets' net x ``denominator`` (an integer)."""
    return tuple(int(_main_net(final, h, decisions) * denominator) for h in range(13))


def _scaled(highs: Sequence[int], final: int, decisions: tuple[str, ...], denominator: int) -> int:
    """``_total`` x ``denominator`` (a multiple of the decisions' own), an exact integer."""
    nets = _numerators(final, decisions, denominator)
    return sum(n * nets[h] for h, n in enumerate(highs) if n)


def _total(highs: Sequence[int], final: int, decisions: tuple[str, ...]) -> Fraction:
    """The main bets' net summed over the dealer's deals by higher rank (``highs``), exact."""
    d = _denominator(decisions)
    return Fraction(_scaled(highs, final, decisions, d), d)


def oftm_values(options: tuple[str, ...], sight: Sight, decks: int) -> DecisionValues:
    """One for the Money: per Ante, each option's value; ``sight.own`` is the first card, or the
    traded card then the new one (``sight.made`` = ("trade",))."""
    counts = shoe_counts(decks, sight.seen())
    known = [c >> 2 for c in sight.dealer if isinstance(c, int)]
    slots = list(sight.dealer) + [None] * (2 - len(sight.dealer))
    marks: Marks = tuple(s for s in slots if not isinstance(s, int))  # type: ignore[misc]
    final = sight.own[-1] >> 2
    if oftm.TRADE not in options:  # after a trade: stand or raise on the new card
        highs = dealer_highs(counts, known, marks)
        n = sum(highs)
        return DecisionValues({o: _total(highs, final, (oftm.TRADE, o)) / n for o in options})
    highs = dealer_highs(counts, known, marks)
    n = sum(highs)
    out: dict[str, Fraction | None] = {o: _total(highs, final, (o,)) / n for o in options if o != oftm.TRADE}
    # after the trade the better of stand and raise, compared and summed in integers over one denominator
    after_trade = ((oftm.TRADE, oftm.STAND), (oftm.TRADE, oftm.RAISE))
    d = lcm(*(_denominator(a) for a in after_trade))
    trade = 0
    weight = 0
    for r1 in range(13):
        if not counts[r1]:
            continue
        left = list(counts)
        left[r1] -= 1
        after = dealer_highs(left, known, marks)
        trade += counts[r1] * max(_scaled(after, r1, a, d) for a in after_trade)
        weight += counts[r1] * sum(after)
    out[oftm.TRADE] = Fraction(trade, d * weight)
    return DecisionValues(out)


@cache
def _war_nets(rules: OneCardPokerRules) -> tuple[Fraction, Fraction]:
    """(net of a war won, of a war lost) per primary wager: primary plus the war's matching bet."""
    tie = (_card(5, 0), _card(5, 1))
    won = ocp.primary_payouts(*tie, [(_card(9, 0), _card(2, 1))], [ocp.EXTEND], rules)
    lost = ocp.primary_payouts(*tie, [(_card(2, 0), _card(9, 1))], [ocp.EXTEND], rules)
    return sum((p.odds for _, p in won), Fraction(0)), sum((p.odds for _, p in lost), Fraction(0))


def ocp_values(options: tuple[str, ...], sight: Sight, decks: int, rules: OneCardPokerRules) -> DecisionValues:
    """One Card Poker on a tie: extend (the war: the first unequal war pair decides, so the value
    is that of a first war pair won or lost, dealt from the shoe left) or surrender."""
    counts = shoe_counts(decks, sight.seen())
    higher, lower = _decided(counts)
    won, lost = _war_nets(rules)
    out: dict[str, Fraction | None] = {}
    for option in options:
        if option == ocp.EXTEND:
            out[option] = (higher * won + lower * lost) / (higher + lower)
        elif option == ocp.SURRENDER:
            out[option] = Fraction(ocp.SURRENDERED.odds)
        else:
            out[option] = None
    return DecisionValues(out)


__all__ = ["dealer_highs", "ocp_values", "oftm_values", "shoe_counts"]
