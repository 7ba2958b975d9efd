"""Play from hidden cards caught on the floor: a simulated Three Card Poker table (seat 1 a
hole-carder, seat 2 basic strategy) run, exported and screened by ``tablectl floor`` as a user
runs them; and a floor of honest seats that flags nothing."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from exporthelpers import Done, run_tablectl

CONFIG = Path(__file__).parents[2] / "config" / "tables" / "three-card-poker.toml"


@pytest.fixture(scope="module")
def screened(hole_card_table: Path) -> Done:
    return run_tablectl("floor", hole_card_table / "ds", "--json")


def _flags(done: Done) -> list[dict]:
    return json.loads(done.out)["advantage_play"]["flags"]


def _sightings(ds: Path, query: str) -> list[tuple]:
    return duckdb.sql(query.replace("$sightings", f"read_parquet('{ds}/sightings/**/*.parquet')")
                      .replace("$decisions", f"read_parquet('{ds}/decisions/**/*.parquet')")).fetchall()


def test_the_sightings_dataset_holds_every_judged_decision_under_each_dealer_card_and_the_edge_sort(
        hole_card_table: Path) -> None:
    ds = hole_card_table / "ds"
    judged = _sightings(ds, "SELECT count(*) FROM $decisions WHERE ev_choice IS NOT NULL")[0][0]
    per = dict(_sightings(ds, "SELECT hypothesis, count(*) FROM $sightings GROUP BY ALL"))
    assert judged > 100
    assert {h: per.get(h) for h in ("hole:1", "hole:2", "hole:3", "edge")} == dict.fromkeys(
        ("hole:1", "hole:2", "hole:3", "edge"), judged)


def test_a_sighting_carries_the_decisions_choice_and_its_own_values_as_the_decisions_dataset_judged_them(
        hole_card_table: Path) -> None:
    ds = hole_card_table / "ds"
    rows = _sightings(ds, """SELECT s.options, s.choice, s.own, d.decision, d.ev_choice, d.best FROM $sightings s
                             JOIN $decisions d ON d.seq = s.seq AND d.seat = s.seat WHERE s.hypothesis = 'hole:1'""")
    assert rows
    for options, choice, own, decision, ev_choice, best in rows:
        assert choice == decision and own[options.index(choice)] == pytest.approx(ev_choice)
        assert options[own.index(max(own))] == best or max(own) == own[options.index(best)]


def test_the_floor_flags_the_hole_carder_for_the_dealers_first_card(screened: Done) -> None:
    seat1 = [(f["table_id"], f["seat"], f["hypothesis"]) for f in _flags(screened) if f["seat"] == 1]
    assert ("tcp-1", 1, "hole:1") in seat1


def test_a_flag_lists_the_rounds_only_the_hidden_card_explains(screened: Done, hole_card_table: Path) -> None:
    flag = next(f for f in _flags(screened) if f["seat"] == 1 and f["hypothesis"] == "hole:1")
    rows = _sightings(hole_card_table / "ds", """SELECT round_id, options, choice, own, coalesce(hidden, own)
                                                   FROM $sightings WHERE seat = 1 AND hypothesis = 'hole:1'""")
    explained = {r for r, options, choice, own, hidden in rows  # the best seeing the first card, not from his own
                 if options[hidden.index(max(hidden))] == choice != options[own.index(max(own))]}
    assert flag["count"] == len(flag["rounds"]) >= 5
    assert set(flag["rounds"]) == explained
    assert flag["p"] < 0.05 / json.loads(screened.out)["advantage_play"]["tests"]


def test_the_basic_strategy_seat_is_not_flagged(screened: Done) -> None:
    assert [f for f in _flags(screened) if f["seat"] == 2] == []


def test_a_flagged_seat_makes_the_floor_exit_1(screened: Done) -> None:
    assert screened.code == 1, screened.err
    assert json.loads(screened.out)["flagged"]["advantage_play"] == ["tcp-1 seat 1 on " + _flags(screened)[0]["date"] + " hole:1"]


def test_the_floor_states_the_method_and_the_number_of_tests(screened: Done) -> None:
    found = json.loads(screened.out)["advantage_play"]
    assert found["method"] == "holm" and found["alpha"] == 0.05
    assert found["sessions"] == 8 and found["tests"] >= 8 * 4  # each seat: three dealer cards and the edge sort, at least


def test_the_text_report_names_the_flag_and_its_rounds(hole_card_table: Path, screened: Done) -> None:
    done = run_tablectl("floor", hole_card_table / "ds")
    flag = next(f for f in _flags(screened) if f["seat"] == 1)
    assert done.code == 1
    assert f"FLAGGED tcp-1 seat 1 on {flag['date']}: hole:1" in done.out
    assert f"round {flag['rounds'][0]}: play, best from own cards fold" in done.out


def test_the_html_report_lists_every_round_of_the_flag(hole_card_table: Path, screened: Done, tmp_path: Path) -> None:
    page = tmp_path / "floor.html"
    assert run_tablectl("floor", hole_card_table / "ds", "--html", page).code == 1
    text = page.read_text(encoding="utf-8")
    flag = next(f for f in _flags(screened) if f["seat"] == 1)
    assert "<h2>Play from hidden cards</h2>" in text
    assert all(f"<td>{r}</td>" in text for r in flag["rounds"])


def test_a_floor_of_honest_seats_flags_nothing_and_exits_0(tmp_path: Path) -> None:
    assert run_tablectl("keygen", tmp_path / "keys").code == 0
    done = run_tablectl("run", CONFIG, "--simulate", "--headless", "--autoplay", "60", "--seed", "5", "--log-dir",
                        tmp_path / "logs", "--signing-key", tmp_path / "keys" / "table.key", "--player", "1:basic",
                        "--player", "2:recreational")
    assert done.code == 0, done.err
    done = run_tablectl("export", tmp_path / "logs", "--to", tmp_path / "ds", "--key", tmp_path / "keys" / "table.pub")
    assert done.code == 0, done.err
    done = run_tablectl("floor", tmp_path / "ds", "--json")
    found = json.loads(done.out)["advantage_play"]
    assert (done.code, found["flags"], found["sessions"] > 0) == (0, [], True), done.err


def test_a_player_entered_at_two_tables_is_one_session_flagged_with_rounds_of_both(tmp_path: Path) -> None:
    logs = {}
    for table in ("three-card-poker", "three-card-poker-florida"):
        logs[table] = tmp_path / table
        done = run_tablectl("run", CONFIG.with_name(f"{table}.toml"), "--simulate", "--headless", "--autoplay", "40",
                            "--seed", "4", "--player", "1:hole-card=P-7", "--player", "2:basic", "--log-dir", logs[table])
        assert done.code == 0, done.err
    assert run_tablectl("export", *logs.values(), "--to", tmp_path / "ds").code == 0
    done = run_tablectl("floor", tmp_path / "ds", "--json")
    flags = [(f["player"], f["hypothesis"], sorted({e["table_id"] for e in f["evidence"]})) for f in _flags(done)]
    assert (done.code, flags) == (1, [("P-7", "hole:1", ["tcp-1", "tcpfl-1"])])
