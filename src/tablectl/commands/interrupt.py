"""Ctrl-C or SIGTERM ends a long computing command (``math``, ``floor``) at once, with exit code
130 as SIGTERM ends every command (``cli.entry``): a ``SystemExit`` raised in the main thread
where it is, so its ``finally`` blocks run (a cache file being written is discarded, never left
half), not click's "Aborted!" and exit 1.

The long computations run in short steps (numba calls of a fraction of a second, ``gamemath.holdem
.solve``): the interpreter runs the handler between two of them. The handler also freezes the
garbage collector's objects (``gc.freeze``): the interpreter's last collections at exit then skip
them, which after numba has compiled its kernels takes seconds on a loaded machine.
"""

from __future__ import annotations

import gc
import signal
from types import FrameType

import click

from tablectl.cli import EXIT_INTERRUPTED

SIGNALS = (signal.SIGINT, signal.SIGTERM)


def _interrupted(signum: int, frame: FrameType | None) -> None:
    gc.freeze()
    raise SystemExit(EXIT_INTERRUPTED)


def exit_on_interrupt() -> None:
    """Until the command ends, SIGINT (Ctrl-C) and SIGTERM end it at once with exit code 130; the
    handlers before are put back when the click context closes (a command run in-process, by a
    test). Only the main thread handles signals: elsewhere nothing changes."""
    try:
        previous = {signum: signal.signal(signum, _interrupted) for signum in SIGNALS}
    except ValueError:  # not the main thread
        return
    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        ctx.call_on_close(lambda: [signal.signal(signum, handler) for signum, handler in previous.items()])


__all__ = ["exit_on_interrupt"]
