"""The whole floor (slow): 20 tables of all five games, three days of 60 rounds each, exported and
reported in seconds; the stacking dealer and the weak shuffler are the ones flagged.

Run by hand: ``pytest -n 0 -m slow tests/export/test_floor_full.py -s`` (prints the figures)."""

from __future__ import annotations

import time
from pathlib import Path

import orjson
import pytest
from exporthelpers import run_tablectl
from floorgen import CHEAT_DEALER, WEAK_SERIAL, make_floor, planted_tables

pytestmark = pytest.mark.slow


def test_a_floor_of_twenty_tables_flags_the_planted_dealer_and_shuffler(tmp_path: Path) -> None:
    t0 = time.perf_counter()
    floor = make_floor(tmp_path / "floor", per_game=4, days=3, rounds=60)
    made = time.perf_counter() - t0
    assert len(floor.logs) >= 20
    dataset = tmp_path / "ds"
    t1 = time.perf_counter()
    done = run_tablectl("export", *floor.logs.values(), "--to", dataset, "--key", floor.public_key, timeout=1800)
    exported = time.perf_counter() - t1
    assert done.code == 0, done.err
    t2 = time.perf_counter()
    report_done = run_tablectl("floor", dataset, "--json")
    reported = time.perf_counter() - t2
    t3 = time.perf_counter()
    run_tablectl("floor", dataset, "--json")
    again = time.perf_counter() - t3
    report = orjson.loads(report_done.out)
    assert report_done.code == 1
    assert report["flagged"]["dealers"] == [CHEAT_DEALER]
    assert set(report["flagged"]["tables"]) <= planted_tables(floor)
    assert report["flagged"]["shufflers"] == [WEAK_SERIAL]
    assert {t["game"] for t in report["tables"]} == {
        "one-card-poker", "three-card-poker", "three-card-poker-florida", "one-for-the-money", "texas-holdem-bonus"}
    cheat = next(d for d in report["dealers"] if d["dealer"] == CHEAT_DEALER)
    print(f"\nfloor: {len(floor.logs)} tables x 3 days, {floor.rounds} rounds, "
          f"{sum(len(list(p.glob('*.jsonl'))) for p in floor.logs.values())} log files; played in {made:.1f} s")
    print(f"export {exported:.1f} s; floor {reported:.2f} s (first, game math computed), {again:.2f} s (math cached)")
    print(f"{CHEAT_DEALER}: z {cheat['z']:+.2f}, hold {cheat['hold']:.2%} against {cheat['expected_hold']:.2%}; "
          f"flagged tables {report['flagged']['tables']}; weak shuffler p "
          f"{next(s['combined_p'] for s in report['shufflers'] if s['serial'] == WEAK_SERIAL):.2g}")
    others = [d["z"] for d in report["dealers"] if d["dealer"] != CHEAT_DEALER and d["z"] is not None]
    print(f"other dealers: {len(others)}, lowest z {min(others):+.2f}")
    # read through a pipe, at 80 columns: no line wider, each table's figures whole on its line
    text = run_tablectl("floor", dataset).out
    assert max(len(line) for line in text.splitlines()) <= 80
    section = text[text.index("\nTables ("):].split("\n\n")[0].splitlines()
    for table in report["tables"]:
        [line] = [line for line in section if line[2:].startswith(table["table_id"] + " ")]
        assert all(f" {figure}" in f"{line} " for figure in (f"{table['win'] / 100:,.0f}", f"{table['z']:+.2f}"))
    print(f"floor at 80 columns: {len(text.splitlines())} lines, the widest {max(len(x) for x in text.splitlines())}")
