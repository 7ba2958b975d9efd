"""The sightings of a Texas Hold'em Bonus round: its Turn and River decisions under each dealer
hole card, the edge sort and each partner's cards, with the values of each sight valued alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablectl.analytics.export.sightings import sightings
from tablectl.cards import cards
from tablectl.gamemath.decisions.judge import judge_round
from tablectl.gamemath.decisions.sight import HIGH, LOW, Sight
from tablectl.gamemath.decisions.value import clear_cache, decision_values
from tablectl.rounds import RoundHands, SeatHand


def _round() -> RoundHands:
    seats = [SeatHand(1, cards("AH KH"), {"ante": 500}, ["flop", "check", "river"]),
             SeatHand(3, cards("9S 8S"), {"ante": 500}, ["flop", "turn", "check"])]
    return RoundHands("texas-holdem-bonus", seats, dealer=cards("QC 2D"), board=cards("QH 7S 3D 9C 4S"))


@pytest.fixture(autouse=True)
def _no_main_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # the decision before the flop not valued
    clear_cache()


def test_a_texas_holdem_bonus_round_gives_sightings_of_its_turn_and_river_decisions_under_every_hypothesis() -> None:
    hands = _round()
    found = sightings(hands, judge_round(hands))
    by_decision = {(s.seat, s.decision): sorted(x.hypothesis for x in found if (x.seat, x.decision) == (s.seat, s.decision))
                   for s in found}
    assert by_decision == {(1, 1): ["edge", "hole:1", "hole:2", "team:3"], (1, 2): ["edge", "hole:1", "hole:2", "team:3"],
                           (3, 1): ["edge", "hole:1", "hole:2", "team:1"], (3, 2): ["edge", "hole:1", "hole:2", "team:1"]}


def test_a_texas_holdem_bonus_sighting_holds_the_values_of_its_sight_valued_alone() -> None:
    hands = _round()
    found = {(s.seat, s.decision, s.hypothesis): s for s in sightings(hands, judge_round(hands))}
    clear_cache()
    own, board, made = tuple(cards("AH KH")), tuple(cards("QH 7S 3D")), ("flop",)
    expected = {
        "hole:1": Sight(own, board, dealer=(cards("QC")[0], None), made=made),
        "edge": Sight(own, board, dealer=(HIGH, LOW), made=made),
        "team:3": Sight(own, board, others=tuple(cards("9S 8S")), made=made),
    }
    for name, sight in expected.items():
        alone = decision_values("texas-holdem-bonus", ("turn", "check"), sight)
        got = found[(1, 1, name)]
        assert got.hidden == tuple(float(alone.values[o]) for o in got.options)  # type: ignore[arg-type]
