"""Every player decision of an exported table judged against exact strategy, and each round's
theoretical win from the play actually made: a simulated Three Card Poker table with a
hole-carder at seat 1 and a basic-strategy player at seat 2, exported and read with DuckDB."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from exporthelpers import run_tablectl

from tablectl.analytics.expected import wager_math



@pytest.fixture(scope="module")
def table(hole_card_table: Path) -> Path:
    """The table's folder: ``logs``, ``keys`` and the export ``ds`` (``conftest.hole_card_table``)."""
    return hole_card_table


@pytest.fixture(scope="module")
def dataset(table: Path) -> Path:
    return table / "ds"


def _sql(ds: Path, query: str) -> list[tuple]:
    return duckdb.sql(query.replace("$decisions", f"read_parquet('{ds}/decisions/**/*.parquet')")
                      .replace("$rounds", f"read_parquet('{ds}/rounds/**/*.parquet')")
                      .replace("$bets", f"read_parquet('{ds}/bets/**/*.parquet')")).fetchall()


def test_every_decision_of_the_basic_player_is_the_best_and_costs_nothing(dataset: Path) -> None:
    rows = _sql(dataset, "SELECT decision, best, cost_units, cost, ev_choice, ev_best FROM $decisions WHERE seat = 2")
    assert len(rows) >= 20
    assert all(d == best and units == 0 and cost == 0 and ev == top for d, best, units, cost, ev, top in rows)


def test_the_hole_carder_makes_costly_choices_that_only_the_dealers_cards_explain(dataset: Path) -> None:
    rows = _sql(dataset, """SELECT d.decision, d.best, d.cost_units, d.cost, b.stake FROM $decisions d
                            JOIN $bets b ON b.round_id = d.round_id AND b.seat = d.seat AND b.bet = 'ante'
                            WHERE d.seat = 1 AND d.decision = d.best_knowing_dealer AND d.decision <> d.best""")
    assert rows, "no decision of seat 1 that only the dealer's cards explain"
    for _, _, units, cost, stake in rows:
        assert units > 0 and cost == pytest.approx(units * stake)  # cents: units x the Ante


def test_a_rounds_theoretical_win_is_the_optimal_edge_plus_what_the_decisions_cost(dataset: Path) -> None:
    edges = {m.wager: m.edge for m in wager_math("three-card-poker", 1, None)}
    stakes = _sql(dataset, "SELECT wager, sum(stake) FROM $bets WHERE bet = wager GROUP BY wager")
    optimal = sum(edges[w] * s for w, s in stakes)
    ((cost,),) = _sql(dataset, "SELECT sum(cost) FROM $decisions")
    ((theo, judged),) = _sql(dataset, "SELECT sum(theo_win), count(theo_win) = count(*) FROM $rounds")
    assert judged and cost > 0
    assert theo == pytest.approx(optimal + cost, rel=1e-9)


def test_review_lists_the_seats_decisions_only_the_dealers_cards_explain_with_round_and_cards(table: Path) -> None:
    done = run_tablectl("review", table / "logs", "--key", table / "keys" / "table.pub", "--seat", "1")
    assert done.code == 0, done.err
    section = done.out.split("Decisions only the dealer's cards explain:\n", 1)[1].split("Costliest", 1)[0]
    listed = {line.split(":", 1)[0].split()[-1] for line in section.splitlines()}
    rows = _sql(table / "ds", """SELECT round FROM $decisions WHERE seat = 1 AND decision = best_knowing_dealer
                                 AND decision <> best""")
    assert listed == {str(r) for (r,) in rows}
    assert all("own " in line and "dealer " in line for line in section.splitlines())


def test_review_of_a_basic_strategy_seat_lists_no_costly_decision(table: Path) -> None:
    done = run_tablectl("review", table / "logs", "--key", table / "keys" / "table.pub", "--seat", "2")
    assert done.code == 0, done.err
    assert "No decision cost anything." in done.out and "0 only the dealer's cards explain" in done.out


def test_review_flags_the_hole_carder_for_the_dealer_card_he_sees_with_the_rounds_that_show_it(table: Path) -> None:
    done = run_tablectl("review", table / "logs", "--key", table / "keys" / "table.pub", "--seat", "1")
    assert done.code == 0, done.err
    tests = done.out.split("Play from hidden cards", 1)[1]
    assert [line.strip().split(": FLAGGED;")[0] for line in tests.splitlines() if ": FLAGGED;" in line] == ["hole:1"]
    evidence = [line for line in tests.splitlines() if line.startswith("    round ")]
    assert evidence and all(", best from own cards " in line and ", best knowing it " in line for line in evidence)


def test_review_flags_no_hidden_information_for_a_basic_strategy_seat(table: Path) -> None:
    done = run_tablectl("review", table / "logs", "--key", table / "keys" / "table.pub", "--seat", "2")
    assert done.code == 0, done.err
    assert "Play from hidden cards" in done.out and "FLAGGED" not in done.out


def test_review_seat_with_json_exits_2_naming_the_option(table: Path) -> None:
    done = run_tablectl("review", table / "logs", "--seat", "1", "--json")
    assert done.code == 2 and "--seat" in done.err
