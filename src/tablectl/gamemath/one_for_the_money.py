"""One for the Money: exact analysis from an N-deck shoe, and the player's optimal strategy.

A deal is the player's first card c0, the card c1 a trade would bring and the dealer's two
cards, counted as ordered physical cards (c0, c1) and an unordered dealer pair from what is
left: 52N (52N-1) C(52N-2, 2) deals. Cards in the physical order c0, dealer, c1 are
exchangeable, so counting c1 before the dealer's pair changes nothing. A player who keeps c0
never sees c1, which then only pads the count.

The main game depends on ranks alone: for each final rank and each rank of the dealer's higher
card the exact number of dealer pairs is a difference of binomials, and each class is settled by
``one_for_the_money.main_payouts`` on representative cards. The optimal strategy (for each first
card: check, raise or trade; after a trade: stand or raise) maximises the exact expectation,
with card removal; a tie between choices goes to the smaller wager.

The side bets are counted over card identities (52 kinds, N of each): the final three cards are
the first card and the dealer's pair when the player keeps it, or the traded-for card and the
dealer's pair from a shoe missing the traded card when the strategy trades. Both the optimal
strategy's and a never-trading player's deals are given.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from math import comb

from tablectl.cards import RANKS
from tablectl.gamemath.table import BetAnalysis, Tally
from tablectl.rules import one_for_the_money as oftm
from tablectl.rules.houserules import OneForTheMoneyRules
from tablectl.rules.payout import Payout
from tablectl.rules.paytables import ThreeCardBonusTable

KEEP = ((oftm.CHECK,), (oftm.RAISE,))
AFTER_TRADE = ((oftm.TRADE, oftm.STAND), (oftm.TRADE, oftm.RAISE))


def _card(rank: int, suit: int) -> int:
    return rank << 2 | suit


def dealer_highs(counts: Sequence[int]) -> list[int]:
    """Unordered dealer pairs from a shoe of ``counts`` per rank, by the rank of the higher card."""
    highs = []
    below = 0
    for n in counts:
        highs.append(comb(below + n, 2) - comb(below, 2))
        below += n
    return highs


def _dealer(high: int) -> tuple[int, int]:
    """Representative dealer cards whose higher card has rank ``high``."""
    return _card(high, 0), _card(0, 1)


@cache
def _main(final: int, high: int, decisions: tuple[str, ...]) -> tuple[str, Fraction]:
    """(outcome label, net per Ante) of the main game's bets, by the rules' functions."""
    payouts = oftm.main_payouts(oftm.showdown(_card(final, 2), _dealer(high)), decisions)
    return f"{'/'.join(decisions)}: {payouts[0][1].outcome}", sum((p.odds for _, p in payouts), Fraction(0))


def _value(final: int, highs: Sequence[int], decisions: tuple[str, ...]) -> Fraction:
    """Total net over the dealer pairs ``highs`` for a final card of rank ``final``."""
    return sum((n * _main(final, high, decisions)[1] for high, n in enumerate(highs)), Fraction(0))


class Strategy:
    """The optimal play for each first rank: ``first[r]`` is the decisions when keeping the card,
    or ``None`` to trade; ``after[r][r1]`` the decisions after trading rank ``r`` for ``r1``."""

    def __init__(self, decks: int) -> None:
        self.decks = decks
        full = [4 * decks] * 13
        self.first: list[tuple[str, ...] | None] = []
        self.after: list[list[tuple[str, ...]]] = []
        for r0 in range(13):
            rest = _without(full, r0)
            keep_highs = dealer_highs(rest)
            # keeping is weighed against trading on the same count: pad by the unseen c1
            pad = sum(rest) - 2
            keep = max(KEEP, key=lambda d: _value(r0, keep_highs, d))
            keep_value = _value(r0, keep_highs, keep) * pad
            after: list[tuple[str, ...]] = []
            trade_value = Fraction(0)
            for r1 in range(13):
                left = _without(rest, r1)
                highs = dealer_highs(left)
                stand, raise_ = (_value(r1, highs, d) for d in AFTER_TRADE)
                choice = AFTER_TRADE[1] if raise_ > stand else AFTER_TRADE[0]
                after.append(choice)
                trade_value += rest[r1] * max(stand, raise_)
            self.after.append(after)
            self.first.append(keep if keep_value >= trade_value else None)

    def lines(self) -> list[str]:
        """The strategy in words, one line per first rank."""
        out = []
        for r0, keep in enumerate(self.first):
            if keep is not None:
                out.append(f"{RANKS[r0]}: {keep[0]}")
                continue
            raise_on = [RANKS[r1] for r1, d in enumerate(self.after[r0]) if d == AFTER_TRADE[1]]
            then = f"then raise with {','.join(raise_on)}, else stand" if raise_on else "then stand"
            out.append(f"{RANKS[r0]}: trade, {then}")
        return out


def _without(counts: Sequence[int], rank: int) -> list[int]:
    rest = list(counts)
    rest[rank] -= 1
    return rest


def main_game(decks: int, strategy: Strategy | None = None) -> BetAnalysis:
    """Ante, Raise and Trade per unit of Ante under the optimal strategy."""
    strategy = strategy or Strategy(decks)
    full = [4 * decks] * 13
    tally = Tally()
    for r0, keep in enumerate(strategy.first):
        rest = _without(full, r0)
        if keep is not None:
            pad = sum(rest) - 2
            for high, n in enumerate(dealer_highs(rest)):
                tally.add(*_main(r0, high, keep), full[r0] * n * pad)
            continue
        for r1 in range(13):
            left = _without(rest, r1)
            for high, n in enumerate(dealer_highs(left)):
                tally.add(*_main(r1, high, strategy.after[r0][r1]), full[r0] * rest[r1] * n)
    return tally.analysis("ante", {"player": "optimal strategy"}, strategy.lines())


Triple = tuple[int, int, int]
Pay = Callable[[int, Sequence[int]], Payout]
_PAIRS = list(combinations_with_replacement(range(52), 2))


def _weight(triple: Triple, counts: Sequence[int]) -> int:
    """Physical deals of a triple of identities (player card; dealer pair) from ``counts``."""
    p, a, b = triple
    n = counts[p]
    na = counts[a] - (a == p)
    nb = counts[b] - (b == p)
    return n * (na * nb if a != b else na * (na - 1) // 2)


def _canonical(t: Triple) -> Triple:
    """The triple with its suits renamed in order of appearance (player's first): side bets
    depend on which cards share a suit, never on which suit it is."""
    p, a, b = t
    sp, sa, sb = p & 3, a & 3, b & 3
    la = 0 if sa == sp else 1
    lb = 0 if sb == sp else la if sb == sa else la + 1
    a, b = (a & ~3) | la, (b & ~3) | lb
    return (p & ~3, a, b) if a <= b else (p & ~3, b, a)


def _containing(x: int) -> list[Triple]:
    """Every triple of identities that holds identity ``x``."""
    held = [(x, a, b) for a, b in _PAIRS]
    for p in range(52):
        if p != x:
            held += [(p, min(x, y), max(x, y)) for y in range(52)]
    return held


def side_bets(decks: int, payouts: Sequence[Pay], strategy: Strategy) -> list[tuple[Tally, Tally]]:
    """For each side bet: (tally under the strategy's trades, tally for a never-trading player).

    The full shoe's deals are counted with the player's card in one suit (times four, by suit
    symmetry), by the player's rank; a shoe missing a traded card of rank r (suit 0 will do, by
    the same symmetry) differs only on triples that hold that card, which are recounted."""
    full = [decks] * 52
    # counted by the outcomes' names (cheap to hash); each name tuple maps to its payouts
    memo: dict[Triple, tuple[str, ...]] = {}
    named: dict[tuple[str, ...], tuple[Payout, ...]] = {}

    def paid(t: Triple) -> tuple[str, ...]:
        canonical = _canonical(t)
        key = memo.get(canonical)
        if key is None:
            results = tuple(pay(canonical[0], canonical[1:]) for pay in payouts)
            key = memo[canonical] = tuple(r.outcome for r in results)
            named.setdefault(key, results)
        return key

    by_rank: list[Counter[tuple[str, ...]]] = [Counter() for _ in range(13)]
    for p in range(0, 52, 4):
        counter = by_rank[p >> 2]
        for a, b in _PAIRS:
            counter[paid((p, a, b))] += 4 * _weight((p, a, b), full)
    every: Counter[tuple[str, ...]] = sum(by_rank, Counter())
    shoe = 52 * decks
    optimal: Counter[tuple[str, ...]] = Counter()
    for r, keep in enumerate(strategy.first):
        if keep is not None:
            for key, n in by_rank[r].items():
                optimal[key] += n * (shoe - 3)
            continue
        x = _card(r, 0)
        rest = full.copy()
        rest[x] -= 1
        for key, n in every.items():
            optimal[key] += 4 * decks * n
        for t in _containing(x):
            optimal[paid(t)] += 4 * decks * (_weight(t, rest) - _weight(t, full))
    out = []
    for i in range(len(payouts)):
        tallies = (Tally(), Tally())
        for tally, counts in zip(tallies, (optimal, every)):
            for key, n in counts.items():
                payout = named[key][i]
                tally.add(payout.outcome, payout.odds, n)
        out.append(tallies)
    return out


def analyses(decks: int, rules: OneForTheMoneyRules | None = None) -> list[BetAnalysis]:
    rules = rules or OneForTheMoneyRules()
    strategy = Strategy(decks)
    bets: list[tuple[dict[str, str], Pay]] = []
    for name, table in ThreeCardBonusTable.PRESETS.items():
        rule_set = {"side_bet": "three-card-bonus", "pay_table": f"{name}: {table.describe()}"}
        bets.append((rule_set, lambda p, d, t=table: oftm.three_card_bonus_payout(p, d, t)))
    rule_set = {"side_bet": "perfect-match", "pay_table": rules.perfect_match.describe()}
    bets.append((rule_set, lambda p, d: oftm.perfect_match_payout(p, d, rules.perfect_match)))
    out = [main_game(decks, strategy)]
    tallies = side_bets(decks, [pay for _, pay in bets], strategy)
    for (rule_set, _), (optimal, never) in zip(bets, tallies):
        out.append(optimal.analysis("bonus", {**rule_set, "player": "optimal strategy (trades)"}))
        out.append(never.analysis("bonus", {**rule_set, "player": "never trades"}))
    return out
