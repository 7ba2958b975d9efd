"""Exact One for the Money math: side bets against published and hand counts, the main game
against an independent enumeration of live settlements."""

from fractions import Fraction
from functools import cache
from math import comb

import pytest

from tablectl.gamemath import one_for_the_money as math1
from tablectl.gamemath.table import BetAnalysis
from tablectl.rounds import RoundHands, SeatHand
from tablectl.rules import one_for_the_money as oftm
from tablectl.rules.settle import settle


@cache
def bonus_analyses(decks: int) -> dict[tuple[str, str], BetAnalysis]:
    return {(a.rules["pay_table"], a.rules["player"]): a for a in math1.analyses(decks)[1:]}


def counts(analysis: BetAnalysis) -> dict[str, int]:
    return {line.outcome: line.combinations for line in analysis.outcomes}


@pytest.mark.parametrize(
    ("decks", "published"),
    [
        # Wizard of Odds, blackjack side bet "Flush", return tables for two and four decks (counts
        # of unordered three-card hands; here the player's card is told apart: three times as many).
        (2, {"straight-flush": 384, "three-of-a-kind": 728, "straight": 5760, "flush": 10016}),
        (4, {"straight-flush": 3072, "three-of-a-kind": 7280, "straight": 46080, "flush": 85120}),
    ],
)
def test_three_card_bonus_hands_match_wizard_of_odds_counts(decks: int, published: dict[str, int]) -> None:
    found = counts(bonus_analyses(decks)["1: 40/30/10/5", "never trades"])
    assert {k: found[k] for k in published} == {k: 3 * n for k, n in published.items()}
    assert sum(found.values()) == 3 * comb(52 * decks, 3)


def test_perfect_match_lines_match_hand_counts_at_six_decks() -> None:
    # player's card: 312 ways; per identity 6 copies, per rank 24 cards.
    found = counts(bonus_analyses(6)["100/30/10/3", "never trades"])
    assert found["suited-three-of-a-kind"] == 312 * comb(5, 2)
    assert found["three-of-a-kind"] == 312 * (comb(23, 2) - comb(5, 2))
    assert found["identical-match"] == 312 * 5 * (312 - 24)
    assert found["rank-match"] == 312 * 18 * (312 - 24)


def test_trading_does_not_change_the_perfect_match_odds() -> None:
    # every card identity is alike to the Perfect Match, so a shoe missing a traded card deals
    # the same odds as a full one
    bets = bonus_analyses(6)
    assert bets["100/30/10/3", "optimal strategy (trades)"].house_edge == bets["100/30/10/3", "never trades"].house_edge


def test_trading_changes_the_three_card_bonus_odds() -> None:
    # kept first cards are high, and K and A (like 2) sit in only two straights
    bets = bonus_analyses(6)
    assert bets["1: 40/30/10/5", "optimal strategy (trades)"].house_edge != bets["1: 40/30/10/5", "never trades"].house_edge


OPTIONS = ((oftm.CHECK,), (oftm.RAISE,), (oftm.TRADE, oftm.STAND), (oftm.TRADE, oftm.RAISE))


@cache
def settled(final: int, dealer: tuple[int, int], decisions: tuple[str, ...]) -> int:
    """Net cents on a 1-cent Ante from a live settlement of one deal (by ranks)."""
    traded = [0] if oftm.TRADE in decisions else []
    seat = SeatHand(1, [final << 2 | 2], {oftm.ANTE: 1}, list(decisions), traded=traded)
    hands = RoundHands(oftm.GAME, [seat], dealer=[dealer[0] << 2, dealer[1] << 2 | 1])
    return settle(hands).net_for(1)


def dealer_sum(final: int, shoe: list[int], decisions: tuple[str, ...]) -> int:
    """Net over every ordered dealer pair from ``shoe`` (counts by rank)."""
    total = 0
    for a in range(13):
        for b in range(13):
            n = shoe[a] * (shoe[b] - (a == b))
            if n:
                total += n * settled(final, (a, b), decisions)
    return total


def option_values(decks: int, first: int) -> dict[tuple[str, ...], Fraction]:
    """Expected net per Ante of each option for a first card of rank ``first``."""
    shoe = [4 * decks] * 13
    shoe[first] -= 1
    left = sum(shoe)
    values = {d: Fraction(dealer_sum(first, shoe, d), left * (left - 1)) for d in OPTIONS[:2]}
    for then in OPTIONS[2:]:
        values[then] = Fraction(0)
    best_after = Fraction(0)
    for new in range(13):
        rest = list(shoe)
        rest[new] -= 1
        weight = Fraction(shoe[new], left) / ((left - 1) * (left - 2))
        after = [weight * dealer_sum(new, rest, d) for d in OPTIONS[2:]]
        for d, v in zip(OPTIONS[2:], after):
            values[d] += v
        best_after += max(after)
    values[("trade", "best")] = best_after
    return values


@pytest.mark.parametrize("decks", [1, 6])
def test_found_strategy_takes_the_best_option_for_every_first_card(decks: int) -> None:
    strategy = math1.Strategy(decks)
    for first in range(13):
        values = option_values(decks, first)
        keep_best = max(values[OPTIONS[0]], values[OPTIONS[1]])
        if strategy.first[first] is None:
            assert values["trade", "best"] >= keep_best
        else:
            assert values[strategy.first[first]] == keep_best >= values["trade", "best"]


@pytest.mark.parametrize("decks", [1, 6])
def test_main_game_house_edge_equals_live_settlement_under_the_found_strategy(decks: int) -> None:
    strategy = math1.Strategy(decks)
    expected = Fraction(0)
    for first in range(13):
        values = option_values(decks, first)
        keep = strategy.first[first]
        expected += Fraction(1, 13) * (values["trade", "best"] if keep is None else values[keep])
    assert math1.main_game(decks, strategy).house_edge == -expected
