"""A round's exact spread about its theoretical win (``gamemath.variance.theo``) against brute
force from plain values: every dealer deal settled by the rules engine, one by one."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations, permutations

import pytest

from tablectl.cards import card as parse_card
from tablectl.gamemath.variance.theo import conditional_moments, theo_variance
from tablectl.rounds import RoundHands, SeatHand
from tablectl.rules.houserules import RULES_BY_GAME
from tablectl.rules.settle import settle


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def brute(hands: RoundHands, rules: object, deals: list[tuple[int, ...]]) -> tuple[Fraction, Fraction]:
    """(E[X], E[X^2]) of the house result over ``deals`` (each equally likely), settled one by one."""
    xs = []
    for dealer in deals:
        hands.dealer = list(dealer)
        xs.append(-sum(r.net for r in settle(hands, rules).results))
    return Fraction(sum(xs), len(xs)), Fraction(sum(x * x for x in xs), len(xs))


def test_three_card_poker_two_seats_and_a_six_card_bonus_equal_settling_every_dealer_hand() -> None:
    rules = RULES_BY_GAME["three-card-poker"]()
    hands = RoundHands("three-card-poker", [
        SeatHand(1, cards("Qh 6d 4c"), {"ante": 500, "pairplus": 300}, ["play"]),
        SeatHand(3, cards("9s 9d 2h"), {"ante": 1000, "six-card-bonus": 500}, ["play"]),
        SeatHand(4, cards("Js Ts 3d"), {"ante": 500, "six-card-bonus": 500}, ["fold"]),  # flushes up to a royal
    ], banker_seat=6, banker_stake=1_000_000)
    held = {c for s in hands.seats for c in s.cards}
    deals = list(combinations([c for c in range(52) if c not in held], 3))
    assert conditional_moments(hands, rules, 1) == brute(hands, rules, deals)


def test_a_player_dealer_s_limited_stake_is_settled_as_the_table_settles_it() -> None:
    rules = RULES_BY_GAME["three-card-poker"]()
    hands = RoundHands("three-card-poker", [
        SeatHand(1, cards("Ah Kh Qh"), {"ante": 5000, "pairplus": 5000}, ["play"]),
        SeatHand(2, cards("8c 8d 3s"), {"ante": 5000}, ["play"]),
    ], banker_seat=5, banker_stake=20_000)
    held = {c for s in hands.seats for c in s.cards}
    deals = list(combinations([c for c in range(52) if c not in held], 3))
    assert conditional_moments(hands, rules, 1) == brute(hands, rules, deals)


def test_florida_pairplus_paid_only_over_the_dealer_is_exact() -> None:
    rules = RULES_BY_GAME["three-card-poker-florida"]()
    hands = RoundHands("three-card-poker-florida", [
        SeatHand(2, cards("Td Th 4s"), {"ante": 500, "pairplus": 500}, ["raise"]),
        SeatHand(5, cards("7c 5d 2h"), {"ante": 500, "pairplus": 500}, ["fold"]),
    ])
    held = {c for s in hands.seats for c in s.cards}
    deals = list(combinations([c for c in range(52) if c not in held], 3))
    assert conditional_moments(hands, rules, 1) == brute(hands, rules, deals)


def test_one_for_the_money_from_a_two_deck_shoe_equals_every_ordered_deal_of_its_cards() -> None:
    rules = RULES_BY_GAME["one-for-the-money"]()
    hands = RoundHands("one-for-the-money", [
        SeatHand(1, cards("9h"), {"ante": 500, "bonus": 500}, ["raise"]),
        SeatHand(2, cards("Kd"), {"ante": 500}, ["trade", "stand"], traded=cards("4c")),
        SeatHand(4, cards("9h"), {"ante": 1000, "bonus": 200}, ["check"]),
    ])
    shoe = Counter({c: 2 for c in range(52)})
    for s in hands.seats:
        shoe.subtract(s.cards + s.traded)
    physical = [c for c, n in shoe.items() for _ in range(n)]
    deals = [(physical[i], physical[j]) for i, j in permutations(range(len(physical)), 2)]
    assert conditional_moments(hands, rules, 2) == brute(hands, rules, deals)


def test_the_spread_is_the_mean_square_about_theo_variance_plus_the_squared_offset() -> None:
    rules = RULES_BY_GAME["three-card-poker-florida"]()
    hands = RoundHands("three-card-poker-florida", [SeatHand(1, cards("Qs 6h 4d"), {"ante": 1000}, ["raise"])])
    mean, square = conditional_moments(hands, rules, 1)  # type: ignore[misc]
    assert theo_variance(hands, rules, 1, mean) == pytest.approx(float(square - mean * mean))
    assert theo_variance(hands, rules, 1, mean - 100) == pytest.approx(float(square - mean * mean) + 100 * 100)


def test_games_whose_unknown_cards_are_not_enumerated_give_none() -> None:
    hands = RoundHands("one-card-poker", [SeatHand(1, cards("Ah"), {"primary": 500})], dealer=cards("Kd"),
                       banker_seat=2, banker_stake=100_000)
    assert theo_variance(hands, RULES_BY_GAME["one-card-poker"](), 6, 0) is None
