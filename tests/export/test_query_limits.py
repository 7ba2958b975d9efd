"""``tablectl query`` ends: a query that runs past its time limit (``--timeout``) or wants more
memory than its limit (``--memory``) is stopped in one line, and Ctrl-C stops one within 2 s.
The SQL reads no file, so an empty dataset (a ``_manifests`` folder, no table) serves."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from exporthelpers import run_tablectl

ENDLESS = "SELECT sum(i) AS s FROM range(1000000000000000) t(i)"  # hours, in constant memory
GREEDY = "SELECT list(i) AS l FROM range(1000000000) t(i)"  # a list of 10^9 numbers in memory


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    (tmp_path / "ds" / "_manifests").mkdir(parents=True)
    return tmp_path / "ds"


def one_line(err: str) -> str:
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_a_query_past_its_time_limit_is_stopped_in_one_line(dataset: Path) -> None:
    t0 = time.monotonic()
    done = run_tablectl("query", dataset, ENDLESS, "--timeout", "1", timeout=60)
    assert done.code == 2 and done.out == "", done.err
    assert one_line(done.err).startswith("tablectl: query: stopped after 1 s (--timeout 1)")
    assert time.monotonic() - t0 < 30


def test_a_query_over_its_memory_limit_is_stopped_in_one_line(dataset: Path) -> None:
    done = run_tablectl("query", dataset, GREEDY, "--memory", "64MB", timeout=60)
    assert done.code == 2 and done.out == "", done.err
    assert one_line(done.err).startswith("tablectl: query: out of memory (--memory 64MB)")


def test_a_memory_limit_duckdb_cannot_read_is_a_usage_error(dataset: Path) -> None:
    done = run_tablectl("query", dataset, "SELECT 1", "--memory", "lots", timeout=60)
    assert done.code == 2 and done.out == ""
    assert one_line(done.err).startswith("tablectl: --memory 'lots': ")


def test_the_limits_have_defaults(dataset: Path) -> None:
    done = run_tablectl("query", "--help")
    assert "--timeout SECONDS" in done.out and "default: 60" in done.out
    assert "--memory SIZE" in done.out and "default: 4GB" in done.out


def test_ctrl_c_stops_a_running_query_within_2_s(dataset: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "tablectl", "query", str(dataset), ENDLESS],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(5)  # started and running the query (on a busy machine perhaps still starting)
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGINT)
        t0 = time.monotonic()
        out, err = proc.communicate(timeout=30)
        took = time.monotonic() - t0
    finally:
        proc.kill()
    assert took < 2, took
    assert proc.returncode == 130 and out == ""
    assert one_line(err) == "tablectl: query: interrupted\n"
