"""Progress of long work through a log, one line on stderr redrawn in place (``review``, ``export``).

``describe`` is the pure text of the line (lines read, bytes of the total, percent, rate, ETA);
``Progress`` draws it on a stream at most every ``interval`` seconds and wipes it when the work is
done, so that nothing of it stays between the command's own lines. It is shown only on a
terminal (``wanted``): piped, redirected or under CI, stderr gets nothing extra.
"""

from __future__ import annotations

import time
from collections.abc import Callable
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
        left = int((total - done) / rate)
        text += f", ETA {left // 3600}:{left // 60 % 60:02d}:{left % 60:02d}" if left >= 3600 else f", ETA {left // 60}:{left % 60:02d}"
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
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # a terminal gone: the work goes on without its progress
            pass
