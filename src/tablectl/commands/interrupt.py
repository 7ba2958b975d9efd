"""Ctrl-C in a long computing command (``math``, ``floor``) ends it as SIGTERM does (``cli.entry``):
a ``SystemExit`` with exit code 130 raised in the main thread where it is, so its ``finally``
blocks run (a cache file being written is discarded, never left half) and the process ends at
once, not click's "Aborted!" and exit 1.

The long computations run in short steps (numba calls of a fraction of a second, ``gamemath.holdem
.solve``): the interpreter runs the handler between two of them.
"""

from __future__ import annotations

import signal
from types import FrameType

import click

from tablectl.cli import EXIT_INTERRUPTED


def _interrupted(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(EXIT_INTERRUPTED)


def exit_on_interrupt() -> None:
    """Until the command ends, SIGINT (Ctrl-C) ends it with exit code 130; the handler before
    is put back when the click context closes (a command run in-process, by a test). Only the
    main thread handles signals: elsewhere nothing changes."""
    try:
        previous = signal.signal(signal.SIGINT, _interrupted)
    except ValueError:  # not the main thread
        return
    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        ctx.call_on_close(lambda: signal.signal(signal.SIGINT, previous))


__all__ = ["exit_on_interrupt"]
