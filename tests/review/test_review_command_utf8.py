"""``tablectl review`` of a log folder whose name is not UTF-8: ``--json`` and ``--html`` report it
with that byte escaped (``ocp\\xff``), as for any other folder."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from reviewhelpers import review_command as review


@pytest.fixture
def not_utf8(clean_log: tuple[Path, Path], tmp_path: Path) -> Path:
    """The clean log in a folder named ``ocp`` and the byte 0xff (not UTF-8)."""
    log = tmp_path / "ocp\udcff"
    shutil.copytree(clean_log[0], log)
    return log


def test_the_json_report_of_a_folder_whose_name_is_not_utf8_escapes_the_byte(
        clean_log: tuple[Path, Path], not_utf8: Path) -> None:
    result = review(not_utf8, "--key", clean_log[1], "--json")
    assert result.exit_code == 0, result.output
    report = orjson.loads(result.stdout_bytes)
    assert report["files"] and all("ocp\\xff/tablectl-" in f for f in report["files"]), report["files"]


def test_the_html_report_of_a_folder_whose_name_is_not_utf8_escapes_the_byte(
        clean_log: tuple[Path, Path], not_utf8: Path, tmp_path: Path) -> None:
    result = review(not_utf8, "--key", clean_log[1], "--html", tmp_path / "r.html")
    assert result.exit_code == 0, result.output
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "ocp\\xff/tablectl-" in page


def test_the_text_report_and_its_error_line_escape_the_byte_on_a_strict_utf8_terminal(
        clean_log: tuple[Path, Path], not_utf8: Path) -> None:
    last = max(not_utf8.glob("*.jsonl"))
    with last.open("ab") as f:
        f.write(b'{"seq":')  # a torn last line: an integrity failure naming the file
    done = subprocess.run([sys.executable, "-m", "tablectl", "review", str(not_utf8), "--key", str(clean_log[1])],
                          capture_output=True, timeout=120, check=False,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8:strict"})
    assert done.returncode == 3, done.stderr
    torn = next(line for line in done.stdout.splitlines() if b"[torn_tail]" in line)
    assert f"ocp\\xff/{last.name}:".encode() in torn, torn
    assert done.stderr.startswith(b"tablectl: integrity failure: ") and b"ocp\\xff/" in done.stderr, done.stderr
