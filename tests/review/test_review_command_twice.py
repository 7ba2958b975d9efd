"""``tablectl review`` of a log named twice (the same folder, or a folder and one of its files):
the log is read once, and is clean."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner, Result

from tablectl.cli import main

if TYPE_CHECKING:
    from reviewhelpers import RunTable, WriteConfig


def review(*args: str | Path) -> Result:
    result = CliRunner().invoke(main, ["review", *map(str, args)])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory, write_config: WriteConfig, run_table: RunTable) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("clean")
    config, pub = write_config(tmp, "one-card-poker.toml")
    run_table(config, tmp / "log", 5, seed=4)
    return tmp / "log", pub


@pytest.mark.parametrize("twice", ["folder", "file"])
def test_a_log_named_twice_is_read_once(clean: tuple[Path, Path], twice: str) -> None:
    log, pub = clean
    again = log if twice == "folder" else min(log.glob("*.jsonl"))
    result = review(log, again, "--key", pub)
    assert result.exit_code == 0, result.output
    assert result.stdout.rstrip().endswith("result: verified; clean")
    assert "log: table ocp-1, 1 file(s)" in result.stdout
