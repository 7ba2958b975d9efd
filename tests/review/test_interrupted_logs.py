"""Reading a large log stops at once: ``tablectl review`` and ``tablectl export`` sent SIGINT
(Ctrl-C) or SIGTERM while they read (their progress line showing) end within 2 s of the signal
with exit 130 and one line saying so, leave no process behind (review's verifying worker, the
export's table workers), and an export stopped midway leaves a dataset the next export completes."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from stopping import assert_stopped_at_once, start, stop_after

REPO = Path(__file__).resolve().parents[2]
LINES = 300_000  # about 70 MiB: seconds of reading
SIGNALS = pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])


@pytest.fixture(scope="module")
def large_log(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A One Card Poker log of ``LINES`` lines (``bench/bench_review.py``): (log directory, public key)."""
    sys.path.insert(0, str(REPO / "bench"))
    try:
        from bench_review import generate
    finally:
        sys.path.remove(str(REPO / "bench"))
    return generate(tmp_path_factory.mktemp("large"), LINES)


@SIGNALS
def test_review_stops_within_two_seconds_of_a_signal(signum: int, large_log: tuple[Path, Path]) -> None:
    log, key = large_log
    stopped = stop_after(start(["review", log, "--key", key, "--progress"]), b"review: ", signum)
    assert_stopped_at_once(stopped, "review")


@SIGNALS
def test_export_stops_within_two_seconds_of_a_signal_and_the_next_export_completes(
        signum: int, large_log: tuple[Path, Path], tmp_path: Path) -> None:
    log, key = large_log
    dataset = tmp_path / "ds"
    stopped = stop_after(start(["export", log, "--to", dataset, "--key", key, "--progress"]), b"export: ", signum)
    assert_stopped_at_once(stopped, "export")
    again = subprocess.run([sys.executable, "-m", "tablectl", "export", log, "--to", dataset, "--key", key],
                           capture_output=True, text=True, check=False, timeout=600)
    assert again.returncode == 0, again.stderr
