"""``tablectl floor``: the floor report judged against the game math; the planted dealer and the
planted weak shuffler are the ones flagged."""

from __future__ import annotations

from pathlib import Path

import orjson
from exporthelpers import Tablectl
from floorgen import CHEAT_DEALER, WEAK_SERIAL, Floor, planted_tables


def floor_json(tablectl: Tablectl, dataset: Path, *args: str) -> tuple[int, dict]:
    done = tablectl("floor", dataset, "--json", *args)
    assert done.code in (0, 1), done.err
    return done.code, orjson.loads(done.out)


def test_the_stacking_dealer_and_his_table_are_flagged_and_no_other(small_floor: Floor, exported: Path,
                                                                   tablectl: Tablectl) -> None:
    code, report = floor_json(tablectl, exported)
    assert code == 1
    assert report["flagged"]["dealers"] == [CHEAT_DEALER]
    assert set(report["flagged"]["tables"]) == planted_tables(small_floor)
    cheat = next(d for d in report["dealers"] if d["dealer"] == CHEAT_DEALER)
    assert cheat["z"] <= -3 and cheat["judged_win"] < cheat["expected_win"] - 3 * cheat["win_sd"]


def test_the_weak_shuffler_serial_is_the_one_flagged(exported: Path, tablectl: Tablectl) -> None:
    _, report = floor_json(tablectl, exported)
    assert report["flagged"]["shufflers"] == [WEAK_SERIAL]
    machines = [s for s in report["shufflers"] if s["shuffled_by"] == "machine"]
    assert len(machines) == 4 and all(s["combined_p"] > 1e-3 for s in machines if s["serial"] != WEAK_SERIAL)


def test_every_table_has_the_expected_hold_of_its_game_and_rules(exported: Path, tablectl: Tablectl) -> None:
    _, report = floor_json(tablectl, exported)
    for t in report["tables"]:
        assert t["expected_hold"] is not None and t["band_low"] < t["expected_hold"] < t["band_high"], t["table_id"]
    edges = {(m["game"], m["wager"]): m["edge"] for m in report["math"]}
    assert edges["texas-holdem-bonus", "ante"] is not None  # the main game judged, not the Bonus alone


def test_a_day_range_keeps_only_those_days(exported: Path, tablectl: Tablectl) -> None:
    _, report = floor_json(tablectl, exported, "--from", "2026-11-03", "--to", "2026-11-03")
    assert [d["date"] for d in report["days"]] == ["2026-11-03"]
    assert sum(t["rounds"] for t in report["tables"]) == 100


def test_the_html_report_marks_the_flagged_rows(exported: Path, tmp_path: Path, tablectl: Tablectl) -> None:
    page = tmp_path / "floor.html"
    done = tablectl("floor", exported, "--html", page)
    assert done.code == 1 and f"FLAGGED dealers: {CHEAT_DEALER}" in done.out
    html = page.read_text()
    assert html.startswith("<!doctype html>") and "<script" not in html
    assert f"<tr class='flag'><td>{CHEAT_DEALER}</td>" in html and f"<td>{WEAK_SERIAL}</td>" in html


def test_a_bad_day_is_a_usage_error(exported: Path, tablectl: Tablectl) -> None:
    done = tablectl("floor", exported, "--from", "yesterday")
    assert done.code == 2 and done.err == "tablectl: --from 'yesterday': not a day (YYYY-MM-DD)\n"


def test_the_html_report_plots_each_tables_hold_against_its_band_per_day(small_floor: Floor, exported: Path,
                                                                        tmp_path: Path, tablectl: Tablectl) -> None:
    page = tmp_path / "floor.html"
    tablectl("floor", exported, "--html", page)
    html = page.read_text()
    assert html.count("aria-label='hold against the band") == len(small_floor.logs) and "<script" not in html
    assert html.count("class='band'") == 2 * len(small_floor.logs)  # two days each (tcp-1: the rounds its bank's stake covers)
    assert "<figcaption>tcp-1</figcaption>" in html  # judged on the rounds its bank's stake covers


def test_the_html_report_plots_each_days_hold_through_the_day_and_theo_against_actual(
        small_floor: Floor, exported: Path, tmp_path: Path, tablectl: Tablectl) -> None:
    page = tmp_path / "floor.html"
    tablectl("floor", exported, "--html", page)
    html = page.read_text()
    curves = html[html.index("<h2>Hold through the day, per table</h2>"):html.index("<h2>Theoretical win against")]
    assert curves.count("<svg") == 2  # one a day, a line a table
    assert all(curves.count(f">{table}: ") == 2 for table in small_floor.logs)
    theo = html[html.index("<h2>Theoretical win against"):]
    assert all(f">{table}</text>" in theo for table in small_floor.logs)


def test_a_dealers_player_banked_rounds_are_never_in_his_house_bank_test(exported: Path, tablectl: Tablectl) -> None:
    _, report = floor_json(tablectl, exported)
    rounds = {bank: sum(t["rounds"] for t in report["tables"] if t["bank"] == bank) for bank in ("house", "player")}
    assert {bank: sum(d["rounds"] for d in report["dealers"] if d["bank"] == bank) for bank in rounds} == rounds
    # the stacking dealer deals only One Card Poker, banked by a player: tested there, either way, and not as the house
    assert [d["bank"] for d in report["dealers"] if d["dealer"] == CHEAT_DEALER] == ["player"]
