"""A simulated device's non-volatile memory: the event counter and the unpersisted-event store.

Both survive a simulated restart (they belong to the device, not to a session). Every event the
device reports takes the next number from the counter (starting at 1) and stays in the store until
the host says it is durably logged (``persisted(n)`` drops every event numbered ``n`` or less).
``replay_from(n)`` lists, in order, every stored event numbered ``n`` or more.

The store is sized generously (100,000 events by default). Should it ever fill, the oldest event is
dropped and ``overflowed`` counts it: a real device would lose events the same way.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import TypeVar

from tablectl.drivers.events import DeviceEvent

E = TypeVar("E", bound=DeviceEvent)

DEFAULT_CAPACITY = 100_000


class NvStore:
    """Event counter plus unpersisted events. Pure; not thread-safe (the device holds the lock)."""

    __slots__ = ("capacity", "next_no", "_events", "overflowed")

    def __init__(self, capacity: int = DEFAULT_CAPACITY, *, first_no: int = 1) -> None:
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.capacity = capacity
        self.next_no = first_no
        self._events: deque[DeviceEvent] = deque()
        self.overflowed = 0

    @property
    def last_no(self) -> int:
        """The highest event number issued so far (0 before the first)."""
        return self.next_no - 1

    def issue(self, make: Callable[[int], E]) -> E:
        """Number a new event (``make`` gets its event_no) and keep it until persisted."""
        event = make(self.next_no)
        self.next_no += 1
        if len(self._events) >= self.capacity:
            self._events.popleft()
            self.overflowed += 1
        self._events.append(event)
        return event

    def persisted(self, event_no: int) -> int:
        """The host logged everything up to ``event_no``: forget those. Returns how many went."""
        events = self._events
        dropped = 0
        while events and events[0].event_no <= event_no:
            events.popleft()
            dropped += 1
        return dropped

    def replay_from(self, event_no: int) -> list[DeviceEvent]:
        """Every stored event numbered ``event_no`` or later, oldest first."""
        return [e for e in self._events if e.event_no >= event_no]

    def __len__(self) -> int:
        return len(self._events)

    @property
    def unpersisted(self) -> list[DeviceEvent]:
        """A copy of everything still held, oldest first."""
        return list(self._events)
