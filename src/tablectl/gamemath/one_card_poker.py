"""One Card Poker: exact analysis of the primary and Tie wagers from an N-deck shoe.

A deal is an ordered sequence of physical cards: the player's card, the DP's, then (after a
tie the hand extends) a war pair per war. Burn cards are unseen and change no probability, so
they are left out. Up to three wars are enumerated (a fourth tie already pays the Quad Tie);
every sequence is padded to eight cards, so all outcomes share the denominator
P(52N, 8) = 52N (52N-1) ... (52N-7). A war still tied after three wars is decided later, and the
player's and DP's cards are exchangeable, so exactly half of those sequences are won (the swap of
the two cards of a tied pair pairs them off). Only ranks (and, for the initial tie, black and
ace) matter: war sequences are grouped by shape (how many tied pairs, then won, lost or still
tied) with exact counts summed over ranks; each class is settled once, on representative cards,
by the rules' own functions.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from functools import cache
from math import perm

from tablectl.gamemath.table import BetAnalysis, Tally
from tablectl.rules import one_card_poker as ocp
from tablectl.rules.houserules import OneCardPokerRules
from tablectl.rules.payout import Payout

MAX_WARS = 3
SEQUENCE = 2 + 2 * MAX_WARS

Pair = tuple[int, int]


def _card(rank: int, suit: int) -> int:
    return rank << 2 | suit


_HIGHER: Pair = (_card(12, 2), _card(0, 1))
_LOWER: Pair = (_card(0, 2), _card(12, 1))


def _decided(counts: list[int]) -> tuple[int, int]:
    """Ordered (player, DP) card pairs from a shoe of ``counts`` per rank: (player higher, lower)."""
    total = sum(counts)
    below = higher = lower = 0
    for n in counts:
        higher += n * below
        lower += n * (total - below - n)
        below += n
    return higher, lower


def initial_deals(decks: int) -> Iterator[tuple[Pair, int, list[int]]]:
    """(representative player and DP cards, ordered count, shoe by rank after them) for each
    class of initial deal: player higher, lower, and per rank a tie of two black cards or not."""
    full = [4 * decks] * 13
    higher, lower = _decided(full)
    yield _HIGHER, higher, full
    yield _LOWER, lower, full
    for rank in range(13):
        rest = full.copy()
        rest[rank] -= 2
        black = 2 * decks * (2 * decks - 1)
        yield (_card(rank, 0), _card(rank, 3)), black, rest
        yield (_card(rank, 0), _card(rank, 1)), 4 * decks * (4 * decks - 1) - black, rest


def wars(counts: list[int], depth: int = MAX_WARS) -> dict[tuple[int, int], int]:
    """Ordered counts of war sequences from a shoe of ``counts`` per rank, by shape: (tied pairs,
    end) with end 1 (player higher), -1 (lower) or 0 (still tied after ``depth`` pairs). A
    sequence stops at its first untied pair."""
    return _wars(tuple(sorted(counts)), depth)


@cache
def _wars(counts: tuple[int, ...], depth: int) -> dict[tuple[int, int], int]:
    higher, lower = _decided(list(counts))
    shapes = {(0, 1): higher, (0, -1): lower}
    for rank, n in enumerate(counts):
        if n < 2:
            continue
        if depth == 1:
            shapes[1, 0] = shapes.get((1, 0), 0) + n * (n - 1)
            continue
        rest = list(counts)
        rest[rank] -= 2
        for (ties, end), count in _wars(tuple(sorted(rest)), depth - 1).items():
            shapes[ties + 1, end] = shapes.get((ties + 1, end), 0) + n * (n - 1) * count
    return shapes


def _war_pairs(ties: int, end: int) -> list[Pair]:
    """Representative war pairs of a shape: ``ties`` tied pairs, then the deciding pair."""
    tie = (_card(5, 0), _card(5, 1))
    return [tie] * ties + ([_HIGHER] if end > 0 else [_LOWER] if end < 0 else [])


def _padded(count: int, shoe: int, used: int) -> int:
    """``count`` sequences of ``used`` cards, each extended to ``SEQUENCE`` cards."""
    return count * perm(shoe - used, SEQUENCE - used)


def extended_deals(decks: int) -> Iterator[tuple[Pair, list[Pair], int]]:
    """(initial pair, war pairs, count of eight-card sequences) for a player who extends every tie."""
    shoe = 52 * decks
    for initial, count, rest in initial_deals(decks):
        if initial[0] >> 2 != initial[1] >> 2:
            yield initial, [], _padded(count, shoe, 2)
            continue
        for (ties, end), more in wars(rest).items():
            pairs = _war_pairs(ties, end)
            yield initial, pairs, _padded(count * more, shoe, 2 + 2 * len(pairs))


def _net(payouts: list[tuple[str, Payout]]) -> Fraction:
    return sum((p.odds for _, p in payouts), Fraction(0))


def _primary_label(payouts: list[tuple[str, Payout]]) -> str:
    primary = payouts[0][1].outcome
    return f"tie, war {'won' if primary == 'win' else 'lost'}" if len(payouts) > 1 else primary


def primary_extend(decks: int, rules: OneCardPokerRules) -> BetAnalysis:
    """The primary wager (with the war's matching bet) when every tie is extended."""
    tally = Tally()
    for (player, dp), pairs, count in extended_deals(decks):
        decisions = [ocp.EXTEND] if player >> 2 == dp >> 2 else []
        if pairs and pairs[-1][0] >> 2 == pairs[-1][1] >> 2:
            # still tied after MAX_WARS wars: half of the continuations are won, half lost
            endings = [([*pairs, _HIGHER], count // 2), ([*pairs, _LOWER], count // 2)]
        else:
            endings = [(pairs, count)]
        for war, n in endings:
            payouts = ocp.primary_payouts(player, dp, war, decisions, rules)
            tally.add(_primary_label(payouts), _net(payouts), n)
    return tally.analysis("primary", {"on_tie": "extend"})


def primary_surrender(decks: int, rules: OneCardPokerRules) -> BetAnalysis:
    """The primary wager when every tie is surrendered."""
    tally = Tally()
    for (player, dp), count, _ in initial_deals(decks):
        decisions = [ocp.SURRENDER] if player >> 2 == dp >> 2 else []
        payouts = ocp.primary_payouts(player, dp, [], decisions, rules)
        tally.add(_primary_label(payouts), _net(payouts), count)
    return tally.analysis("primary", {"on_tie": "surrender"})


def tie_wager(decks: int, rules: OneCardPokerRules, extended: bool) -> BetAnalysis:
    """The Tie wager, the hand extended on a tie (and every war tie) or surrendered."""
    tally = Tally()
    if extended:
        for (player, dp), pairs, count in extended_deals(decks):
            payout = ocp.tie_payout(player, dp, pairs, True, rules)
            tally.add(payout.outcome, payout.odds, count)
    else:
        for (player, dp), count, _ in initial_deals(decks):
            payout = ocp.tie_payout(player, dp, [], False, rules)
            tally.add(payout.outcome, payout.odds, count)
    rule_set = {
        "on_tie": "extend" if extended else "surrender",
        "pay_table": rules.tie_wager.describe(),
        "tie_pays_without_extension": rules.tie_pays_without_extension,
    }
    return tally.analysis("tie", rule_set)


def analyses(decks: int, rules: OneCardPokerRules | None = None) -> list[BetAnalysis]:
    rules = rules or OneCardPokerRules()
    return [
        primary_extend(decks, rules),
        primary_surrender(decks, rules),
        tie_wager(decks, rules, extended=True),
        tie_wager(decks, rules, extended=False),
    ]
