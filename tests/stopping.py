"""Helpers of the tests that stop a long ``tablectl`` command with a signal once it shows its
progress (``from stopping import ...`` after putting ``tests/`` on ``sys.path``): start it in a
session of its own, wait for a word on its stderr, send the signal, time its end from the
signal, and find what it left running."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

DEADLINE = 2.0  # seconds from the signal to the process's end
STARTED = 600.0  # seconds to wait for the word (a loaded machine; numba's first compile)


@dataclass(frozen=True)
class Stopped:
    """A command ended by a signal: seconds from the signal to its end, its exit code, its stderr
    (all of it) and the processes of its group still there after it ended."""

    seconds: float
    code: int
    stderr: str
    left: list[int]


def start(args: list[str | Path], env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """``tablectl ARGS`` (``env``: added to this environment) in a session of its own, so that
    whatever it forks is found by its process group."""
    return subprocess.Popen([sys.executable, "-m", "tablectl", *map(str, args)], env={**os.environ, **(env or {})},
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)


def stop_after(proc: subprocess.Popen[bytes], word: bytes, signum: int) -> Stopped:
    """Once ``word`` shows on the command's stderr, send it ``signum``."""
    assert proc.stderr is not None
    seen = b""
    end = time.monotonic() + STARTED
    while word not in seen:
        assert time.monotonic() < end, seen.decode(errors="replace")
        ready, _, _ = select.select([proc.stderr], [], [], 1.0)
        if ready:
            chunk = os.read(proc.stderr.fileno(), 65536)
            assert chunk, f"ended before {word!r} showed: {seen.decode(errors='replace')}"
            seen += chunk
    sent = time.monotonic()
    proc.send_signal(signum)
    try:
        code = proc.wait(timeout=DEADLINE + 30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        pytest.fail(f"still running {DEADLINE + 30:g} s after {signal.Signals(signum).name}")
    seconds = time.monotonic() - sent
    rest = proc.stderr.read()
    return Stopped(seconds, code, (seen + rest).decode(errors="replace"), left_in_group(proc.pid))


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


def assert_stopped_at_once(stopped: Stopped, command: str) -> None:
    """Ended within ``DEADLINE`` of the signal, exit 130, one line saying so, nothing left."""
    assert stopped.code == 130, stopped.stderr[-3000:]
    assert stopped.seconds <= DEADLINE, f"{stopped.seconds:.2f} s"
    assert stopped.stderr.endswith(f"tablectl: {command}: interrupted\n"), stopped.stderr[-3000:]
    assert "Traceback" not in stopped.stderr, stopped.stderr[-3000:]
    assert stopped.left == []
