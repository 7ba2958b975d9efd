"""The display's terminal output, written so that a terminal which stops reading can never stall
the table's display loop or its stop: a stopped SSH session, a suspended terminal emulator or a
full pty buffer blocks only this module's writer thread.

``TerminalOut`` is a text stream for ``rich.console.Console(file=...)``: what is written between
two flushes is one chunk (rich flushes once a frame); the writer thread writes chunks in order.
While the terminal does not read, chunks queue up to ``limit`` bytes and then are dropped and
counted; every frame of the live display redraws the whole screen, so the next one that gets
through repairs it. ``close`` waits a bounded time for what is queued (the terminal's restore
sequences) and never longer.
"""

from __future__ import annotations

import collections
import io
import os
import threading
from typing import TextIO

DEFAULT_LIMIT = 1 << 20


class TerminalOut(io.TextIOBase):
    """A non-blocking front for ``stream`` (a terminal's stdout)."""

    def __init__(self, stream: TextIO, *, limit: int = DEFAULT_LIMIT) -> None:
        super().__init__()
        stream.flush()
        self._stream = stream
        self._fd = stream.fileno()
        self._encoding = getattr(stream, "encoding", None) or "utf-8"
        self._limit = limit
        self._parts: list[str] = []
        self._queue: collections.deque[bytes] = collections.deque()
        self._queued = 0
        self._writing = False
        self._cond = threading.Condition()
        self._closed = False
        self.dropped = 0
        self._thread = threading.Thread(target=self._write_loop, name="tablectl-terminal", daemon=True)
        self._thread.start()

    # --- the text stream rich writes to -----------------------------------------------------------
    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._encoding

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        return self._stream.isatty()

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self._parts.append(text)
        return len(text)

    def flush(self) -> None:
        if not self._parts:
            return
        data = "".join(self._parts).encode(self._encoding, "replace")
        self._parts.clear()
        with self._cond:
            if self._closed:
                return
            if self._queued + len(data) > self._limit:
                self.dropped += 1
                return
            self._queue.append(data)
            self._queued += len(data)
            self._cond.notify()

    def close(self, timeout: float = 1.0) -> None:  # type: ignore[override]
        """Flush, then wait at most ``timeout`` seconds for the queue to reach the terminal."""
        self.flush()
        with self._cond:
            self._cond.wait_for(lambda: not self._queue and not self._writing, timeout)
            self._closed = True
            self._cond.notify_all()
        super().close()

    # --- the writer thread ------------------------------------------------------------------------
    def _write_loop(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._queue or self._closed)
                if not self._queue:
                    return
                data = self._queue.popleft()
                self._writing = True
            view = memoryview(data)
            try:
                while view:
                    view = view[os.write(self._fd, view) :]
            except OSError:
                pass  # the terminal is gone: nothing more to show
            with self._cond:
                self._queued -= len(data)
                self._writing = False
                self._cond.notify_all()


__all__ = ["TerminalOut"]
