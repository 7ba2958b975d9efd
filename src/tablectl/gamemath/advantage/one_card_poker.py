"""One Card Poker with hidden information: where a decision exists, its best play and exact edge.

Every card of the initial deal is face up, so there is no hole card to see nor a card back to
read before a decision: the player's only decision, surrender (lose half) or extend (a war, the
primary and the war bet settled together) on a rank tie, is made with both cards in view. What a
player could know beyond them is the next war card: the DP's first war card, seen (a flashed or
marked card) before he chooses. With it he extends when the war's exact expectation beats losing
half the primary. A war that ties again is decided by later war pairs, exchangeable between the
player and the DP, so it is worth nothing to either (as in ``one_card_poker``); the DP is assumed
to match every extension.

A case is an ordered sequence of physical cards: the player's card, the DP's, the DP's first war
card and the player's first war card (burns change no probability and are left out), so the cases
number 52N (52N-1) (52N-2) (52N-3); deals without a tie are padded by the two unseen cards. Each
class is settled by ``one_card_poker.primary_payouts`` on representative cards. ``counts`` (cards
per rank) lets the tests count a small shoe against a brute force.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from tablectl.cards import RANKS
from tablectl.gamemath.advantage.figure import AdvantageFigure, rank_runs
from tablectl.rules import one_card_poker as ocp
from tablectl.rules.houserules import OneCardPokerRules

_RULES = OneCardPokerRules()


def _net(player: int, dp: int, wars: list[tuple[int, int]], decisions: list[str]) -> Fraction:
    """Net per unit of the primary, by the rules' functions (cards as ranks, representative suits)."""
    payouts = ocp.primary_payouts(player << 2, dp << 2 | 1, [(p << 2 | 2, d << 2 | 3) for p, d in wars], decisions, _RULES)
    return sum((p.odds for _, p in payouts), Fraction(0))


def war_card_seen(counts: Sequence[int] | None = None, decks: int = 6) -> AdvantageFigure:
    """The best tie decision and the primary's edge with the DP's first war card seen, from a
    shoe of ``counts`` per rank (default: ``decks`` full decks)."""
    counts = list(counts) if counts is not None else [4 * decks] * 13
    n = sum(counts)
    surrender = _net(0, 0, [], [ocp.SURRENDER])
    win, lose = _net(1, 0, [], []), _net(0, 1, [], [])
    total = Fraction(0)
    played = 0
    surrender_on: dict[int, list[str]] = {}
    for a, na in enumerate(counts):
        for b, nb in enumerate(counts):
            pairs = na * (nb - (a == b))
            if pairs <= 0:
                continue
            if a != b:
                total += pairs * (n - 2) * (n - 3) * (win if a > b else lose)
                continue
            rest = list(counts)
            rest[a] -= 2
            for w, nw in enumerate(rest):
                if not nw:
                    continue
                left = list(rest)
                left[w] -= 1
                extend = sum(
                    (k * _net(a, a, [(p, w)], [ocp.EXTEND]) for p, k in enumerate(left) if k and p != w),
                    Fraction(0),
                )  # a tied war pair is worth nothing: later pairs are exchangeable
                cases = pairs * nw * sum(left)
                if extend > surrender * sum(left):
                    total += pairs * nw * extend
                    played += cases
                else:
                    total += cases * surrender
                    surrender_on.setdefault(w, []).append(RANKS[a])
    figure_cases = n * (n - 1) * (n - 2) * (n - 3)
    by_ties: dict[str, list[str]] = {}
    tie_ranks = [RANKS[r] for r, k in enumerate(counts) if k >= 2]
    for w, ranks in sorted(surrender_on.items()):
        which = "any tie" if ranks == tie_ranks else f"ties of {rank_runs(ranks)}"
        by_ties.setdefault(which, []).append(RANKS[w])
    lines = [f"the DP's war card is {rank_runs(ws)}: surrender {which}" for which, ws in by_ties.items()]
    lines.append("otherwise extend every tie")
    return AdvantageFigure("primary", "hole-card", "the DP's first war card seen before the tie decision",
                           figure_cases, total, played, tuple(lines))


def analyses(decks: int) -> list[AdvantageFigure]:
    """Every advantage figure of One Card Poker at ``decks`` decks."""
    return [war_card_seen(decks=decks)]
