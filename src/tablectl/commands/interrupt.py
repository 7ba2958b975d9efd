"""Ctrl-C or SIGTERM ends a long command (``math``, ``floor``, ``review``, ``export``) at once, with
exit code 130 as SIGTERM ends every command (``cli.entry``) and one line on stderr, as ``query``
says it: a ``SystemExit`` raised in the main thread where it is, so its ``finally`` blocks run (a
cache file being written is discarded, never left half; workers are stopped), not click's
"Aborted!" and exit 1.

The long computations run in short steps (numba calls of a fraction of a second, ``gamemath.holdem
.solve``): the interpreter runs the handler between two of them. The handler also freezes the
garbage collector's objects (``gc.freeze``): the interpreter's last collections at exit then skip
them, which after numba has compiled its kernels takes seconds on a loaded machine.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import os
import signal
from types import FrameType

import click

from tablectl.cli import EXIT_INTERRUPTED

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class _Interrupted:
    """The handler: the exit, then, once the command's ``finally`` blocks have wiped any progress
    line (at exit), ``tablectl: NAME: interrupted`` on stderr: by the process that installed it,
    not by a worker forked from it, which ends quietly."""

    def __init__(self, name: str) -> None:
        self.line, self.pid, self.told = f"tablectl: {name}: interrupted\n".encode(), os.getpid(), False

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        gc.freeze()
        if os.getpid() == self.pid and not self.told:
            self.told = True
            atexit.register(self._say)
        raise SystemExit(EXIT_INTERRUPTED)

    def _say(self) -> None:
        with contextlib.suppress(OSError):
            os.write(2, self.line)


def exit_on_interrupt() -> None:
    """Until the command ends, SIGINT (Ctrl-C) and SIGTERM end it at once with exit code 130; the
    handlers before are put back when the click context closes (a command run in-process, by a
    test). Only the main thread handles signals: elsewhere nothing changes."""
    ctx = click.get_current_context(silent=True)
    handler = _Interrupted(ctx.info_name if ctx is not None and ctx.info_name else "command")
    try:
        previous = {signum: signal.signal(signum, handler) for signum in SIGNALS}
    except ValueError:  # not the main thread
        return
    if ctx is not None:
        ctx.call_on_close(lambda: [signal.signal(signum, old) for signum, old in previous.items()])


__all__ = ["exit_on_interrupt"]
