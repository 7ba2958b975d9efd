"""Ctrl-C or SIGTERM while ``tablectl floor`` waits on a DuckDB query stops it at once: exit 130
and one line, as ``query`` does. The floor runs as the program runs, with one query of its report
made endless (and told on stderr as it starts), so that the signal lands while DuckDB works."""

from __future__ import annotations

import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from exporthelpers import play_and_export

OCP_CONFIG = Path(__file__).parents[2] / "config" / "tables" / "one-card-poker.toml"

# `tablectl` with the floor report's first query (make_cells) replaced by one that runs for hours
ENDLESS_FLOOR = """
import sys
from tablectl.analytics.floor import report
def endless(con, *args):
    sys.stderr.write("query running\\n")
    sys.stderr.flush()
    con.execute("SELECT sum(i) FROM range(1000000000000000) t(i)").fetchall()
report.make_cells = endless
from tablectl.cli import entry
entry()
"""


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play_and_export(tmp_path_factory.mktemp("ocp"), OCP_CONFIG, 5) / "ds"


def wait_for_line(proc: subprocess.Popen[bytes], line: bytes, seconds: float) -> None:
    """Read the process's stderr until *line* (within *seconds*)."""
    assert proc.stderr is not None
    deadline, seen = time.monotonic() + seconds, b""
    while line not in seen.splitlines(keepends=True):
        left = deadline - time.monotonic()
        assert left > 0 and select.select([proc.stderr], [], [], left)[0], seen
        chunk = proc.stderr.read1(4096)  # type: ignore[attr-defined]
        assert chunk, seen  # the process ended first
        seen += chunk


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_during_a_floor_query_exits_130_in_one_line(dataset: Path, signum: int) -> None:
    proc = subprocess.Popen([sys.executable, "-c", ENDLESS_FLOOR, "floor", str(dataset), "--no-progress"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_for_line(proc, b"query running\n", 120)
        proc.send_signal(signum)
        t0 = time.monotonic()
        out, err = proc.communicate(timeout=30)
        took = time.monotonic() - t0
    finally:
        proc.kill()
        proc.wait()
    assert (proc.returncode, out, err) == (130, b"", b"tablectl: floor: interrupted\n")
    assert took < 2, took
