"""A person at the keys, for tests: ``tablectl run CONFIG --simulate`` on a real pty of a given
size, read back frame by frame, and a dealer who looks at the screen and presses keys.

``Terminal`` is the pty: it starts the command as its controlling terminal, collects what the
command draws, and gives the latest whole frame (``rich.live`` in the alternate screen redraws
the whole terminal from the home position, ``ESC [ H``, for every frame). ``Keys`` is a person
who types and then reads the screen until it shows what they wait for (never a fixed pause:
the wait ends on the first frame that shows it, however loaded the machine). ``ScreenDealer`` deals
a shift from what the screen says and nothing else: the header (state, round, dealer), the
``Next:`` line, the decision keys on the key line and the status line; every key it presses goes
through the terminal, as a person's would.
"""

from __future__ import annotations

import fcntl
import os
import pty
import random
import re
import select
import shutil
import signal
import struct
import sys
import termios
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HOME = "\x1b[H"
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78]")
_HEADER = re.compile(r"·\s+([A-Z ]+?)\s+· round (\d+|-) ·")
_DECIDE = re.compile(r"seat (\d+)(?: \(bank\))?: ((?:\[\w\] [\w-]+\s*)+)")
_OPTION = re.compile(r"\[(\w)\] ([\w-]+)")
_STAKE_FIRST = re.compile(r"seat (\d+) banks: enter its stake first")


def tablectl_command() -> str:
    """The tablectl of this interpreter (the checkout under test), not one earlier on PATH."""
    beside = Path(sys.executable).with_name("tablectl")
    return str(beside) if beside.exists() else (shutil.which("tablectl") or "tablectl")


def plain(text: str) -> str:
    return _ESCAPES.sub("", text).replace("\r", "")


