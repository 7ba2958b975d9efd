"""The common part of every simulated device model: event numbering, faults, status.

A model is pure (no I/O, no clock, no threads): its methods are the physical things that happen
to a device (a card drawn, a button pressed, a command served) and each returns the numbered
events it issued. The numbers come from the model's ``NvStore``, which outlives a restart.

Device faults (``faults.DEVICE_FAULTS``) are rolled at every *card opportunity* (each card about
to be drawn, dispensed, returned or delivered; each batch shuffle for the deck-check faults):

- ``jam``: ``Fault(JAM)`` instead of the card; card actions are refused until ``clear_fault()``
  or a RESET command (``Fault(JAM, cleared=True)``).
- ``door``: ``Fault(DOOR_OPEN)``; refused until ``clear_fault()`` (the door is shut).
- ``misread``: the card is reported as ``None``.
- ``foreign`` / ``extra`` / ``missing``: see each model (a card beyond the composition, a card
  gone).
- ``restart``: the device restarts after this action (``restart_requested``; the ``SimDevice``
  drops the link and RAM and the model reports ``Fault(POWER_UP)``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar

from tablectl.drivers import messages as msg
from tablectl.drivers.events import (
    ButtonPressed,
    DeviceEvent,
    DeviceKind,
    DeviceState,
    Fault,
    FaultKind,
    Status,
)
from tablectl.simulators.faults import DEVICE_FAULTS, FaultPlan
from tablectl.simulators.nvstore import NvStore
from tablectl.simulators.shuffling import GOOD, ShuffleQuality

#: Faults that stop card handling until cleared.
BLOCKING = (FaultKind.JAM, FaultKind.DOOR_OPEN)


class DeviceRefused(Exception):
    """A request the device cannot serve now (``code`` is a ``messages.ERR_*`` value)."""

    def __init__(self, code: int, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


def not_supported(what: str, kind: DeviceKind) -> DeviceRefused:
    return DeviceRefused(msg.ERR_NOT_SUPPORTED, f"{what}: not supported by a {kind.name.lower()}")


def _cleared(kind: FaultKind) -> Callable[[int], DeviceEvent]:
    return lambda n: Fault(n, kind, True, "cleared")


_FACES_KEPT = 1024


class DeviceModel:
    """Base of the three device models. Subclasses set ``kind`` and ``capabilities``."""

    kind: ClassVar[DeviceKind]
    capabilities: ClassVar[frozenset[str]] = frozenset()
    default_decks: ClassVar[int] = 1

    def __init__(
        self,
        *,
        decks: int | None = None,
        seed: int | str | None = 0,
        order: Sequence[int] | None = None,
        faults: FaultPlan | None = None,
        store: NvStore | None = None,
        quality: ShuffleQuality = GOOD,
    ) -> None:
        self.decks = self.default_decks if decks is None else decks
        if self.decks < 1:
            raise ValueError(f"decks must be at least 1, got {self.decks}")
        self.seed = seed
        self.rng = random.Random(seed)
        self.order = list(order) if order is not None else None
        self.faults = faults if faults is not None else FaultPlan(seed=seed)
        self.store = store if store is not None else NvStore()
        self.quality = quality
        self.active_faults: set[FaultKind] = set()
        self.restart_requested = False
        self.shoe_id = 0
        self._batch: list[DeviceEvent] = []
        self._faces: dict[int, tuple[int, ...]] = {}  # event_no -> the faces its reader missed

    # --- to be provided by each model ----------------------------------------------------------

    @property
    def cards_in_device(self) -> int:
        raise NotImplementedError

    @property
    def done(self) -> bool:
        """Nothing more to deal until a load or a shuffle (the autodealer stops here)."""
        return self.cards_in_device == 0

    def draw(self) -> list[DeviceEvent]:
        raise not_supported("draw", self.kind)

    def return_cards(self, cards: Iterable[int]) -> list[DeviceEvent]:
        raise not_supported("return cards", self.kind)

    def load(self) -> list[DeviceEvent]:
        raise not_supported("load", self.kind)

    def start_shuffle(self) -> list[DeviceEvent]:
        raise not_supported("SHUFFLE", self.kind)

    def deliver_packet(self, count: int) -> list[DeviceEvent]:
        raise not_supported("DELIVER_PACKET", self.kind)

    def discard_rest(self) -> list[DeviceEvent]:
        raise not_supported("DISCARD_REST", self.kind)

    # --- common actions -----------------------------------------------------------------------

    def press_button(self, button: int = 0) -> list[DeviceEvent]:
        """The device's button (a shoe's dealer button, a shuffler's deliver button)."""
        return self._run(lambda: self._issue(lambda n: ButtonPressed(n, button)))

    def clear_fault(self) -> list[DeviceEvent]:
        """An attendant cleared every active fault (jam removed, door shut)."""
        return self._run(self._clear_faults)

    def reset(self) -> list[DeviceEvent]:
        """The RESET command: clears a jam (not an open door: that needs a hand)."""
        def act() -> None:
            if FaultKind.JAM in self.active_faults:
                self.active_faults.discard(FaultKind.JAM)
                self._issue(lambda n: Fault(n, FaultKind.JAM, True, "reset"))
        return self._run(act)

    def raise_fault(self, kind: FaultKind, detail: str = "") -> list[DeviceEvent]:
        """Raise ``kind`` now (a jam, an open door)."""
        return self._run(lambda: self._raise(kind, detail))

    def power_up(self) -> list[DeviceEvent]:
        """Boot after a restart: RAM state gone (a jam is cleared by the power cycle), then
        ``Fault(POWER_UP)``. The NV store and the cards physically inside stay."""
        def act() -> None:
            self.restart_requested = False
            self.active_faults.discard(FaultKind.JAM)
            self._issue(lambda n: Fault(n, FaultKind.POWER_UP, False, "restart"))
        return self._run(act, always=True)

    @property
    def state(self) -> DeviceState:
        if self.active_faults:
            return DeviceState.FAULT
        if self.cards_in_device == 0:
            return DeviceState.EMPTY
        return DeviceState.READY

    def status(self) -> Status:
        return Status(
            self.state,
            min(self.cards_in_device, 0xFFFF),
            FaultKind.DOOR_OPEN in self.active_faults,
            frozenset(self.active_faults),
        )

    # --- helpers for the models ------------------------------------------------------------

    def _run(self, act: Callable[[], Any], *, always: bool = False) -> list[DeviceEvent]:
        """Do ``act`` and return the events it issued. Refused while the event store is full
        (unless ``always``: a power-up is not something a device can refuse)."""
        if self.store.full and not always:
            raise DeviceRefused(
                msg.ERR_NOT_NOW, f"event store full: {len(self.store)} events not yet persisted by the host"
            )
        self._batch = []
        act()
        out, self._batch = self._batch, []
        return out

    def _issue(self, make: Callable[[int], DeviceEvent]) -> DeviceEvent:
        event = self.store.issue(make)
        self._batch.append(event)
        return event

    def _unread(self, event: DeviceEvent, *faces: int) -> None:
        """``event`` reported ``faces`` as misreads: kept (the latest ``_FACES_KEPT``) for
        :meth:`faces`."""
        if len(self._faces) >= _FACES_KEPT:
            del self._faces[next(iter(self._faces))]
        self._faces[event.event_no] = faces

    def faces(self, event_no: int) -> tuple[int, ...]:
        """The faces of the cards event ``event_no`` reported as misreads, in order (what a dealer
        reads turning them over); () if it reported none."""
        return self._faces.get(event_no, ())

    def _raise(self, kind: FaultKind, detail: str = "") -> None:
        if kind not in self.active_faults:
            self.active_faults.add(kind)
            self._issue(lambda n: Fault(n, kind, False, detail))

    def _clear_faults(self) -> None:
        for kind in sorted(self.active_faults):
            self._issue(_cleared(kind))
        self.active_faults.clear()

    def _check_ready(self, what: str) -> None:
        blocking = [k for k in BLOCKING if k in self.active_faults]
        if blocking:
            names = ", ".join(k.name.lower() for k in blocking)
            raise DeviceRefused(msg.ERR_NOT_NOW, f"{what}: device fault active ({names})")

    def _opportunity(self, kinds: Iterable[str] = DEVICE_FAULTS) -> set[str]:
        """Roll the device faults for one card about to move. Raises jam/door itself; returns
        the set that fired (the caller applies misread/foreign/missing/extra and must stop if
        ``self.blocked``)."""
        fired = self.faults.roll(self.store.next_no, kinds)
        if "restart" in fired:
            self.restart_requested = True
        if "jam" in fired:
            self._raise(FaultKind.JAM, "card jam")
        if "door" in fired:
            self._raise(FaultKind.DOOR_OPEN, "door opened")
        return fired

    @property
    def blocked(self) -> bool:
        return any(k in self.active_faults for k in BLOCKING)

    def _most_out(self, out_counts: Sequence[int]) -> int:
        """The card with the most copies out (for a foreign card that is a copy beyond the
        composition as soon as possible); ties broken by the fault RNG."""
        top = max(out_counts) if out_counts else 0
        candidates = [c for c, n in enumerate(out_counts) if n == top]
        return candidates[self.faults.uniform(len(candidates))]
