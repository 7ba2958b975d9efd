"""``tablectl floor`` and ``tablectl query`` on a dataset whose path is not UTF-8 (which DuckDB
cannot read): refused in one line, exit 2, as the dataset's own problem, no traceback."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from exporthelpers import play_and_export, run_tablectl

OCP_CONFIG = Path(__file__).parents[2] / "config" / "tables" / "one-card-poker.toml"


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play_and_export(tmp_path_factory.mktemp("ocp"), OCP_CONFIG, 5) / "ds"


@pytest.mark.parametrize("command", [("floor",), ("query", "SELECT count(*) AS n FROM rounds")], ids=["floor", "query"])
def test_a_dataset_whose_path_is_not_utf8_is_refused_in_one_line(dataset: Path, tmp_path: Path,
                                                                  command: tuple[str, ...]) -> None:
    moved = tmp_path / "ds\udcfe"
    shutil.copytree(dataset, moved)
    done = run_tablectl(command[0], moved, *command[1:], timeout=120)
    assert done.code == 2 and done.out == "", done.err
    assert done.err == (f"tablectl: {moved}: DuckDB reads only paths that are UTF-8, and this one is not: "
                        "use a folder whose name is UTF-8\n").replace("\udcfe", "\\xfe")
