"""Rows an analyst can act on: what is still in play where the log ends is exported (open) and
completed by the next export, shuffle quality belongs to the serial that shuffled each load, handle
leaves out no-action bets, and a value that is not there is NULL."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from exporthelpers import Done, Tablectl, run_tablectl
from floorgen import CHEAT_DEALER, WEAK_SERIAL, Floor, play_shift

from tablectl.eventlog.keys import save_keypair

TABLE = "oftm-csm-1"
LOOKALIKE = CHEAT_DEALER.replace("-", "\u2011").lower()  # "d‑13": a non-ASCII hyphen, lower case


def query(dataset: Path, sql: str) -> list[dict]:
    done = run_tablectl("query", dataset, sql, "--json")
    assert done.code == 0, done.err
    return orjson.loads(done.out)


@pytest.fixture(scope="module")
def swapped(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict], dict]:
    """One continuous-shuffler table: a good CSM on the first day (dealer ``D-13``), exported; then a
    weak CSM in its place on the second (dealer ``d‑13``), exported into the same dataset. The shoes
    rows and manifest after the first export, and the dataset."""
    root = tmp_path_factory.mktemp("swapped")
    save_keypair(root / "keys")
    floor = Floor(root, root / "keys" / "table.pub")
    dataset = root / "ds"
    floor.serials[TABLE] = "CSM-GOOD-0001"
    play_shift(floor, TABLE, 0, CHEAT_DEALER, 15, 11)
    done = run_tablectl("export", floor.logs[TABLE], "--to", dataset, "--key", floor.public_key)
    assert done.code == 0, done.err
    first = query(dataset, "SELECT * FROM shoes")
    manifest = orjson.loads((dataset / "_manifests" / f"{TABLE}.json").read_bytes())
    floor.serials[TABLE] = WEAK_SERIAL
    play_shift(floor, TABLE, 1, LOOKALIKE, 15, 12)
    done = run_tablectl("export", floor.logs[TABLE], "--to", dataset, "--key", floor.public_key)
    assert done.code == 0, done.err
    return dataset, first, manifest


def test_a_shuffler_load_still_in_play_at_the_logs_end_is_exported_open(swapped: tuple[Path, list[dict], dict]) -> None:
    _, first, manifest = swapped
    assert [(s["serial"], s["open"], s["end_seq"]) for s in first] == [("CSM-GOOD-0001", True, None)]
    assert list(manifest["open_parts"].values()) == [1]


def test_the_next_export_completes_the_open_row_without_duplicating_it(swapped: tuple[Path, list[dict], dict]) -> None:
    dataset, first, manifest = swapped
    shoes = query(dataset, "SELECT serial, open, end_seq, start_seq FROM shoes ORDER BY start_seq")
    assert [(s["serial"], s["open"]) for s in shoes] == [("CSM-GOOD-0001", False), (WEAK_SERIAL, True)]
    assert shoes[0]["start_seq"] == first[0]["start_seq"] and shoes[0]["end_seq"] is not None
    assert not any((dataset / rel).exists() for rel in manifest["open_parts"])  # the replaced open rows are gone


def test_shuffle_quality_is_judged_per_serial_after_a_shuffler_is_replaced(swapped: tuple[Path, list[dict], dict],
                                                                           tablectl: Tablectl) -> None:
    dataset, _, _ = swapped
    done = tablectl("floor", dataset, "--json")
    report = orjson.loads(done.out)
    assert report["flagged"]["shufflers"] == [WEAK_SERIAL]
    good = next(s for s in report["shufflers"] if s["serial"] == "CSM-GOOD-0001")
    assert good["combined_p"] > 1e-3


def test_look_alike_dealer_ids_are_warned_about(swapped: tuple[Path, list[dict], dict], tablectl: Tablectl) -> None:
    dataset, _, _ = swapped
    done = tablectl("floor", dataset)
    warnings = [line for line in done.err.splitlines() if "look alike" in line]
    assert len(warnings) == 1 and repr(CHEAT_DEALER) in warnings[0] and repr(LOOKALIKE) in warnings[0]


def test_the_floor_header_names_the_days_it_covers(swapped: tuple[Path, list[dict], dict], tablectl: Tablectl) -> None:
    dataset, _, _ = swapped
    done = tablectl("floor", dataset)
    assert " ".join(done.out.split("\n\n")[0].split()).startswith(f"floor report of {dataset}, 2026-11-02 .. 2026-11-03 ")


def floor_in(dataset: Path, columns: int) -> Done:
    env = {**os.environ, "COLUMNS": str(columns)}
    proc = subprocess.run([sys.executable, "-m", "tablectl", "floor", str(dataset)], capture_output=True, text=True,
                          env=env, timeout=600)
    return Done(proc.returncode, proc.stdout, proc.stderr)


def test_the_floor_report_through_a_pipe_has_no_line_over_80_columns(exported: Path) -> None:
    done = floor_in(exported, 80)
    assert done.out and max(len(line) for line in done.out.splitlines()) <= 80


def test_the_floor_report_at_80_columns_shows_each_tables_figures_whole_on_its_line(exported: Path) -> None:
    out = floor_in(exported, 80).out
    lines = out[out.index("\nTables ("):].split("\n\n")[0].splitlines()
    report = orjson.loads(run_tablectl("floor", exported, "--json").out)
    for table in report["tables"]:
        [line] = [line for line in lines if line[2:].startswith(table["table_id"] + " ")]
        for figure in (f"{table['rounds']:,}", f"{table['win'] / 100:,.0f}", f"{100 * table['hold']:.2f}%",
                       f"{table['z']:+.2f}"):
            assert f" {figure}" in f"{line} ", (figure, line)


def test_the_wide_floor_report_shows_every_column(exported: Path) -> None:
    done = run_tablectl("floor", exported, "--wide")
    assert "left out to fit" not in done.out
    assert all(heading in done.out for heading in ("penetration", "theo sd $", "band high", "viol/100"))


def test_pays_is_null_where_a_bet_pays_nothing(exported: Path) -> None:
    [row] = query(exported, "SELECT count(*) FILTER (WHERE pays = '') AS empty, count(*) FILTER (WHERE pays IS NULL) AS "
                            "null FROM bets")
    assert row["empty"] == 0 and row["null"] > 0


def test_handle_leaves_out_bets_returned_as_no_action(exported: Path) -> None:
    [bets] = query(exported, "SELECT sum(stake) FILTER (WHERE bet = wager AND outcome <> 'no-action') AS handle, "
                             "count(*) FILTER (WHERE outcome = 'no-action' AND bet = wager) AS no_action FROM bets")
    assert bets["no_action"] > 0
    report = orjson.loads(run_tablectl("floor", exported, "--json").out)
    assert sum(t["handle"] for t in report["tables"]) == bets["handle"]
