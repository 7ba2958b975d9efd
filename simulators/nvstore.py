"""A simulated device's non-volatile memory: the event counter and the unpersisted-event store.

Both survive a simulated restart (they belong to the device, not to a session). Every event the
device reports takes the next number from the counter (starting at 1) and stays in the store until
the host says it is durably logged (``persisted(n)`` drops every event numbered ``n`` or less).
``replay_from(n)`` lists, in order, every stored event numbered ``n`` or more; ``get(n)`` is one.

The store is finite, as a real device's is (``capacity`` events, 100,000 by default): it never
drops an event. When it is ``full`` the device refuses whatever would issue a new one (the models
check ``full`` before every action; ``DeviceModel``) until the host persists some, so a host that
never acknowledges stops the device instead of growing its memory. The events of the one action
that fills it may overshoot ``capacity`` by the few that action issues.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from tablectl.drivers.events import DeviceEvent

E = TypeVar("E", bound=DeviceEvent)

DEFAULT_CAPACITY = 100_000


class NvStore:
    """Event counter plus unpersisted events. Pure; not thread-safe (the device holds the lock)."""

    __slots__ = ("capacity", "next_no", "_events", "_first")

    def __init__(self, capacity: int = DEFAULT_CAPACITY, *, first_no: int = 1) -> None:
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.capacity = capacity
        self.next_no = first_no
        self._events: dict[int, DeviceEvent] = {}  # event_no -> event, numbers _first..next_no-1
        self._first = first_no

    @property
    def last_no(self) -> int:
        """The highest event number issued so far (0 before the first)."""
        return self.next_no - 1

    @property
    def first_no(self) -> int:
        """The lowest event number still stored (``next_no`` when the store is empty)."""
        return self._first

    @property
    def full(self) -> bool:
        """No room for another event until the host persists some."""
        return len(self._events) >= self.capacity

    def issue(self, make: Callable[[int], E]) -> E:
        """Number a new event (``make`` gets its event_no) and keep it until persisted."""
        event = make(self.next_no)
        self._events[self.next_no] = event
        self.next_no += 1
        return event

    def persisted(self, event_no: int) -> int:
        """The host logged everything up to ``event_no``: forget those. Returns how many went."""
        upto = min(event_no, self.last_no)
        dropped = 0
        for n in range(self._first, upto + 1):
            del self._events[n]
            dropped += 1
        self._first = max(self._first, upto + 1)
        return dropped

    def get(self, event_no: int) -> DeviceEvent | None:
        """The stored event numbered ``event_no`` (None if persisted or not issued yet)."""
        return self._events.get(event_no)

    def replay_from(self, event_no: int) -> list[DeviceEvent]:
        """Every stored event numbered ``event_no`` or later, oldest first."""
        return [self._events[n] for n in range(max(event_no, self._first), self.next_no)]

    def __len__(self) -> int:
        return len(self._events)

    @property
    def unpersisted(self) -> list[DeviceEvent]:
        """A copy of everything still held, oldest first."""
        return list(self._events.values())
