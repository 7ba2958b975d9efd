"""``tablectl review --anchor DIR`` with a folder that is not a dataset: bad input in one line, as
``query`` and ``floor`` say it."""

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


def test_an_anchor_folder_that_is_not_a_dataset_is_bad_input_in_one_line(clean: tuple[Path, Path], tmp_path: Path) -> None:
    (tmp_path / "notads").mkdir()
    result = review(clean[0], "--key", clean[1], "--anchor", tmp_path / "notads")
    assert result.exit_code == 2, result.output
    assert result.stderr == f"tablectl: {tmp_path / 'notads'}: not a tablectl surveillance dataset (no _manifests/; " \
                            "make one with tablectl export)\n"
    assert result.stdout == ""
