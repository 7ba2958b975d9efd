"""A SIGTERM (or Ctrl-C) stops ``tablectl run`` with exit 130 wherever it lands.

The signal handler never raises into what the main thread runs: it only asks the table to stop.
(Raised inside code the interpreter runs from a string, ``exec``, which ``dataclasses`` and
``namedtuple`` use to make a class, a bare ``KeyboardInterrupt`` would make the interpreter kill
itself with SIGINT at exit, whatever exit code the program chose.)

While cards flow it must leave one writer on the log: the table's owner thread takes what is
queued, logs ``table_stopped`` and the log closes with a signed ``shutdown`` checkpoint, and the
next run opens the log as it was left (a clean shutdown, no recovery).
"""

from __future__ import annotations

import fcntl
import os
import pty
import random
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tablectl.commands.run import Terminated, _Termination
from tablectl.eventlog import LogCorruptError, iter_events, keyring
from tablectl.eventlog.verify import verify
from tablectl.table.stopping import StopReason, for_signal

CONFIG = Path(__file__).resolve().parents[2] / "config" / "tables" / "one-card-poker.toml"

_PROGRAM = '''
import os, signal, sys, threading
from tablectl.commands.run import _Termination

termination = _Termination()
stops = []
termination.arm(lambda reason: stops.append(reason))
threading.Timer(0.1, os.kill, (os.getpid(), signal.SIGTERM)).start()
while not stops:
    exec("x = sum(range(5000))")
sys.exit(130)
'''

# ``tablectl run`` whose simulated card device is worked by a thread drawing cards as fast as it
# can (a new shoe whenever one runs out, a pause whenever its store of events
# not yet taken by the table is full): a device flooding a table that serves it headless
_FLOODED_RUN = '''
import sys, threading, time
from tablectl.cli import entry
from tablectl.simulators.model import DeviceRefused
from tablectl.table.runtime import TableRuntime

started = TableRuntime.start

def start(self):
    controller = started(self)
    sim = self.sims[self.config.card_device]

    def flood():
        sim.load()
        while True:
            try:
                if any(type(e).__name__ == "ShoeEmpty" for e in sim.draw()):
                    sim.load()
            except DeviceRefused:  # its store of events the table has not taken yet is full
                time.sleep(0.01)

    threading.Thread(target=flood, name="flood", daemon=True).start()
    return controller

TableRuntime.start = start
sys.argv = ["tablectl", *sys.argv[1:]]
entry()
'''


def test_a_sigterm_inside_code_run_from_a_string_only_asks_for_the_stop_and_the_program_exits_130(tmp_path: Path) -> None:
    (tmp_path / "stopped_in_exec.py").write_text(_PROGRAM)
    codes = [subprocess.run([sys.executable, "-m", "stopped_in_exec"], cwd=tmp_path, capture_output=True, timeout=60).returncode
             for _ in range(5)]
    assert codes == [130] * 5


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_the_signal_handler_only_asks_for_the_stop_and_never_raises(signum: int) -> None:
    termination = _Termination()
    stops: list[StopReason] = []
    try:
        termination.arm(stops.append)
        signal.raise_signal(signum)
        signal.raise_signal(signum)
    finally:
        termination.restore()
    assert termination.requested and stops == [for_signal(signum)] * 2


def test_a_signal_before_the_table_is_armed_is_acted_on_when_it_is() -> None:
    termination = _Termination()
    try:
        signal.raise_signal(signal.SIGTERM)
        with pytest.raises(Terminated):
            termination.arm(lambda reason: None)
    finally:
        termination.restore()


@dataclass
class Stopped:
    """One run stopped by a signal while cards flowed, and what its log shows."""

    code: int
    stderr: str
    ok: bool  # the log verifies (chain and signatures)
    findings: list[str]
    last: list[tuple[str, str | None]]  # the last three lines: (event, its reason or the state it goes to)
    cards: int
    rerun: int  # the exit code of a second run on the same log (stopped at once)
    recovered: bool  # the second run found an unclean shutdown


# how a stopped table's log ends: the table goes offline (a signal stopped it), then the log's
# signed shutdown checkpoint
CLEAN_END = [("table_stopped", "signal"), ("state", "offline"), ("checkpoint", "shutdown")]
_CARD_EVENTS = ("drawn", "dealt", "burned")  # a card out of the shoe: outside a round, dealt, burned


def _cards_logged(log_dir: Path) -> int:
    count = 0
    for path in log_dir.rglob("*.jsonl"):
        data = path.read_bytes()
        count += sum(data.count(b'"event":"%s"' % name.encode()) for name in _CARD_EVENTS)
    return count


def _drain(fd: int) -> None:
    """Read a terminal's output until it is gone (a display must never wait for its reader)."""
    try:
        while os.read(fd, 65536):
            pass
    except OSError:
        pass
    finally:
        os.close(fd)


