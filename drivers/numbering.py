"""Event numbers: which ones a host may believe, and how a refused event is named in the log.

Pure functions, no I/O. docs/protocol.md section 6 ("Event numbers near the top of the range")
is the rule these implement: ``event_no`` is a ``u32`` that never wraps, and a number (an event's,
or the counter an IDENTIFY reports) more than ``JUMP_WINDOW`` past everything the host already
knows of the device is not believed: it is never delivered, logged as a card, confirmed with
PERSISTED or taken as a reason to skip (and so drop) the device's real events after it.
"""

from __future__ import annotations

from tablectl.cards import text
from tablectl.drivers import events as ev

EVENT_NO_MAX = 0xFFFF_FFFF
"""The highest event number v1 can carry (``u32``). A device never wraps past it."""

JUMP_WINDOW = 1 << 20
"""How far past the host's knowledge of a device (the last event delivered, the counter of the
device's last believed IDENTIFY) a number may be and still be believed: about six months of a busy
shoe dealing with no host confirming anything, a hundred times the NV store a device SHOULD have."""


def believable(number: int, known: int, window: int = JUMP_WINDOW) -> bool:
    """Whether ``number`` (an event's, or a device counter) may be real for a device the host knows
    up to ``known``. (The counter of a device new to the host, nothing logged and no IDENTIFY yet,
    is taken as it is: the caller does not ask.)"""
    return number <= known + window


def past_reason(number: int, known: int, window: int = JUMP_WINDOW) -> str:
    """Why ``number`` is not believed, for a fault's detail: "N past K, ..." (no device name)."""
    return f"{number - known} past {known}, the most the host knows of it (more than {window}: a corrupted frame or counter?)"


def describe(event: ev.DeviceEvent) -> str:
    """An event as one short phrase naming its type, number and cards: ``CardDrawn #12 QH``. A fault
    names the events it refuses this way, so that a card it carried is in the log as a suspect."""
    name = f"{type(event).__name__} #{event.event_no}"
    cards: tuple[int | None, ...] = ()
    if isinstance(event, (ev.CardDrawn, ev.CardReturned)):
        cards = (event.card,)
    elif isinstance(event, ev.PacketDelivered):
        cards = event.cards
    if not cards:
        return name
    return f"{name} " + ",".join("misread" if c is None else _card(c) for c in cards)


def _card(c: int) -> str:
    return text(c) if 0 <= c < 52 else f"card {c}"
