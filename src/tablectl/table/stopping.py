"""Why a table stopped, as ``table_stopped`` names it (``reason``, and ``signal`` for a signal),
and how long a stop may take.

A stop asked for by a signal does not wait for what is queued: the table commits what it is
applying and stops, and what it had not taken stays with its device (never acknowledged, so sent
again at the next start). Any other stop first takes what was queued before it, for at most
``ORDERLY_GRACE`` seconds, then stops the same way.
"""

from __future__ import annotations

import signal as _signal
from dataclasses import dataclass

SIGNAL = "signal"
"""A signal other than SIGINT (SIGTERM: the service manager or an operator; SIGHUP)."""
CTRL_C = "ctrl_c"
"""SIGINT: Ctrl-C at the terminal (or the same signal sent by hand)."""
AUTOPLAY_DONE = "autoplay_done"
"""The virtual dealer played the rounds it was asked for."""
QUIT = "quit"
"""The live display's quit key."""
ERROR = "error"
"""The run ended on an error (a hold the virtual dealer could not explain, a device refused...)."""
STOP = "stop"
"""A stop asked for by code that gives no reason."""

STOP_DEADLINE = 10.0
"""Seconds from a signal to the end of ``tablectl run``, whatever is queued (the systemd unit
allows 20 before it kills)."""
ORDERLY_GRACE = 2.0
"""Seconds an orderly stop takes what was queued before it, before it stops at once."""


@dataclass(frozen=True)
class StopReason:
    """What ``table_stopped`` says: ``reason``, and the signal's name when a signal stopped it."""

    reason: str = STOP
    signal: str | None = None


def for_signal(signum: int) -> StopReason:
    """The reason a signal gives: SIGINT is Ctrl-C, any other is named."""
    name = _signal.Signals(signum).name
    return StopReason(CTRL_C if signum == _signal.SIGINT else SIGNAL, name)
