"""One for the Money with one of the dealer's two cards seen: exact best strategy and edge.

A case is an ordered sequence of physical cards from the shoe: the player's first card c0, the
dealer's card the player sees, the dealer's other card, and the card c1 a trade would bring
(cards in that order are exchangeable with the dealing order, as in
``one_for_the_money``). Each unordered dealer pair appears twice, once per card that may be the
one seen, so the cases number 52N (52N-1) (52N-2) (52N-3). The main game depends on ranks alone:
for the first rank and the seen rank the player chooses check, raise or trade (then, seeing c1,
stand or raise) to maximise the exact expectation, with card removal, over the unseen dealer
card; a tie between choices goes to the smaller wager. Each class is settled by
``one_for_the_money.main_payouts`` on representative cards. ``counts`` (cards per rank) lets the
tests count a small shoe against a brute force.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache

from tablectl.cards import RANKS
from tablectl.gamemath.advantage.figure import AdvantageFigure, rank_runs
from tablectl.rules import one_for_the_money as oftm

KEEP = ((oftm.CHECK,), (oftm.RAISE,))
AFTER_TRADE = ((oftm.TRADE, oftm.STAND), (oftm.TRADE, oftm.RAISE))


@cache
def net(final: int, high: int, decisions: tuple[str, ...]) -> Fraction:
    """Net per Ante of the main game's bets for a final card of rank ``final`` against a dealer
    whose higher card has rank ``high``, by the rules' functions."""
    dealer = (high << 2, 1)  # the higher card, and a deuce
    payouts = oftm.main_payouts(oftm.showdown(final << 2 | 2, dealer), decisions)
    return sum((p.odds for _, p in payouts), Fraction(0))


def _against(final: int, seen: int, unseen: Sequence[int], decisions: tuple[str, ...]) -> Fraction:
    """Total net over the unseen dealer card (``unseen``: cards per rank it may be)."""
    return sum((n * net(final, max(seen, x), decisions) for x, n in enumerate(unseen) if n), Fraction(0))


def _without(counts: Sequence[int], *ranks: int) -> list[int]:
    rest = list(counts)
    for r in ranks:
        rest[r] -= 1
    return rest


def one_card_seen(counts: Sequence[int] | None = None, decks: int = 6) -> AdvantageFigure:
    """The best play and edge with one dealer card seen, from a shoe of ``counts`` per rank
    (default: ``decks`` full decks)."""
    counts = list(counts) if counts is not None else [4 * decks] * 13
    total_net = Fraction(0)
    played = 0
    rules: dict[int, dict[str, list[str]]] = {}
    after_raise: dict[int, set[int]] = {}
    for r0, n0 in enumerate(counts):
        if not n0:
            continue
        for seen, ns in enumerate(_without(counts, r0)):
            if ns <= 0:
                continue
            rest = _without(counts, r0, seen)
            pad = sum(rest) - 1  # c1, unseen when the player keeps his card
            keep = max(KEEP, key=lambda d: _against(r0, seen, rest, d))
            keep_value = _against(r0, seen, rest, keep) * pad
            trade_value = Fraction(0)
            raises = set()
            for r1, n1 in enumerate(rest):
                if not n1:
                    continue
                left = _without(rest, r1)
                stand, raise_ = (_against(r1, seen, left, d) for d in AFTER_TRADE)
                trade_value += n1 * max(stand, raise_)
                if raise_ > stand:
                    raises.add(r1)
            weight = n0 * ns
            if keep_value >= trade_value:
                total_net += weight * keep_value
                choice = keep[0]
                played += weight * pad * sum(rest) if keep == KEEP[1] else 0
            else:
                total_net += weight * trade_value
                choice = "trade"
                played += weight * pad * sum(rest)
                after_raise.setdefault(seen, set()).update(raises)
            rules.setdefault(seen, {}).setdefault(choice, []).append(RANKS[r0])
    n = sum(counts)
    cases = n * (n - 1) * (n - 2) * (n - 3)
    return AdvantageFigure("ante", "hole-card", "one of the dealer's two cards seen", cases, total_net, played,
                           (*_lines(rules, after_raise),))


def _lines(rules: dict[int, dict[str, list[str]]], after_raise: dict[int, set[int]]) -> list[str]:
    """Per seen rank: which first cards to raise, check or trade; after a trade, which to raise."""
    out = []
    for seen in sorted(rules):
        parts = [f"{choice} with {rank_runs(ranks)}" for choice, ranks in rules[seen].items()]
        line = f"the dealer shows {RANKS[seen]}: " + "; ".join(parts)
        if seen in after_raise:
            raised = sorted(after_raise[seen])
            line += f"; after a trade raise with {rank_runs(RANKS[r] for r in raised)}" if raised else "; after a trade stand"
        out.append(line)
    return out


def analyses(decks: int) -> list[AdvantageFigure]:
    """Every advantage figure of One for the Money at ``decks`` decks."""
    return [one_card_seen(decks=decks)]
