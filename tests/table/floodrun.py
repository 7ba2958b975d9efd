"""``tablectl run`` in a process of its own whose simulated shoe floods the table with shoe loads
(each one ends a shoe, so each is a signed checkpoint, a new log file and its fsyncs: the slowest
event a table takes) on a disk whose fsync takes ``FLOOD_FSYNC_MS`` more (2 ms: the SD card or
eMMC of a small table computer; on this machine's disk 8,192 queued loads are about 6 s of work,
there they are over a minute), stopped by a signal: how long the stop took, what ``tablectl
review`` says of the log, and whether a second run on the same log starts clean.

Imported by name (``from floodrun import ...``), as ``tablehelpers`` is."""

from __future__ import annotations

import fcntl
import os
import pty
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tablectl.eventlog import LogCorruptError, iter_events

CONFIG = Path(__file__).resolve().parents[2] / "config" / "tables" / "one-card-poker.toml"
STOP_DEADLINE = 10.0  # seconds a signalled table has to stop, whatever is queued (issue 33)

# ``tablectl run`` whose simulated shoe is loaded LOADS times as fast as the device allows, on a
# thread of its own, once the table is up ("flood: N loads issued" on stderr once they all are),
# every fsync FSYNC_MS slower
_PROGRAM = '''
import os, sys, threading, time
from tablectl.cli import entry
from tablectl.simulators.model import DeviceRefused
from tablectl.table.runtime import TableRuntime

started = TableRuntime.start
LOADS = int(os.environ["FLOOD_LOADS"])
SLOWER = int(os.environ["FLOOD_FSYNC_MS"]) / 1000
fsync = os.fsync

def slow_fsync(fd):
    fsync(fd)
    time.sleep(SLOWER)

os.fsync = slow_fsync

def start(self):
    controller = started(self)
    sim = self.sims[self.config.card_device]

    def flood():
        issued = 0
        while issued < LOADS:
            try:
                sim.load()
                issued += 1
            except DeviceRefused:  # its store of events the table has not taken yet is full
                time.sleep(0.01)
        print(f"flood: {issued} loads issued", file=sys.stderr, flush=True)

    threading.Thread(target=flood, name="flood", daemon=True).start()
    return controller

TableRuntime.start = start
sys.argv = ["tablectl", *sys.argv[1:]]
entry()
'''


class Lines:
    """A pipe's lines, read on a thread of their own as they come (a reader that stopped reading
    would stall the process writing them)."""

    def __init__(self, stream: Any) -> None:
        self.lines: list[str] = []
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream: Any) -> None:
        for line in stream:
            self.lines.append(line)

    def has(self, text: str) -> bool:
        return any(text in line for line in list(self.lines))

    def text(self) -> str:
        self._thread.join(5)
        return "".join(self.lines)


def _drain(fd: int) -> None:
    """Read a terminal's output until it is gone (a display must never wait for its reader)."""
    try:
        while os.read(fd, 65536):
            pass
    except OSError:
        pass
    finally:
        os.close(fd)


def _env(log_dir: Path, loads: int = 0, fsync_ms: int = 0) -> dict[str, str]:
    return {**os.environ, "XDG_STATE_HOME": str(log_dir.parent / "state"), "TABLECTL_KEYRING": str(log_dir.parent / "keyring"),
            "FLOOD_LOADS": str(loads), "FLOOD_FSYNC_MS": str(fsync_ms), "PYTHONFAULTHANDLER": "1"}


def start_run(log_dir: Path, *, loads: int = 0, fsync_ms: int = 0, display: bool = False) -> tuple[subprocess.Popen[str], Lines]:
    """``tablectl run`` on the simulated One Card Poker table, its shoe loaded ``loads`` times
    (0: nobody touches it), every fsync ``fsync_ms`` slower; headless, or under the live display
    in a terminal of its own."""
    log_dir.parent.mkdir(parents=True, exist_ok=True)
    program = log_dir.parent / "flooded_run.py"
    program.write_text(_PROGRAM)
    argv = [sys.executable, str(program), "run", str(CONFIG), "--simulate", "--log-dir", str(log_dir)]
    env = _env(log_dir, loads, fsync_ms)
    if display:
        terminal, screen = pty.openpty()
        fcntl.ioctl(screen, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 160, 0, 0))
        try:
            proc = subprocess.Popen(argv, stdin=screen, stdout=screen, stderr=subprocess.PIPE, text=True,
                                    env={**env, "TERM": "xterm-256color"})
        finally:
            os.close(screen)
            threading.Thread(target=_drain, args=(terminal,), daemon=True).start()
    else:
        proc = subprocess.Popen([*argv, "--headless"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True, env=env)
    assert proc.stderr is not None
    return proc, Lines(proc.stderr)


def log_files(log_dir: Path) -> int:
    return len(list(log_dir.glob("*.jsonl"))) if log_dir.is_dir() else 0


def wait_for(what: str, done: Any, proc: subprocess.Popen[str], stderr: Lines, timeout: float = 90.0) -> None:
    """Poll ``done()`` until it holds; fail naming ``what`` (and the run's stderr) after ``timeout``
    seconds or once the run has ended."""
    deadline = time.monotonic() + timeout
    while not done():
        if proc.poll() is not None or time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout:g} s (exit {proc.poll()}); stderr:\n{stderr.text()[-3000:]}")
        time.sleep(0.05)


