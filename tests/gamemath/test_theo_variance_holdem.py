"""Texas Hold'em Bonus's exact spread about the theoretical win (``gamemath.variance.theo``)
against brute force: every pair of dealer hole cards the seats' cards and the board leave, each
settled by the rules engine on the whole round, in Fractions."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablectl.cards import card as parse_card
from tablectl.gamemath.variance.theo import conditional_moments, theo_variance
from tablectl.rounds import RoundHands, SeatHand
from tablectl.rules.houserules import RULES_BY_GAME
from tablectl.rules.settle import settle

GAME = "texas-holdem-bonus"


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def brute(hands: RoundHands, rules: object) -> tuple[Fraction, Fraction]:
    """(E[X], E[X^2]) of the house result over every dealer pair of the unseen cards, one by one."""
    seen = {c for s in hands.seats for c in s.cards} | set(hands.board)
    xs = []
    for pair in combinations([c for c in range(52) if c not in seen], 2):
        hands.dealer = list(pair)
        xs.append(-sum(r.net for r in settle(hands, rules).results))
    return Fraction(sum(xs), len(xs)), Fraction(sum(x * x for x in xs), len(xs))


def test_one_seat_with_aces_and_a_bonus_equals_settling_all_990_dealer_pairs() -> None:
    rules = RULES_BY_GAME[GAME]()
    hands = RoundHands(GAME, [SeatHand(2, cards("Ah As"), {"ante": 500, "bonus": 500}, ["flop", "turn", "river"])],
                       board=cards("Kd 9c 5h 4s 2d"))  # the dealer may hold the other two aces
    assert conditional_moments(hands, rules, 1) == brute(hands, rules)


def test_seats_playing_checking_and_folding_with_bonuses_share_the_dealer_hand_exactly() -> None:
    rules = RULES_BY_GAME[GAME]()
    hands = RoundHands(GAME, [
        SeatHand(1, cards("Qh Jh"), {"ante": 1000, "bonus": 500}, ["flop", "check", "river"]),
        SeatHand(3, cards("7c 2d"), {"ante": 500, "bonus": 500}, ["fold"]),  # the Bonus stands after a fold
        SeatHand(4, cards("Ac Kc"), {"ante": 500}, ["flop", "turn", "check"]),
        SeatHand(6, cards("9s 9d"), {"ante": 2500, "bonus": 1000}, ["flop", "turn", "river"]),
    ], board=cards("Th 8h 9h 3c Ad"))  # flushes, straights and sets on the board
    assert conditional_moments(hands, rules, 1) == brute(hands, rules)


def test_a_board_that_plays_for_everyone_ties_as_the_rules_engine_ties() -> None:
    rules = RULES_BY_GAME[GAME]()
    hands = RoundHands(GAME, [
        SeatHand(1, cards("2c 3d"), {"ante": 500}, ["flop", "check", "check"]),
        SeatHand(5, cards("4h 2s"), {"ante": 500, "bonus": 500}, ["flop", "check", "check"]),
    ], board=cards("Ts Js Qs Ks As"))
    assert conditional_moments(hands, rules, 1) == brute(hands, rules)


def test_the_bonus_forfeited_by_a_fold_is_settled_as_the_house_rules_say() -> None:
    rules = replace(RULES_BY_GAME[GAME](), fold_forfeits_bonus=True)
    hands = RoundHands(GAME, [
        SeatHand(1, cards("Ad Ac"), {"ante": 500, "bonus": 500}, ["fold"]),
        SeatHand(2, cards("Kd Qd"), {"ante": 500, "bonus": 500}, ["flop", "turn", "river"]),
    ], board=cards("Jd 6s 5c 4h 3h"))
    assert conditional_moments(hands, rules, 1) == brute(hands, rules)


def test_every_seat_folded_on_a_short_board_leaves_every_unseen_pair_to_the_dealer() -> None:
    rules = RULES_BY_GAME[GAME]()
    hands = RoundHands(GAME, [
        SeatHand(1, cards("As Ah"), {"ante": 500, "bonus": 500}, ["fold"]),
        SeatHand(2, cards("8c 3d"), {"ante": 500}, ["fold"]),
    ], board=[])
    assert conditional_moments(hands, rules, 1) == brute(hands, rules)


def test_a_seat_playing_on_without_a_whole_board_is_refused_with_the_board_named() -> None:
    hands = RoundHands(GAME, [SeatHand(1, cards("As Ah"), {"ante": 500}, ["flop", "check", "check"])],
                       board=cards("2c 3d 4h"))
    with pytest.raises(ValueError, match="3 board cards, not 5"):
        conditional_moments(hands, RULES_BY_GAME[GAME](), 1)


def test_the_spread_about_theo_is_the_variance_plus_the_squared_offset() -> None:
    rules = RULES_BY_GAME[GAME]()
    hands = RoundHands(GAME, [SeatHand(1, cards("Kh 7h"), {"ante": 1000}, ["flop", "check", "river"])],
                       board=cards("Kc 8h 2h 5d Js"))
    mean, square = conditional_moments(hands, rules, 1)  # type: ignore[misc]
    assert theo_variance(hands, rules, 1, mean - 250) == pytest.approx(float(square - mean * mean) + 250 * 250)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.permutations(range(52)), st.sampled_from([["fold"], ["flop", "turn", "river"], ["flop", "check", "river"],
                                                   ["flop", "check", "check"]]), st.integers(1, 3), st.booleans())
def test_any_round_of_one_to_three_seats_equals_settling_every_dealer_pair(deck: list[int], play: list[str], seats: int,
                                                              bonus: bool) -> None:
    rules = RULES_BY_GAME[GAME]()
    hands = RoundHands(GAME, [SeatHand(seat, deck[2 * seat:2 * seat + 2], {"ante": 500, "bonus": 100 * bonus},
                                       play if seat % 2 else ["flop", "turn", "river"]) for seat in range(1, seats + 1)],
                       board=deck[:2] + deck[16:19])
    assert conditional_moments(hands, rules, 1) == brute(hands, rules)
