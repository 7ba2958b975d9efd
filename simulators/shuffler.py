"""A hand-forming batch shuffler with a deck check.

The machine holds ``decks`` deck(s) (default 1). ``start_shuffle()`` (the SHUFFLE command, or the
``shuffle`` control action) gathers every card it holds — the packets delivered and the rest,
in the order they left — shuffles them and reports ``ShuffleStarted`` then ``ShuffleDone`` with
the deck check: missing and extra counts against ``decks`` full decks, and how many cards it
could not place in the deck design at all (``foreign``). Never the order.
``deliver_packet(n)`` gives the next ``n`` cards (``PacketDelivered``, packet index from 0 each
shuffle); ``discard_rest()`` drops what is left (``CardsDiscarded``, a count only).
``load()`` replaces the content by a fresh deck (curing any missing or foreign card).

Shuffle quality: a good machine shuffles uniformly; a poor one (``ShuffleQuality.riffles``) does
that many Gilbert–Shannon–Reeds riffles over the gathered order.

Faults at a shuffle (each stays in the machine until ``load()``): ``missing`` loses a card,
``extra`` adds a second copy of a card (``extra`` in the check), ``foreign`` adds a card of a
foreign deck design (``foreign`` in the check; its face is still read when delivered). Faults at
each card delivered: ``misread`` (the card reported ``None``), ``jam`` and ``door`` (the packet
stops before that card; what came out before it is still reported), ``restart``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from tablectl.drivers import messages as msg
from tablectl.drivers.events import (
    CardsDiscarded,
    DeviceEvent,
    DeviceKind,
    FaultKind,
    PacketDelivered,
    ShuffleDone,
    ShuffleStarted,
)
from tablectl.simulators.deckcheck import deck_check
from tablectl.simulators.model import DeviceModel, DeviceRefused
from tablectl.simulators.shuffling import full_shoe, shuffled

FOREIGN = 0x100  # marks a card of a foreign deck design inside the machine (face = low byte)
_DECK_FAULTS = ("missing", "extra", "foreign")
_CARD_FAULTS = ("jam", "door", "misread", "restart")


class ShufflerModel(DeviceModel):
    """A batch shuffler holding ``decks`` deck(s) (default 1)."""

    kind: ClassVar[DeviceKind] = DeviceKind.SHUFFLER
    capabilities: ClassVar[frozenset[str]] = frozenset(
        {"shuffle", "deck-check", "packets", "discard", "button", "replay"}
    )
    default_decks: ClassVar[int] = 1

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._deck: list[int] = full_shoe(self.decks)  # everything inside, in its current order
        self._pos = 0  # cards of the current shuffle already out (delivered or discarded)
        self._shuffled = False
        self.packet_index = 0

    @property
    def cards_in_device(self) -> int:
        return len(self._deck) - self._pos if self._shuffled else len(self._deck)

    @property
    def done(self) -> bool:
        return self._shuffled and self._pos >= len(self._deck)

    @property
    def shuffled_ready(self) -> bool:
        """A shuffle is done and cards remain to deliver."""
        return self._shuffled and self._pos < len(self._deck)

    def load(self) -> list[DeviceEvent]:
        """A fresh deck in, unshuffled (no event: the next shuffle reports the check)."""
        self._check_ready("load")
        def act() -> None:
            self._deck = full_shoe(self.decks)
            self._pos = 0
            self._shuffled = False
        return self._run(act)

    def start_shuffle(self) -> list[DeviceEvent]:
        """Gather, shuffle, check."""
        self._check_ready("SHUFFLE")
        return self._run(self._shuffle)

    def _shuffle(self) -> None:
        fired = self.faults.roll(self.store.next_no, _DECK_FAULTS)
        deck = self._deck  # gathered in the order the cards left
        if "missing" in fired and deck:
            deck.pop(self.faults.uniform(len(deck)))
        if "extra" in fired:
            deck.append(deck[self.faults.uniform(len(deck))] & 0xFF if deck else 0)
        if "foreign" in fired:
            deck.append(FOREIGN | self.faults.uniform(52))
        self.shoe_id += 1
        self._issue(lambda n: ShuffleStarted(n, self.shoe_id))
        if self.order is not None:
            self._deck = list(self.order)
        else:
            self._deck = shuffled(deck, self.rng, self.quality)
        self._pos = 0
        self._shuffled = True
        self.packet_index = 0
        faces = [c for c in self._deck if not c & FOREIGN]
        foreign = len(self._deck) - len(faces)
        missing, extra = deck_check(faces, self.decks)
        self._issue(
            lambda n: ShuffleDone(n, self.shoe_id, self.decks, len(self._deck), missing, extra, foreign)
        )

    def deliver_packet(self, count: int) -> list[DeviceEvent]:
        """The next ``count`` cards (fewer if fewer remain) as one packet."""
        self._check_ready("DELIVER_PACKET")
        if count < 1 or count > 255:
            raise DeviceRefused(msg.ERR_BAD_PAYLOAD, f"DELIVER_PACKET: count {count} is not 1..255")
        if not self._shuffled:
            raise DeviceRefused(msg.ERR_NOT_NOW, "DELIVER_PACKET: no shuffle done yet")
        if self._pos >= len(self._deck):
            raise DeviceRefused(msg.ERR_NOT_NOW, "DELIVER_PACKET: the deck is used up; shuffle")
        def act() -> None:
            out: list[int | None] = []
            unread: list[int] = []
            stop: set[str] = set()
            for _ in range(min(count, len(self._deck) - self._pos)):
                fired = self.faults.roll(self.store.next_no, _CARD_FAULTS)
                if "restart" in fired:
                    self.restart_requested = True
                stop = fired & {"jam", "door"}
                if stop:
                    break
                card = self._deck[self._pos] & 0xFF
                self._pos += 1
                out.append(None if "misread" in fired else card)
                if "misread" in fired:
                    unread.append(card)
            if out:
                index = self.packet_index
                self.packet_index += 1
                packet = self._issue(lambda n: PacketDelivered(n, index, tuple(out)))
                if unread:
                    self._unread(packet, *unread)
            if "jam" in stop:
                self._raise(FaultKind.JAM, "card jam")
            if "door" in stop:
                self._raise(FaultKind.DOOR_OPEN, "door opened")
        return self._run(act)

    def discard_rest(self) -> list[DeviceEvent]:
        """Drop the cards not delivered (count only)."""
        self._check_ready("DISCARD_REST")
        if not self._shuffled:
            raise DeviceRefused(msg.ERR_NOT_NOW, "DISCARD_REST: no shuffle done yet")
        def act() -> None:
            count = len(self._deck) - self._pos
            self._pos = len(self._deck)
            self._issue(lambda n: CardsDiscarded(n, count))
        return self._run(act)
