"""``tablectl review`` and ``tablectl export`` of a large log: progress on stderr when stderr is a
terminal (a real pty), nothing extra when it is a pipe; stdout the same either way."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tablectl.progress import Progress, describe

REPO = Path(__file__).resolve().parents[2]
LINES = 20_000  # about 5 MiB: many 64 KiB blocks, so at least one redraw


@pytest.fixture(scope="module")
def large_log(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A One Card Poker log of ``LINES`` lines written by the real writer and table logic
    (``bench/bench_review.py``): (log directory, public key)."""
    sys.path.insert(0, str(REPO / "bench"))
    try:
        from bench_review import generate
    finally:
        sys.path.remove(str(REPO / "bench"))
    return generate(tmp_path_factory.mktemp("large"), LINES)


def run_with_stderr_on_a_pty(args: list[str]) -> tuple[int, bytes, bytes]:
    """Run ``tablectl ARGS`` with stdout a pipe and stderr a pty: (exit code, stdout, what the
    terminal got on stderr)."""
    master, slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "tablectl", *args], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    terminal = bytearray()
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the child closed its end
            break
        if not chunk:
            break
        terminal += chunk
    stdout = proc.stdout.read() if proc.stdout else b""
    code = proc.wait(timeout=300)
    os.close(master)
    return code, stdout, bytes(terminal)


def run_piped(args: list[str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "tablectl", *args], stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=300)


def test_review_on_a_terminal_shows_lines_and_percent_on_stderr(large_log: tuple[Path, Path]) -> None:
    # (the rate and ETA come from the second drawing on, once the reading has been timed: below)
    log, pub = large_log
    code, stdout, terminal = run_with_stderr_on_a_pty(["review", str(log), "--key", str(pub)])
    piped = run_piped(["review", str(log), "--key", str(pub)])
    text = terminal.decode()
    assert "review: " in text and " lines, " in text and "%)" in text, text
    assert text.endswith("\r\x1b[K")  # wiped once the log is read
    assert (code, stdout) == (piped.returncode, piped.stdout)


def test_review_with_stderr_a_pipe_prints_nothing_extra(large_log: tuple[Path, Path]) -> None:
    log, pub = large_log
    piped = run_piped(["review", str(log), "--key", str(pub)])
    quiet = run_piped(["review", str(log), "--key", str(pub), "--no-progress"])
    assert piped.stderr == quiet.stderr == b""
    assert piped.stdout == quiet.stdout and piped.returncode == quiet.returncode


def test_review_progress_can_be_forced_on_a_pipe(large_log: tuple[Path, Path]) -> None:
    log, pub = large_log
    forced = run_piped(["review", str(log), "--key", str(pub), "--progress"])
    assert b"review: " in forced.stderr and b" lines, " in forced.stderr and b"%)" in forced.stderr


def test_export_on_a_terminal_shows_its_progress_and_says_the_same_on_stdout(large_log: tuple[Path, Path],
                                                                            tmp_path: Path) -> None:
    log, pub = large_log
    code, stdout, terminal = run_with_stderr_on_a_pty(["export", str(log), "--to", str(tmp_path / "a"), "--key", str(pub)])
    piped = run_piped(["export", str(log), "--to", str(tmp_path / "b"), "--key", str(pub)])
    text = terminal.decode()
    assert "export: " in text and " lines, " in text and "%)" in text, text
    assert code == piped.returncode == 0
    assert without_seconds(stdout) == without_seconds(piped.stdout)
    assert piped.stderr == b""


def without_seconds(stdout: bytes) -> list[str]:
    """Export's summary lines without their timing (``(0.42 s)``)."""
    return [line.rsplit(" (", 1)[0] for line in stdout.decode().splitlines()]


def test_the_progress_line_reads_lines_share_rate_and_time_left() -> None:
    line = describe("review", 1_204_000, 150 << 20, 600 << 20, 15 << 20)
    assert line == "review: 1,204,000 lines, 150.0/600.0 MiB (25%), 15.0 MiB/s, ETA 0:30"


def test_the_rate_and_time_left_count_from_the_first_block_not_from_the_start_of_the_command() -> None:
    now = [0.0]
    shown = io.StringIO()
    progress = Progress("export", 100 << 20, shown, clock=lambda: now[0])
    now[0] = 30.0  # imports, keys, workers forked: then the first block
    progress.advance(1_000, 1 << 20)
    assert shown.getvalue().endswith("export: 1,000 lines, 1.0/100.0 MiB (1%)")  # no rate known yet
    now[0] = 31.0
    progress.advance(40_000, 9 << 20)
    assert shown.getvalue().endswith("export: 41,000 lines, 10.0/100.0 MiB (10%), 9.0 MiB/s, ETA 0:10")
