"""``tablectl query`` on a terminal too narrow for its result's columns side by side: every column
is still shown, with its name and value, one column a line under each row (as ``psql``'s
expanded display), never squeezed to columns of no width."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from exporthelpers import play_and_export

from tablectl.commands.query import vertical

OCP_CONFIG = Path(__file__).parents[2] / "config" / "tables" / "one-card-poker.toml"


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play_and_export(tmp_path_factory.mktemp("ocp"), OCP_CONFIG, 5) / "ds"


def query_at(columns: int, *args: str | Path) -> str:
    """``tablectl query ARGS``'s stdout, its terminal *columns* wide."""
    done = subprocess.run([sys.executable, "-m", "tablectl", "query", *map(str, args)], capture_output=True, text=True,
                          timeout=120, check=False, env={**os.environ, "COLUMNS": str(columns)})
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_rows_laid_out_vertically_name_every_column_with_its_value() -> None:
    assert vertical(["table_id", "hold"], [["ocp-1", "0.1338"], ["tcp-1", ""]]) == [
        "-[ row 1 ]--", "table_id | ocp-1", "hold     | 0.1338",
        "-[ row 2 ]--", "table_id | tcp-1", "hold     |"]


def test_a_result_too_wide_for_80_columns_shows_every_column_and_value(dataset: Path) -> None:
    names = list(orjson.loads(query_at(80, dataset, "floor_tables", "--json"))[0])
    lines = query_at(80, dataset, "floor_tables").splitlines()
    assert len(names) > 20 and lines[0].startswith("-[ row 1 ]")
    assert [line.split("|")[0].strip() for line in lines[1:]] == names
    assert "table_id              | ocp-1" in lines and "game                  | one-card-poker" in lines
