"""Typed device events (device -> controller) and commands (controller -> device).

These are the only things that cross from the device layer into the controller. Every event a
device reports carries ``event_no``: the device's own event counter, kept in non-volatile memory
so it survives restarts; the controller persists the highest number it has logged and asks for a
replay from there after any reconnect. Cards are ints (``tablectl.cards``); ``None`` is a misread.

Undealt card order never appears here: a deck check reports composition counts only.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class DeviceKind(enum.IntEnum):
    """The device families the protocol knows."""

    SHOE = 1  # card-reading dealing shoe
    CSM = 2  # continuous shuffling machine with card recognition out and in
    SHUFFLER = 3  # hand-forming batch shuffler with deck check


class FaultKind(enum.IntEnum):
    JAM = 1
    DOOR_OPEN = 2
    MISREAD = 3
    SENSOR = 4
    POWER_UP = 5
    DISCONNECTED = 6  # raised by the driver, not the device: the link is down
    EVENTS_LOST = 7  # raised by the driver: numbers the device could not replay (detail says which)
    BAD_EVENT = 8  # raised by the driver: an event numbered beyond the device's own counter, dropped


class DeviceState(enum.IntEnum):
    READY = 0
    BUSY = 1  # shuffling / dispensing
    EMPTY = 2
    FAULT = 3


@dataclass(frozen=True, slots=True)
class DeviceEvent:
    """Base of everything a device reports."""

    event_no: int


@dataclass(frozen=True, slots=True)
class Identify:
    """The device's identity, sent on connect and on request. Not numbered: not a card event."""

    kind: DeviceKind
    model: str
    serial: str
    firmware: str
    protocol_version: int
    capabilities: frozenset[str] = frozenset()
    last_event_no: int = 0  # the highest event number the device has issued


@dataclass(frozen=True, slots=True)
class CardDrawn(DeviceEvent):
    """A card left the device (drawn from a shoe, dispensed by a CSM). ``card`` None = misread."""

    card: int | None


@dataclass(frozen=True, slots=True)
class CardReturned(DeviceEvent):
    """A card went into a continuous shuffler's in-feed. ``card`` None = misread."""

    card: int | None


@dataclass(frozen=True, slots=True)
class CutCardReached(DeviceEvent):
    """The shoe's cut card came out."""


@dataclass(frozen=True, slots=True)
class ShoeLoaded(DeviceEvent):
    """A freshly shuffled shoe was loaded. ``shoe_id`` is the device's id for this shoe."""

    shoe_id: int
    decks: int
    cards: int


@dataclass(frozen=True, slots=True)
class ShoeEmpty(DeviceEvent):
    """The shoe has no cards left."""


@dataclass(frozen=True, slots=True)
class ShuffleStarted(DeviceEvent):
    shoe_id: int


@dataclass(frozen=True, slots=True)
class ShuffleDone(DeviceEvent):
    """A shuffle finished, with its deck check as composition counts (never the order).

    ``missing`` and ``extra`` map card -> count against ``decks`` full decks; ``foreign`` counts
    cards the reader could not place in the deck design at all.
    """

    shoe_id: int
    decks: int
    cards: int
    missing: dict[int, int] = field(default_factory=dict)
    extra: dict[int, int] = field(default_factory=dict)
    foreign: int = 0

    @property
    def deck_ok(self) -> bool:
        return not self.missing and not self.extra and not self.foreign


@dataclass(frozen=True, slots=True)
class PacketDelivered(DeviceEvent):
    """A hand-forming shuffler delivered ``cards`` for one position (the packet's index)."""

    packet: int
    cards: tuple[int | None, ...]


@dataclass(frozen=True, slots=True)
class CardsDiscarded(DeviceEvent):
    """A batch shuffler discarded the rest of its deck (count only: the cards stay unseen)."""

    count: int


@dataclass(frozen=True, slots=True)
class ButtonPressed(DeviceEvent):
    """The device's button (a shoe's dealer button, a shuffler's deliver button)."""

    button: int = 0


@dataclass(frozen=True, slots=True)
class Fault(DeviceEvent):
    """A device fault raised (``cleared`` False) or cleared (``cleared`` True)."""

    kind: FaultKind
    cleared: bool = False
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Status:
    """A status report (answer to RequestStatus; not numbered)."""

    state: DeviceState
    cards_in_device: int
    door_open: bool = False
    faults: frozenset[FaultKind] = frozenset()


CARD_EVENTS = (CardDrawn, CardReturned, PacketDelivered)


# --- commands: controller -> device -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Command:
    """Base of everything the controller asks of a device."""


@dataclass(frozen=True, slots=True)
class RequestIdentify(Command):
    pass


@dataclass(frozen=True, slots=True)
class RequestStatus(Command):
    pass


@dataclass(frozen=True, slots=True)
class StartShuffle(Command):
    """Shuffle (a CSM: reshuffle its content; a batch shuffler: the next batch)."""


@dataclass(frozen=True, slots=True)
class DeliverPacket(Command):
    """A hand-forming shuffler: deliver the next packet of ``count`` cards."""

    count: int


@dataclass(frozen=True, slots=True)
class DiscardRest(Command):
    """A hand-forming shuffler: discard what remains of the batch."""


@dataclass(frozen=True, slots=True)
class Reset(Command):
    pass


@dataclass(frozen=True, slots=True)
class Persisted(Command):
    """Everything up to and including ``event_no`` is durably logged: the device may forget it."""

    event_no: int


@dataclass(frozen=True, slots=True)
class ReplayFrom(Command):
    """Send again every event numbered ``event_no`` and later that the device still holds."""

    event_no: int
