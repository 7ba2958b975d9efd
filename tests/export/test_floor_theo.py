"""The floor's theoretical win from the play actually made, per seat and per table, beside the
optimal-play figures: read from the small simulated floor's export."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablectl.analytics.floor.report import floor


@pytest.fixture(scope="module")
def seats(exported: Path) -> list[dict]:
    return [s for s in floor(exported).seats.dicts() if s["expected_player_net"] is not None]


def test_each_seat_shows_its_theoretical_win_its_actual_win_and_its_edge_as_played(seats: list[dict]) -> None:
    assert seats
    for s in seats:
        assert s["win"] == -s["player_net"]
        assert s["edge_as_played"] == pytest.approx(-s["theo_win"] / s["handle"])


def test_a_seat_playing_the_maths_strategy_has_the_optimal_expected_win_as_its_theo(seats: list[dict]) -> None:
    optimal = [s for s in seats if s["table_id"].startswith(("oftm", "tcpfl"))]
    assert optimal
    for s in optimal:
        assert s["theo_win"] == pytest.approx(-s["expected_player_net"]), s


def test_a_seat_that_departs_from_the_strategy_has_a_theo_above_the_optimal_expected_win(seats: list[dict]) -> None:
    thb = [s for s in seats if s["table_id"].startswith("thb")]
    assert thb  # its simulated players do not follow the main game's strategy
    assert any(s["theo_win"] > -s["expected_player_net"] + 1 for s in thb)
    assert all(s["theo_win"] >= -s["expected_player_net"] - 1e-6 for s in thb)


def test_each_table_shows_its_theoretical_win_over_every_settled_round(exported: Path) -> None:
    for t in floor(exported).tables.dicts():
        assert t["theo_rounds"] > 0 and t["theo_win"] is not None
        assert t["edge_as_played"] == pytest.approx(-t["theo_win"] / t["handle"], rel=0.05)