class Terminal:
    """A command on a new pty of ``rows`` x ``cols`` (TERM=xterm-256color)."""

    def __init__(self, argv: list[str], *, rows: int, cols: int) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR", "TERM")}
        env["TERM"] = "xterm-256color"
        self.rows, self.cols = rows, cols
        pid, master = pty.fork()
        if pid == 0:
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
                os.execvpe(argv[0], argv, env)
            finally:
                os._exit(127)
        self.pid, self.master = pid, master
        self.output = bytearray()
        self.status: int | None = None
        self._text = ""  # decoded output not yet split into frames
        self.frames: list[str] = []
        self.closed = False

    def read(self, timeout: float) -> bool:
        """Read what the command wrote within ``timeout`` s; whether anything came."""
        if self.closed:
            return False
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.master, 1 << 16)
        except OSError:  # EIO: the command closed the terminal
            data = b""
        if not data:
            self.closed = True
            return False
        self.output += data
        self._text += data.decode("utf-8", "ignore")
        parts = self._text.split(HOME)
        self.frames += [plain(p) for p in parts[1:-1]]
        self._text = HOME + parts[-1] if len(parts) > 1 else parts[0]
        return True

    def screen(self, settle: float = 0.005) -> str:
        """The latest whole frame: the last one drawn once the command pauses ``settle`` s."""
        while self.read(settle):
            pass
        tail = plain(self._text[len(HOME) :]) if self._text.startswith(HOME) else ""
        if tail.count("\n") >= self.rows - 1:
            return tail
        return self.frames[-1] if self.frames else ""

    def type(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def wait(self, timeout: float) -> int:
        """Wait for the command to end; its exit code."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.read(0.05)
            done, st = os.waitpid(self.pid, os.WNOHANG)
            if done:
                while self.read(0.05):
                    pass
                self.status = os.waitstatus_to_exitcode(st)
                return self.status
        self.kill()
        raise AssertionError(f"the command did not end in {timeout} s; last screen:\n{self.screen()}")

    def kill(self) -> None:
        if self.status is None:
            try:
                os.killpg(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(self.pid, 0)
            self.status = -9
        os.close(self.master)


@dataclass
class Screen:
    """What a dealer reads off one frame."""

    text: str
    state: str  # as the header shows it: READY, IN ROUND, HELD, ...
    round: int  # 0 before the first
    next: str  # the "Next:" line without its label
    status: str  # the status line
    decision: tuple[int, dict[str, str]] | None  # (seat, option -> key) when a decision is awaited
    signed_in: bool
    prompt_open: bool

    @classmethod
    def read(cls, text: str) -> Screen | None:
        lines = text.splitlines()
        header = _HEADER.search(lines[0]) if lines else None
        nxt = next((ln for ln in lines if ln.startswith("Next: ")), None)
        if header is None or nxt is None or len(lines) < 3:
            return None
        while lines and not lines[-1].strip():
            lines.pop()
        status_at = next((i for i in range(len(lines) - 1, 0, -1) if lines[i].startswith(("» ", "✗ ", "· "))), None)
        status = lines[status_at] if status_at is not None else ""
        keys_lines = " ".join(lines[status_at + 1 :] if status_at is not None else lines[-3:])  # the key line wraps
        decision = None
        m = _DECIDE.search(keys_lines)
        if m:
            decision = (int(m.group(1)), {opt: key for key, opt in _OPTION.findall(m.group(2))})
        return cls(
            text=text, state=header.group(1).strip(), round=0 if header.group(2) == "-" else int(header.group(2)),
            next=nxt[len("Next: ") :].strip(), status=status, decision=decision,
            signed_in="NO DEALER SIGNED IN" not in lines[0], prompt_open=status.startswith("» "),
        )

    def seat_lines(self) -> list[str]:
        """The seats' lines (and the legend under them): from the column heads or the first seat
        to the dealer's cards."""
        lines = self.text.splitlines()[1:]
        end = next((i for i, ln in enumerate(lines) if ln.startswith(("Dealer", "DP (", "DP:", "Player-dealer"))), len(lines))
        return lines[:end]

    def bank_line(self) -> str | None:
        """The bank's (DP's, player-dealer's) row, or None."""
        return next((ln for ln in self.seat_lines() if re.match(r"^[ ▶]\d+ (◆ )?(BANK|DP)\b", ln)), None)

    @property
    def answer(self) -> bool:
        """The status line is the controller's answer to an input (taken or rejected)."""
        return self.status.startswith(("· ✓ ", "✗ "))

    def key(self) -> tuple[str, str, str, str, str]:
        return (self.state, str(self.round), self.next, self.status, self.text.rstrip().splitlines()[-1] if self.text else "")


@dataclass
class Shift:
    """What the dealer is to do over the shift, by round number (the round about to start)."""

    rounds: int = 20
    wagers: dict[int, list[bytes]] = field(default_factory=dict)  # round -> lines typed at $ (seat first)
    sit_out: dict[int, list[int]] = field(default_factory=dict)  # round -> seats toggled in/out before it
    bank: list[int] = field(default_factory=list)  # seats offered the bank before round 1
    stake: bytes = b"2000"  # the bank's stake when the screen asks for it
    dealer_change: int = 6  # before this round
    shoe_change: int = 11  # before this round
    planted: int = 15  # in this round: E before the procedure is complete (too few cards)
    void: int = 0  # in this round, after its first card: the supervisor voids it (V), no hold before
    slip: int = 0  # before this round: n while the cards are still out of a continuous shuffler


@dataclass
class Log:
    """What the dealer did, for the test to check against the log."""

    keys: list[bytes] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    planted_in: int | None = None
    resolved: int = 0
    dealer_changed: bool = False
    bank_offered: bool = False
    shoe_changed: bool = False
    voided_in: int | None = None
    void_screen: Screen | None = None  # the screen after the void: the wagers returned
    slip_screen: Screen | None = None  # the screen after n with the cards out


class ScreenDealer:
    """Deals ``shift`` at ``terminal`` from what its screen says."""

    QUIET = 0.025  # seconds the screen must hold still after a key before the dealer reads it

    def __init__(self, terminal: Terminal, shift: Shift, *, seed: int = 0, step_timeout: float = 5.0,
                 on_screen: Callable[[Screen], None] | None = None) -> None:
        self.on_screen = on_screen  # sees every screen the dealer acts on
        self.t = terminal
        self.shift = shift
        self.rng = random.Random(seed)
        self.step_timeout = step_timeout
        self.log = Log()
        self._prepared: set[int] = set()
        self._void_dealt = False  # a card of the round to void was dealt

    def press(self, keys: bytes, before: Screen | None, *, table_moves: bool = False, reply: bool = False,
              quiet: bool = False) -> Screen:
        """Type ``keys``, then wait for the screen to show what they did, as a person waits for
        the screen before looking again: the first frame that changed (``table_moves``: the
        table itself, its state, round or what it waits for; a device step's card reaches the
        table a moment after the key), and with ``reply`` the controller's answer on the status
        line too (taken or rejected: the keys went to the table). A refusal ends the wait at once.
        ``quiet`` (keys whose effects come in an order the screen cannot tell, such as a shoe
        change and a shoe loaded at once): wait for the screen to hold still ``QUIET`` s instead."""
        self.log.keys.append(keys)
        self.t.type(keys)
        deadline = time.monotonic() + self.step_timeout
        changed: Screen | None = None
        since = 0.0
        answered = False  # the controller's answer to these keys is on the status line
        local = False  # a status of the keys' own was shown (a later answer is theirs)
        while time.monotonic() < deadline and not self.t.closed:
            now = Screen.read(self.t.screen())
            if now is None or now.prompt_open:
                continue
            refused = now.status.startswith("✗ ") and (before is None or now.status != before.status)
            if reply and not answered:
                if now.answer and (local or before is None or now.status != before.status):
                    answered = True
                elif not now.answer:
                    local = local or before is None or now.status != before.status
            if changed is None:
                moved = before is None or refused or (now.key()[:3] != before.key()[:3] if table_moves else now.key() != before.key())
                if moved:
                    changed, since = now, time.monotonic()
            elif now.key() != changed.key():
                changed, since = now, time.monotonic()
            if changed is not None and not quiet and (refused or not reply or answered):
                break
            if changed is not None and time.monotonic() - since >= self.QUIET * (1 if quiet else 4):
                break  # the screen holds still: the answer will not change it (or came before it)
        assert changed is not None or self.t.closed, \
            f"the screen did not change within {self.step_timeout:g} s of {keys!r}:\n{self.t.screen()}"
        now = changed or Screen.read(self.t.screen())
        assert now is not None, f"no readable screen after {keys!r}:\n{self.t.screen()}"
        if now.status.startswith("✗ "):
            self.log.refusals.append(now.status[2:])
        return now

    def look(self, timeout: float = 10.0) -> Screen:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            s = Screen.read(self.t.screen())
            if s is not None:
                return s
        raise AssertionError(f"no readable screen in {timeout} s:\n{self.t.screen()}")

    def deal_shift(self, *, limit: float = 240.0) -> Log:
        """Deal until ``shift.rounds`` rounds are complete, then quit (Q, y)."""
        s = self.look()
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            if self.t.closed:
                tail = plain(bytes(self.t.output[-3000:]).decode("utf-8", "replace"))
                raise AssertionError(f"tablectl ended during the shift (round {s.round}); its last output:\n{tail}")
            s = self.step(s)
            if s.round >= self.shift.rounds and s.state in ("READY", "RESHUFFLE DUE") and self.log.planted_in is not None:
                self.press(b"Qy", s)
                return self.log
        raise AssertionError(f"the shift did not finish in {limit} s; last screen:\n{s.text}")

    def step(self, s: Screen) -> Screen:
        if self.on_screen is not None:
            self.on_screen(s)
        nxt = s.next
        if not s.signed_in and s.state in ("IDLE", "SHUFFLING", "READY", "RESHUFFLE DUE"):
            return self.press(b"dD-01\r", s, reply=True)
        if nxt.startswith("SUPERVISOR"):
            self.log.resolved += 1
            return self.press(b"Sdemo\rdemo\rplanted: the round was ended early\r", s, table_moves=True, reply=True)
        if s.decision is not None:
            seat, options = s.decision
            return self.press(options[self.rng.choice(sorted(options))].encode(), s, table_moves=True, reply=True)
        if nxt.startswith(("deal:", "packet of")) and s.round == self.shift.void and self.log.voided_in is None and s.state == "IN ROUND":
            if self._void_dealt:
                self.log.voided_in = s.round
                return self.press(b"Vydemo\rdemo\rvoid: dispute at the table\r", s, table_moves=True, reply=True)
            self._void_dealt = True
        if nxt.startswith("return wagers"):
            self.log.void_screen = self.log.void_screen or s
            return self.press(b"E", s, table_moves=True, reply=True)
        if nxt.startswith("return ") and s.round + 1 == self.shift.slip and self.log.slip_screen is None:
            self.log.slip_screen = self.press(b"n", s, reply=True)
            return self.log.slip_screen
        if nxt.startswith(("deal:", "packet of")) and s.round == self.shift.planted and self.log.planted_in is None and s.state == "IN ROUND":
            self.log.planted_in = s.round
            return self.press(b"Ey", s, table_moves=True, reply=True)
        if nxt.startswith(("deal:", "load a shuffled shoe", "shuffle", "packet of", "shuffler discards", "return ")):
            return self.press(b"\r", s, table_moves=True)
        if nxt.startswith("shuffling"):
            return self.press(b"", s, table_moves=True)
        if nxt.startswith("change the shoe"):
            return self.press(b"Cy", s, table_moves=True, quiet=True)
        if nxt.startswith("pay and collect"):
            return self.press(b"E", s, table_moves=True, reply=True)
        if nxt.startswith("no seat has the bank"):
            if self.shift.bank and not self.log.bank_offered:
                self.log.bank_offered = True
                for seat in self.shift.bank:
                    s = self.press(f"{seat}o".encode(), s, reply=True)
                return self.press(b"0", s)
            return self.press(b"o", s, reply=True)
        if nxt.startswith("start a round"):
            return self.start_round(s)
        return self.press(b"", s, quiet=True)

    def start_round(self, s: Screen) -> Screen:
        upcoming = s.round + 1
        shift = self.shift
        if upcoming not in self._prepared:
            self._prepared.add(upcoming)
            if upcoming == shift.dealer_change:
                s = self.press(b"dD-02\r", s, reply=True)
                self.log.dealer_changed = True
            if upcoming == shift.shoe_change and not self.log.shoe_changed:
                s = self.press(b"Cy", s, table_moves=True, quiet=True)
                self.log.shoe_changed = True
                return s
            for seat in shift.sit_out.get(upcoming, []):
                s = self.press(f"{seat} ".encode(), s)
            for line in shift.wagers.get(upcoming, []):
                seat, _, typed = line.partition(b" ")
                s = self.press(seat + b"$" + typed + b"\r", s)
        s = self.press(b"n", s, table_moves=True, reply=True)
        m = _STAKE_FIRST.search(s.status)
        if m:
            s = self.press(f"{m.group(1)}$".encode() + self.shift.stake + b"\r", s)
        return s


def wait_for(t: Terminal, what: Callable[[Screen], bool], timeout: float = 10.0) -> Screen:
    """The first screen, read as the command redraws it, for which ``what`` holds (no fixed
    pause: the screen is read again as soon as the command draws); AssertionError with the last
    screen after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    last = ""
    while time.monotonic() < deadline and not t.closed:
        last = t.screen()
        s = Screen.read(last)
        if s is not None and what(s):
            return s
    raise AssertionError(f"the screen never showed what was awaited in {timeout} s; last screen:\n{last}")


class Keys:
    """A person at the keys of ``argv``'s display on a ``rows`` x ``cols`` pty: types, then reads
    the screen until it shows what they wait for. ``modes_before``: the terminal's modes as the
    command found them."""

    def __init__(self, argv: list[str], *, rows: int = 24, cols: int = 80) -> None:
        self.t = Terminal(argv, rows=rows, cols=cols)
        self.modes_before: list[Any] = termios.tcgetattr(self.t.master)
        self.screen = wait_for(self.t, lambda s: True)

    def type(self, keys: bytes, until: object, timeout: float = 10.0) -> Screen:
        """Type ``keys``; the first screen after them for which ``until`` (a text on the screen,
        or a test of it) holds."""
        self.t.type(keys)
        test = until if callable(until) else (lambda s: str(until) in s.text)
        self.screen = wait_for(self.t, test, timeout)  # type: ignore[arg-type]
        return self.screen

    def seat_row(self, seat: int) -> str:
        return seat_row(self.screen, seat)

    def ready_with_seat_1_alone(self) -> None:
        """The device ready, a dealer signed in, seats 2-7 sitting out."""
        self.type(b"\r", lambda s: s.next.startswith("start a round") or "NO DEALER" in s.text)
        self.type(b"dD-01\r", lambda s: s.signed_in)
        self.type(b"2 3 4 5 6 7 ", lambda s: "seat 7 sits out" in s.status)

    def in_round_1(self) -> Screen:
        """Round 1 in play, its first cards dealt."""
        self.ready_with_seat_1_alone()
        self.type(b"n", lambda s: s.state == "IN ROUND")
        return self.type(b"\r", lambda s: s.state == "IN ROUND" and "delivered" in s.status or "card" in s.status)

    def quit(self, keys: bytes = b"Qy", timeout: float = 30.0) -> tuple[int, list[Any]]:
        """Type ``keys`` (quit, confirmed); the command's exit code and the terminal's modes after it."""
        self.t.type(keys)
        status = self.t.wait(timeout)
        return status, termios.tcgetattr(self.t.master)


def seat_row(s: Screen, seat: int) -> str:
    """Seat ``seat``'s row on screen ``s`` ("" if none)."""
    return next((line for line in s.text.splitlines() if line.startswith((f" {seat} ", f"▶{seat} "))), "")


def run_shift(argv: list[str], shift: Shift, *, rows: int, cols: int, seed: int = 0,
              on_screen: Callable[[Screen], None] | None = None) -> tuple[Terminal, Log]:
    """Deal ``shift`` on ``argv``'s display; the terminal (ended) and what the dealer did."""
    t = Terminal(argv, rows=rows, cols=cols)
    try:
        dealer = ScreenDealer(t, shift, seed=seed, on_screen=on_screen)
        log = dealer.deal_shift()
        t.wait(30)
    except BaseException:
        t.kill()
        raise
    return t, log
