"""A settled round's player decisions found with what each player could see, and judged."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from tablectl.cards import cards
from tablectl.gamemath.decisions.judge import decision_points, judge_round
from tablectl.gamemath.decisions.sight import Sight
from tablectl.gamemath.decisions.value import clear_cache
from tablectl.rounds import RoundHands, SeatHand


def test_a_three_card_fold_of_q63_costs_nothing_but_knowing_the_low_dealer_hand_plays() -> None:
    hands = RoundHands("three-card-poker", [SeatHand(1, cards("QC 6D 3H"), {"ante": 500}, ["fold"])], dealer=cards("2S 5C 9D"))
    (judged,) = judge_round(hands)
    assert judged.point.options == ("play", "fold") and judged.best == "fold" and judged.cost == 0
    assert judged.best_knowing_dealer == "play"


def test_a_one_for_the_money_trade_is_two_decisions_the_second_seeing_both_cards() -> None:
    seat = SeatHand(2, cards("KH"), {"ante": 500}, ["trade", "raise"], traded=cards("4D"))
    first, after = decision_points(RoundHands("one-for-the-money", [seat], dealer=cards("9S 3C")))
    assert (first.choice, first.sight) == ("trade", Sight(tuple(cards("4D"))))
    assert (after.options, after.choice, after.sight.own, after.sight.made) == (("stand", "raise"), "raise", tuple(cards("4D KH")), ("trade",))
    judged = judge_round(RoundHands("one-for-the-money", [seat], dealer=cards("9S 3C")), decks=6)
    assert [j.best for j in judged] == ["trade", "raise"] and all(j.cost == 0 for j in judged)


def test_holdem_decisions_see_the_board_dealt_before_each(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # a machine without the main game's analysis
    clear_cache()
    seat = SeatHand(1, cards("AH KH"), {"ante": 500}, ["flop", "check", "river"])
    hands = RoundHands("texas-holdem-bonus", [seat], dealer=cards("2C 2D"), board=cards("QH 7S 3D 9C 4S"))
    points = decision_points(hands)
    assert [len(p.sight.board) for p in points] == [0, 3, 4]
    assert [p.sight.made for p in points] == [(), ("flop",), ("flop", "check")]
    judged = judge_round(hands)
    assert judged[0].best is None and judged[0].cost is None  # before the flop: not valued here
    assert judged[1].values.keys() == {"turn", "check"} and judged[2].cost is not None


def test_one_card_poker_judges_the_players_tie_decision_not_the_dps() -> None:
    seats = [SeatHand(1, cards("7H"), {"primary": 500}, ["surrender"]), SeatHand(3, cards("2S"), {}, [])]
    (judged,) = judge_round(RoundHands("one-card-poker", seats, dealer=cards("7S"), banker_seat=3), decks=6)
    assert judged.point.sight.dealer == tuple(cards("7S"))
    assert judged.best == "extend" and judged.cost == Fraction(1, 2)


def test_a_decision_met_again_is_judged_alike_and_forgotten_with_the_values() -> None:
    from tablectl.gamemath.decisions.value import JUDGED

    clear_cache()
    seat = SeatHand(2, cards("KH"), {"ante": 500}, ["trade", "raise"], traded=cards("4D"))
    hands = RoundHands("one-for-the-money", [seat], dealer=cards("9S 3C"))
    first = judge_round(hands, decks=6)
    assert JUDGED  # remembered
    again = judge_round(RoundHands("one-for-the-money", [seat], dealer=cards("9S 3C")), decks=6)
    assert [(j.values, j.best, j.cost, j.best_knowing_dealer) for j in again] == \
        [(j.values, j.best, j.cost, j.best_knowing_dealer) for j in first]
    clear_cache()
    assert not JUDGED
