"""Progress of long work, one line on stderr redrawn in place: through a log (``review``,
``export``), or through a computation (``math``, ``floor`` solving game math).

``describe`` is the pure text of a log's line (lines read, bytes of the total, percent, rate,
ETA); ``Progress`` draws it on a stream at most every ``interval`` seconds and wipes it when the
work is done, so that nothing of it stays between the command's own lines. It is shown only on a
terminal (``wanted``): piped, redirected or under CI, stderr gets nothing extra.

``Told`` is what a command tells while it computes: messages on lines of their own (the start
and the end of a long computation, and how long it took, always: never silent), and the share
done of the computation running, with its ETA, on one redrawn line (``describe_share``) where
``shown``, from two seconds into it (a shorter one draws nothing); work whose length is not known
before (``slow``) is said once it has run two seconds, and how long it took.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

_MIB = 1 << 20
_WIPE = "\r\x1b[K"  # to the line's start, then clear it


def describe(what: str, lines: int, done: int, total: int, rate: float | None) -> str:
    """``review: 1,204,000 lines, 150.2/601.0 MiB (25%), 40.1 MiB/s, ETA 0:11``; *rate* in bytes
    per second (None: not known yet, and neither rate nor ETA is shown)."""
    text = f"{what}: {lines:,} lines, {done / _MIB:.1f}/{total / _MIB:.1f} MiB"
    if total > 0:
        text += f" ({min(100, done * 100 // total)}%)"
    if rate is None:
        return text
    text += f", {rate / _MIB:.1f} MiB/s"
    if rate > 0 and total > done:
        text += f", ETA {clock_text((total - done) / rate)}"
    return text


def clock_text(seconds: float) -> str:
    """``0:42``, ``12:05``, ``1:02:03``: whole seconds as a clock reads them."""
    s = int(seconds)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


def describe_share(what: str, done: float, elapsed: float) -> str:
    """``solving: 41%, 0:21 so far, ETA 0:30``: *done* the share of the work done (0 to 1) after
    *elapsed* seconds; the ETA at the rate so far (none before any share is done)."""
    done = min(max(done, 0.0), 1.0)
    text = f"{what}: {int(done * 100)}%, {clock_text(elapsed)} so far"
    if done > 0:
        text += f", ETA {clock_text(elapsed * (1 - done) / done)}"
    return text


def wanted(choice: bool | None, stream: TextIO) -> bool:
    """Whether to show progress: as ``--progress``/``--no-progress`` says, else only when
    ``stream`` is a terminal."""
    if choice is not None:
        return choice
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no file, or a closed one
        return False


def _write(stream: TextIO, text: str) -> None:
    try:
        stream.write(text)
        stream.flush()
    except (OSError, ValueError):  # a terminal gone: the work goes on without its progress
        pass


class Progress:
    """Lines and bytes of a known total read so far, drawn on ``stream`` as they advance. The rate
    (and the ETA from it) is that of the reading since the first block came: what the command did
    before it started reading (imports, keys, forking its workers) does not count."""

    def __init__(self, what: str, total: int, stream: TextIO, *, interval: float = 0.2,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.what, self.total, self.stream, self.interval, self.clock = what, total, stream, interval, clock
        self.lines = self.done = 0
        self._first: tuple[float, int] | None = None  # (when, bytes done) at the first block
        self._drawn_at: float | None = None

    def advance(self, lines: int, nbytes: int) -> None:
        """``lines`` more lines, ``nbytes`` more bytes read; redrawn if ``interval`` has passed
        since the last drawing (the first is drawn at once)."""
        self.lines += lines
        self.done += nbytes
        now = self.clock()
        if self._first is None:
            self._first = (now, self.done)
        if self._drawn_at is None or now - self._drawn_at >= self.interval:
            self._drawn_at = now
            since, base = self._first
            rate = (self.done - base) / (now - since) if now > since else None
            self._write(_WIPE + describe(self.what, self.lines, self.done, self.total, rate))

    def close(self) -> None:
        """Wipe the line (if one was drawn)."""
        if self._drawn_at is not None:
            self._write(_WIPE)
            self._drawn_at = None

    def _write(self, text: str) -> None:
        _write(self.stream, text)


class Told:
    """What a command tells on ``stream`` while it computes, each message on a line of its own
    (after ``prefix``): ``say(message)`` always (a long computation's start and end),
    ``told(message)`` only where ``shown`` (a note on a terminal). ``begin(what)`` starts a
    computation; ``share(done)`` (0 to 1) redraws its line (``describe_share``) where ``shown``,
    at most every ``interval`` seconds, once ``after`` seconds have passed since ``begin``;
    ``end()`` wipes the line and returns the computation's seconds."""

    def __init__(self, stream: TextIO, shown: bool, *, prefix: str = "tablectl: ", after: float = 2.0,
                 interval: float = 0.2, clock: Callable[[], float] = time.monotonic) -> None:
        self.stream, self.shown, self.prefix = stream, shown, prefix
        self.after, self.interval, self.clock = after, interval, clock
        self.what = ""
        self._began = clock()
        self._drawn_at: float | None = None

    def __call__(self, message: str) -> None:
        if self.shown:
            self.say(message)

    def say(self, message: str) -> None:
        """*message* on a line of its own, shown or not (on a terminal, over any progress line
        drawn there)."""
        self._drawn_at = None
        self._write(f"{_WIPE if self.shown else ''}{self.prefix}{message}\n")

    def begin(self, what: str) -> None:
        """A computation starts: its share line names it *what*."""
        self._wipe()
        self.what, self._began = what, self.clock()

    def share(self, done: float) -> None:
        """The computation has done *done* of its work."""
        now = self.clock()
        if not self.shown or now - self._began < self.after:
            return
        if self._drawn_at is None or now - self._drawn_at >= self.interval:
            self._drawn_at = now
            self._write(_WIPE + self.prefix + describe_share(self.what, done, now - self._began))

    def end(self) -> float:
        """The computation is over: its line wiped; the seconds since ``begin``."""
        self._wipe()
        return self.clock() - self._began

    @contextmanager
    def slow(self, what: str, done: str) -> Iterator[None]:
        """Work whose length cannot be known before (a JIT compile, once per machine): if it
        runs ``after`` seconds, *what* is said then (from a timer thread: the work may hold no
        Python lines to run) and, when it ends, *done* with its seconds (``{seconds}``)."""
        said = threading.Event()

        def notice() -> None:
            said.set()
            self.say(what)

        start = time.monotonic()
        timer = threading.Timer(self.after, notice)
        timer.daemon = True
        timer.start()
        try:
            yield
        finally:
            timer.cancel()
            if said.is_set():
                self.say(done.format(seconds=f"{time.monotonic() - start:.0f}"))

    def _wipe(self) -> None:
        if self._drawn_at is not None:
            self._write(_WIPE)
            self._drawn_at = None

    def _write(self, text: str) -> None:
        _write(self.stream, text)
