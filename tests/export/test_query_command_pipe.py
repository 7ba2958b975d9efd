"""``tablectl query --csv`` into a pipe whose reader has gone (``query DS SQL --csv | head -1``):
one line and exit 5 (the output could not be written), not exit 1 with no word."""

from __future__ import annotations

from pathlib import Path

import pytest
from exporthelpers import play_and_export
from test_floor_command_pipe import into_closed_pipe

OCP_CONFIG = Path(__file__).parents[2] / "config" / "tables" / "one-card-poker.toml"


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play_and_export(tmp_path_factory.mktemp("ocp"), OCP_CONFIG, 5) / "ds"


def test_query_csv_into_a_closed_pipe_exits_5_in_one_line(dataset: Path) -> None:
    done = into_closed_pipe("query", dataset, "SELECT * FROM cards", "--csv")
    assert done == (5, "tablectl: cannot write the output: Broken pipe\n")
