"""Exact One Card Poker math against hand counts and an independent probability recursion."""

from fractions import Fraction
from math import perm

import pytest

from tablectl.gamemath import one_card_poker as math1
from tablectl.gamemath.table import BetAnalysis
from tablectl.rules.houserules import OneCardPokerRules

RULES = OneCardPokerRules()


def probabilities(analysis: BetAnalysis) -> dict[str, Fraction]:
    return {line.outcome: analysis.probability(line) for line in analysis.outcomes}


@pytest.mark.parametrize("decks", [1, 6, 8])
def test_extending_every_tie_gives_the_dp_no_edge(decks: int) -> None:
    # the player's and the DP's cards are exchangeable: every win has a mirror loss
    assert math1.primary_extend(decks, RULES).house_edge == 0


@pytest.mark.parametrize("decks", [1, 6, 8])
def test_surrendering_every_tie_costs_half_the_tie_probability(decks: int) -> None:
    tie = Fraction(4 * decks - 1, 52 * decks - 1)
    assert math1.primary_surrender(decks, RULES).house_edge == tie / 2


def test_six_deck_sequences_are_eight_cards_long() -> None:
    assert math1.tie_wager(6, RULES, extended=True).combinations == perm(312, 8)


def test_surrendered_tie_wager_lines_match_hand_counts() -> None:
    # 312 * 311 ordered initial pairs; per rank 24 cards, 12 of them black.
    found = probabilities(math1.tie_wager(6, RULES, extended=False))
    pairs = 312 * 311
    assert found["ace-tie"] == Fraction(24 * 23, pairs)
    assert found["black-tie"] == Fraction(12 * 12 * 11, pairs)
    assert found["any-tie"] == Fraction(12 * (24 * 23 - 12 * 11), pairs)


def at_least(counts: tuple[int, ...], ties: int) -> Fraction:
    """P(the next ``ties`` ordered pairs all tie), from a shoe of ``counts`` per rank (independent
    of the engine: plain conditional probabilities)."""
    if ties == 0:
        return Fraction(1)
    total = sum(counts)
    p = Fraction(0)
    for rank, n in enumerate(counts):
        if n >= 2:
            rest = list(counts)
            rest[rank] -= 2
            p += Fraction(n * (n - 1), total * (total - 1)) * at_least(tuple(rest), ties - 1)
    return p


def test_extended_tie_wager_lines_match_conditional_probabilities() -> None:
    full = (24,) * 13
    after_ace_tie = (24,) * 12 + (22,)
    after_other_tie = (22,) + (24,) * 12
    first = Fraction(312 * 311)
    war_tie_after_aces = at_least(after_ace_tie, 1)
    war_tie_after_other = at_least(after_other_tie, 1)
    found = probabilities(math1.tie_wager(6, RULES, extended=True))
    assert found["quad-tie"] == at_least(full, 4)
    assert found["triple-tie"] == at_least(full, 3) - at_least(full, 4)
    assert found["double-tie"] == at_least(full, 2) - at_least(full, 3)
    assert found["ace-tie"] == 24 * 23 / first * (1 - war_tie_after_aces)
    assert found["black-tie"] == 12 * 12 * 11 / first * (1 - war_tie_after_other)
    assert found["any-tie"] == 12 * (24 * 23 - 12 * 11) / first * (1 - war_tie_after_other)
