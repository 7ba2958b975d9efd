"""``tablectl review`` of a log named twice (the same folder, or a folder and one of its files):
the log is read once, and is clean."""

from __future__ import annotations

from pathlib import Path

import pytest
from reviewhelpers import review_command as review


@pytest.mark.parametrize("twice", ["folder", "file"])
def test_a_log_named_twice_is_read_once(clean_log: tuple[Path, Path], twice: str) -> None:
    log, pub = clean_log
    again = log if twice == "folder" else min(log.glob("*.jsonl"))
    result = review(log, again, "--key", pub)
    assert result.exit_code == 0, result.output
    assert result.stdout.rstrip().endswith("result: verified; clean")
    assert "log: table ocp-1, 1 file(s)" in result.stdout