def signal_and_time(proc: subprocess.Popen[str], signum: int, wait: float) -> float | None:
    """Send ``signum``; seconds until the process ended, or None when it had not within ``wait``
    seconds (it is then killed with SIGKILL)."""
    sent = time.monotonic()
    proc.send_signal(signum)
    try:
        proc.wait(wait)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(30)
        return None
    return time.monotonic() - sent


def records(log_dir: Path) -> list[dict[str, Any]]:
    """The log's lines; none when a line is not JSON (review says what is wrong)."""
    try:
        return list(iter_events([log_dir]))
    except LogCorruptError:
        return []


def torn(log_dir: Path) -> list[str]:
    """The log's files a stop left torn: a last line with no newline, or one set aside."""
    return sorted(p.name for p in log_dir.iterdir()
                  if ".torn" in p.name or (p.suffix == ".jsonl" and p.stat().st_size and not p.read_bytes().endswith(b"\n")))


def review(log_dir: Path) -> subprocess.CompletedProcess[str]:
    """``tablectl review LOG`` (the keyring the run enrolled its key in): exit 0 when it verifies."""
    return subprocess.run([sys.executable, "-m", "tablectl", "review", str(log_dir)], capture_output=True, text=True,
                          timeout=300, env=_env(log_dir))


def restart_and_stop(log_dir: Path) -> tuple[int, bool]:
    """A second run on the log, stopped by SIGTERM once it is online: (its exit code, whether it
    found an unclean shutdown and wrote a ``recovery``)."""
    before = len(records(log_dir))
    proc, stderr = start_run(log_dir)
    try:
        wait_for("the second run online", lambda: stderr.has(": running ("), proc, stderr)
        proc.send_signal(signal.SIGTERM)
        proc.wait(60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(30)
    return proc.returncode, any(r["event"] == "recovery" for r in records(log_dir)[before:])


@dataclass
class FloodStop:
    """One run stopped by a signal while its shoe flooded the table, and what followed."""

    code: int | None
    seconds: float | None  # signal -> exit; None: still running after the wait (killed)
    stderr: str
    review: int  # `tablectl review`'s exit code (0: the log verifies)
    review_out: str
    torn: list[str] = field(default_factory=list)  # files left torn (a line cut, or set aside)
    last: list[dict[str, Any]] = field(default_factory=list)  # the log's last three lines
    loads_logged: int = 0
    rerun: int | None = None
    recovered: bool = False


def flood_and_stop(log_dir: Path, *, loads: int = 12_000, fsync_ms: int = 2, signum: int = signal.SIGTERM,
                   display: bool = False, wait: float = 60.0, rerun: bool = True) -> FloodStop:
    """Start the flooded run, signal it once every load is issued and the table is taking them
    (its queue full), time the stop (at most ``wait`` s), review the log and run it again."""
    proc, stderr = start_run(log_dir, loads=loads, fsync_ms=fsync_ms, display=display)
    try:
        wait_for("the flood issued and the table taking it",
                 lambda: stderr.has("loads issued") and log_files(log_dir) >= 5, proc, stderr)
        seconds = signal_and_time(proc, signum, wait)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(30)
    checked = review(log_dir)
    lines = records(log_dir)
    stopped = FloodStop(proc.returncode, seconds, stderr.text(), checked.returncode, checked.stdout + checked.stderr,
                        torn(log_dir), lines[-3:], sum(1 for r in lines if r["event"] == "shoe_loaded"))
    if rerun:
        stopped.rerun, stopped.recovered = restart_and_stop(log_dir)
    return stopped
