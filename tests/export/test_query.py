"""``tablectl query``: SQL and named queries on the dataset with embedded DuckDB."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import orjson
from exporthelpers import Tablectl
from floorgen import Floor


def test_sql_runs_on_the_dataset_views(small_floor: Floor, exported: Path, tablectl: Tablectl) -> None:
    done = tablectl("query", exported, 'SELECT "table", count(*) AS rounds FROM rounds GROUP BY 1 ORDER BY 1', "--csv")
    assert done.code == 0, done.err
    rows = list(csv.reader(io.StringIO(done.out)))
    assert rows[0] == ["table", "rounds"]
    assert {r[0]: int(r[1]) for r in rows[1:]} == {t: 40 for t in small_floor.logs}


def test_partition_columns_read_as_table_and_date(exported: Path, tablectl: Tablectl) -> None:
    done = tablectl("query", exported, "SELECT typeof(min(date)) AS t, min(date) AS d FROM cards", "--json")
    assert orjson.loads(done.out) == [{"t": "DATE", "d": "2026-11-02"}]


def test_named_queries_are_listed_and_run_with_a_date_range(exported: Path, tablectl: Tablectl) -> None:
    listed = tablectl("query", exported, "--list")
    assert "violations_by_dealer" in listed.out and "floor_cells" not in listed.out
    done = tablectl("query", exported, "violations_by_dealer", "--from", "2026-11-03", "--to", "2026-11-03", "--json")
    assert done.code == 0, done.err
    assert sum(r["rounds"] for r in orjson.loads(done.out)) == 100  # the second day's five tables x 20


def test_a_bad_query_is_a_one_line_usage_error(exported: Path, tablectl: Tablectl) -> None:
    done = tablectl("query", exported, "SELECT nothing FROM nowhere")
    assert done.code == 2 and done.err.startswith("tablectl: query: ") and done.err.count("\n") == 1


def test_a_directory_that_is_not_a_dataset_is_a_usage_error(tmp_path: Path, tablectl: Tablectl) -> None:
    done = tablectl("query", tmp_path, "SELECT 1")
    assert done.code == 2 and "not a tablectl surveillance dataset" in done.err


def test_the_list_shows_each_querys_whole_description(exported: Path, tablectl: Tablectl) -> None:
    listed = tablectl("query", exported, "--list").out
    line = next(x for x in listed.splitlines() if x.startswith("tie_wins_by_seat"))
    assert line.rstrip().endswith("a seat far above it is worth a look.")


def test_numbers_are_rounded_for_display(exported: Path, tablectl: Tablectl) -> None:
    done = tablectl("query", exported, "SELECT 100.0 / 3 AS third, 1e-9 AS tiny")
    assert "33.3333 " in done.out and "33.33333333" not in done.out and "1e-09" in done.out


def test_csv_lines_end_in_lf(exported: Path) -> None:
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "tablectl", "query", str(exported), "violations_by_dealer", "--csv"],
                         capture_output=True, timeout=600).stdout
    assert out.count(b"\n") > 2 and b"\r" not in out


def test_tie_wins_by_seat_gives_the_expected_rate(exported: Path, tablectl: Tablectl) -> None:
    rows = orjson.loads(tablectl("query", exported, "tie_wins_by_seat", "--json").out)
    assert rows and all(abs(r["expected_rate"] - 23 / 311) < 1e-9 for r in rows)  # six decks: (4d-1)/(52d-1)
