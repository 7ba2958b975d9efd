"""A settled round's judged decisions as detection rows: one per valued decision, with the values
under every hidden-information hypothesis the game allows."""

from __future__ import annotations

import pytest

from tablectl.cards import cards
from tablectl.detection.rows import detection_rows
from tablectl.gamemath.decisions.judge import judge_round
from tablectl.gamemath.decisions.sight import Sight
from tablectl.gamemath.decisions.value import decision_values
from tablectl.rounds import RoundHands, SeatHand


def tcp_round() -> RoundHands:
    seats = [SeatHand(1, cards("QC 6D 3H"), {"ante": 500}, ["fold"]), SeatHand(2, cards("KS 8H 4C"), {"ante": 500}, ["play"])]
    return RoundHands("three-card-poker", seats, dealer=cards("2S 5C 9D"))


def test_a_three_card_round_gives_each_seat_the_three_hole_cards_the_edge_sort_and_its_neighbour() -> None:
    hands = tcp_round()
    rows = detection_rows(41, hands, judge_round(hands))
    assert [(r.round, r.seat, r.choice) for r in rows] == [(41, 1, "fold"), (41, 2, "play")]
    assert sorted(rows[0].hidden) == ["edge", "hole:1", "hole:2", "hole:3", "team:2"]
    assert sorted(rows[1].hidden) == ["edge", "hole:1", "hole:2", "hole:3", "team:1"]


def test_the_hole_card_values_are_those_of_the_seat_seeing_that_dealer_card() -> None:
    hands = tcp_round()
    seat1 = detection_rows(1, hands, judge_round(hands))[0]
    seen = decision_values("three-card-poker", ("play", "fold"), Sight(tuple(cards("QC 6D 3H")), dealer=(None, cards("5C")[0], None)))
    assert seat1.hidden["hole:2"] == pytest.approx(tuple(float(seen.values[o]) for o in ("play", "fold")))  # type: ignore[arg-type]
    assert seat1.own[1] == -1.0 and seat1.own[0] < -1.0  # Q-6-3 folds from its own cards


def test_one_card_poker_tie_decisions_carry_only_the_team_hypotheses() -> None:
    seats = [SeatHand(1, cards("7H"), {"primary": 500}, ["surrender"]), SeatHand(2, cards("9C"), {"primary": 500}, []),
             SeatHand(3, cards("2S"), {}, [])]
    hands = RoundHands("one-card-poker", seats, dealer=cards("7S"), banker_seat=3)
    (row,) = detection_rows(5, hands, judge_round(hands, decks=6), decks=6)
    assert list(row.hidden) == ["team:2"]
