"""``tablectl floor`` into a pipe whose reader has gone (``floor DS | head -c 10``): one line and
exit 5 (the output could not be written), never exit 1, which for floor means "flagged"."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from exporthelpers import play_and_export

OCP_CONFIG = Path(__file__).parents[2] / "config" / "tables" / "one-card-poker.toml"


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play_and_export(tmp_path_factory.mktemp("ocp"), OCP_CONFIG, 5) / "ds"


def into_closed_pipe(*args: str | Path) -> tuple[int, str]:
    """``python -m tablectl ARGS`` with stdout a pipe closed before anything is written to it:
    the exit code and stderr."""
    proc = subprocess.Popen([sys.executable, "-m", "tablectl", *map(str, args)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read()
    return proc.wait(timeout=120), err


def test_floor_into_a_closed_pipe_exits_5_in_one_line(dataset: Path) -> None:
    assert into_closed_pipe("floor", dataset) == (5, "tablectl: cannot write the output: Broken pipe\n")
