"""The round values shared by the deal scripts, the rules engine and review (``tablectl.rounds``)."""

from __future__ import annotations

import dataclasses

import pytest

from tablectl.rounds import BetResult, RoundHands, SeatHand


def test_a_hands_omitted_lists_and_wagers_start_empty_and_are_its_own() -> None:
    one, two = SeatHand(1), SeatHand(1)
    assert (one.cards, one.wagers, one.decisions, one.traded, one.war) == ([], {}, [], [], [])
    one.decisions.append("extend")
    one.war.append((0, 1))
    assert two == SeatHand(1) and two.decisions == [] and two.war == []


def test_a_rounds_omitted_dealer_and_board_start_empty_and_are_its_own() -> None:
    one, two = RoundHands("g", []), RoundHands("g", [])
    one.dealer.append(5)
    assert (two.dealer, two.board, two.banker_seat, two.banker_stake) == ([], [], None, None)


def test_hands_are_dataclasses_equal_by_value() -> None:
    hand = SeatHand(2, [5], {"ante": 100}, ["play"], war=[(1, 2)])
    assert hand == SeatHand(2, cards=[5], wagers={"ante": 100}, decisions=["play"], traded=[], war=[(1, 2)])
    assert dataclasses.replace(hand, seat=3).seat == 3
    assert [f.name for f in dataclasses.fields(RoundHands)][:3] == ["game", "seats", "dealer"]
    assert RoundHands("g", [hand], [7]) == RoundHands("g", [hand], dealer=[7])


def test_a_bet_result_is_an_immutable_value() -> None:
    result = BetResult(3, "ante", 100, "win", "1:1", 100)
    assert result == (3, "ante", 100, "win", "1:1", 100) and result.net == 100
    assert result._replace(net=50) == BetResult(3, "ante", 100, "win", "1:1", 50)
    with pytest.raises(AttributeError):
        result.net = 0  # type: ignore[misc]