def _start(log_dir: Path, how: str) -> subprocess.Popen[str]:
    """``how``: ``flood`` (a device floods the table), ``autoplay`` (the virtual dealer plays),
    ``display`` (the virtual dealer plays at full pace under the live display, in a terminal),
    ``idle`` (nobody deals)."""
    env = {**os.environ, "XDG_STATE_HOME": str(log_dir.parent / "state"), "TABLECTL_KEYRING": str(log_dir.parent / "keyring"),
           "PYTHONFAULTHANDLER": "1"}  # a SIGABRT dumps every thread's stack (see stop_while_cards_flow)
    run = ["run", str(CONFIG), "--simulate", "--log-dir", str(log_dir)]
    if how == "flood":
        program = log_dir.parent / "flooded_run.py"
        program.write_text(_FLOODED_RUN)
        argv = [sys.executable, str(program), *run, "--headless"]
    elif how == "display":
        argv = [sys.executable, "-m", "tablectl", *run, "--autoplay", "1000000", "--pace", "0"]
        terminal, screen = pty.openpty()
        fcntl.ioctl(screen, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 160, 0, 0))
        try:
            return subprocess.Popen(argv, stdin=screen, stdout=screen, stderr=subprocess.PIPE, text=True,
                                    env={**env, "TERM": "xterm-256color"})
        finally:
            os.close(screen)
            threading.Thread(target=_drain, args=(terminal,), daemon=True).start()
    else:
        argv = [sys.executable, "-m", "tablectl", *run, "--headless", *(["--autoplay", "1000000"] if how == "autoplay" else [])]
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _records(log_dir: Path) -> list[dict[str, Any]]:
    """The log's lines; none when a line is not JSON (``verify`` says what is wrong)."""
    try:
        return list(iter_events([log_dir]))
    except LogCorruptError:
        return []


def stop_while_cards_flow(log_dir: Path, rng: random.Random, *, how: str = "flood", signum: int = signal.SIGTERM) -> Stopped:
    """Run the table, signal it at a random moment once cards are being logged, then look at the
    log and run the table again on it."""
    proc = _start(log_dir, how)
    try:
        deadline = time.monotonic() + 60
        while _cards_logged(log_dir) < 20 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(rng.uniform(0.0, 0.4))
        proc.send_signal(signum)
        try:
            _, stderr = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:  # hung: fail with where each of its threads stands
            proc.send_signal(signal.SIGABRT)
            _, stacks = proc.communicate(timeout=30)
            pytest.fail(f"the table did not stop within 60 s of signal {signum}; its threads:\n{stacks[-6000:]}")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    report = verify([log_dir], keyring.trust(log_dir.parent / "keyring", "ocp-1"))
    records = _records(log_dir)
    last = [(r["event"], r.get("to") if r["event"] == "state" else r.get("reason")) for r in records[-3:]]
    cards = sum(1 for r in records if r["event"] in _CARD_EVENTS)
    again = _start(log_dir, "idle")
    assert again.stderr is not None
    for line in again.stderr:  # until the table is online ("running"), or the run has ended
        if ": running (" in line:
            break
    again.send_signal(signal.SIGTERM)
    again.communicate(timeout=60)
    recovered = any(r["event"] == "recovery" for r in _records(log_dir)[len(records):])
    return Stopped(proc.returncode, stderr, report.ok, [str(f) for f in report.findings], last, cards,
                   again.returncode, recovered)


def _assert_clean_stop(stopped: Stopped, reason: str = "signal") -> None:
    assert stopped.code == 130, stopped.stderr
    assert "Traceback" not in stopped.stderr, stopped.stderr
    assert stopped.ok and not stopped.findings, stopped.findings
    assert stopped.cards > 0
    assert stopped.last == [("table_stopped", reason), *CLEAN_END[1:]]
    assert (stopped.rerun, stopped.recovered) == (130, False)


def moments() -> random.Random:
    """The random moments of one test, from a seed it prints (shown with a failure, to replay it)."""
    seed = random.randrange(1 << 32)
    print(f"random moments: seed {seed}")
    return random.Random(seed)


def test_a_sigterm_while_a_device_floods_the_table_stops_it_cleanly(tmp_path: Path) -> None:
    _assert_clean_stop(stop_while_cards_flow(tmp_path / "log", moments()))


def test_a_sigterm_while_the_virtual_dealer_plays_stops_it_cleanly(tmp_path: Path) -> None:
    _assert_clean_stop(stop_while_cards_flow(tmp_path / "log", moments(), how="autoplay"))


@pytest.mark.slow
def test_a_ctrl_c_while_a_device_floods_the_table_stops_it_cleanly(tmp_path: Path) -> None:
    _assert_clean_stop(stop_while_cards_flow(tmp_path / "log", moments(), signum=signal.SIGINT), "ctrl_c")


def test_a_sigterm_under_the_live_display_while_the_virtual_dealer_plays_stops_it_cleanly(tmp_path: Path) -> None:
    _assert_clean_stop(stop_while_cards_flow(tmp_path / "log", moments(), how="display"))


@pytest.mark.slow
def test_a_ctrl_c_under_the_live_display_while_the_virtual_dealer_plays_stops_it_cleanly(tmp_path: Path) -> None:
    _assert_clean_stop(stop_while_cards_flow(tmp_path / "log", moments(), how="display", signum=signal.SIGINT), "ctrl_c")


@pytest.mark.slow
def test_thirty_sigterms_at_random_moments_while_cards_flow_all_stop_cleanly(tmp_path: Path) -> None:
    rng = moments()
    runs = [stop_while_cards_flow(tmp_path / f"log{i}", rng, how="autoplay" if i % 3 == 2 else "flood") for i in range(30)]
    figures = {
        "not 130": sum(r.code != 130 for r in runs),
        "tracebacks": sum("Traceback" in r.stderr for r in runs),
        "corrupt logs": sum(not r.ok for r in runs),
        "with table_stopped": sum(any(e == "table_stopped" for e, _ in r.last) for r in runs),
        "clean stops": sum(r.last == CLEAN_END for r in runs),
        "second run refused": sum(r.rerun != 130 for r in runs),
    }
    print(figures)
    assert figures == {"not 130": 0, "tracebacks": 0, "corrupt logs": 0, "with table_stopped": 30,
                       "clean stops": 30, "second run refused": 0}
