"""A long computation stops at once: ``tablectl math texas-holdem-bonus`` and ``tablectl floor``
solving the Texas Hold'em Bonus main game on a machine that has not cached it, sent SIGINT
(Ctrl-C) or SIGTERM once they show their progress, end within 2 s of the signal with exit 130,
leave no process behind and no cache file half written: the next run solves again.

Real processes, each with its own empty cache (``XDG_CACHE_HOME``); the signal is sent as soon as
the progress line shows, two seconds into the solve, so each test takes seconds.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tablectl.gamemath.holdem import strategy

REPO = Path(__file__).resolve().parents[2]
DEADLINE = 2.0  # seconds from the signal to the process's end
STARTED = 600.0  # seconds to wait for the progress line (a loaded machine; numba's first compile)


def start(args: list[str | Path], cache: Path) -> subprocess.Popen[bytes]:
    """``tablectl ARGS --progress`` with its own cache folder, in a session of its own (so that
    anything it forks is found by its process group)."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    return subprocess.Popen([sys.executable, "-m", "tablectl", *map(str, args), "--progress"], env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)


def wait_for_progress(proc: subprocess.Popen[bytes]) -> bytes:
    """stderr until it shows the solve's share done and ETA."""
    assert proc.stderr is not None
    seen = b""
    end = time.monotonic() + STARTED
    while b"ETA" not in seen:
        assert time.monotonic() < end, seen.decode(errors="replace")
        ready, _, _ = select.select([proc.stderr], [], [], 1.0)
        if ready:
            chunk = os.read(proc.stderr.fileno(), 65536)
            assert chunk, f"ended before its progress showed: {seen.decode(errors='replace')}"
            seen += chunk
    return seen


def stop(proc: subprocess.Popen[bytes], signum: int) -> tuple[float, int, str]:
    """Send ``signum``: (seconds to its end, exit code, the rest of stderr)."""
    sent = time.monotonic()
    proc.send_signal(signum)
    try:
        code = proc.wait(timeout=DEADLINE + 30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        pytest.fail(f"still running {DEADLINE + 30:g} s after {signal.Signals(signum).name}")
    seconds = time.monotonic() - sent
    assert proc.stderr is not None
    return seconds, code, proc.stderr.read().decode(errors="replace")


def left_in_group(pgid: int) -> list[int]:
    """Processes still in the process group ``pgid`` (its orphans: the leader has ended)."""
    left = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # ended meanwhile
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            left.append(int(entry.name))
    return left


def assert_stopped_cleanly(proc: subprocess.Popen[bytes], signum: int, cache: Path) -> None:
    seconds, code, rest = stop(proc, signum)
    assert code == 130, rest
    assert seconds <= DEADLINE, f"{seconds:.2f} s after {signal.Signals(signum).name}"
    assert "Traceback" not in rest, rest
    assert left_in_group(proc.pid) == []
    folder = cache / "tablectl"
    left = sorted(p.name for p in folder.iterdir()) if folder.exists() else []
    assert [name for name in left if name.startswith("thb-main") or name.endswith(".tmp")] == []
    assert strategy.will_solve(folder)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_math_solving_the_main_game_stops_within_two_seconds_of_a_signal_and_leaves_no_half_cache(
        signum: int, tmp_path: Path) -> None:
    proc = start(["math", "texas-holdem-bonus", "--json"], tmp_path / "cache")
    assert b"solving Texas Hold'em Bonus's main game" in wait_for_progress(proc)
    assert_stopped_cleanly(proc, signum, tmp_path / "cache")


@pytest.fixture(scope="module")
def holdem_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A simulated Texas Hold'em Bonus table of 10 rounds, exported."""
    root = tmp_path_factory.mktemp("thb")

    def tablectl(*args: str | Path) -> None:
        done = subprocess.run([sys.executable, "-m", "tablectl", *map(str, args)], capture_output=True, text=True,
                              check=False, timeout=600)
        assert done.returncode == 0, done.stderr

    tablectl("keygen", root / "keys")
    tablectl("run", REPO / "config" / "tables" / "texas-holdem-bonus.toml", "--simulate", "--headless", "--autoplay",
             "10", "--seed", "3", "--log-dir", root / "logs", "--signing-key", root / "keys" / "table.key")
    tablectl("export", root / "logs", "--to", root / "ds", "--key", root / "keys" / "table.pub")
    return root / "ds"


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_floor_solving_the_main_game_stops_within_two_seconds_of_a_signal_and_leaves_no_half_cache(
        signum: int, holdem_dataset: Path, tmp_path: Path) -> None:
    proc = start(["floor", holdem_dataset], tmp_path / "cache")
    assert b"computing the Texas Hold'em Bonus main game's optimal strategy" in wait_for_progress(proc)
    assert_stopped_cleanly(proc, signum, tmp_path / "cache")
