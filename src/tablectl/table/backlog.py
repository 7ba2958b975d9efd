"""A used device's backlog: the events it still held, when this table first heard from it, from
before this table's session with it.

A device keeps every event until a host confirms it (PERSISTED), so a shoe moved from another
table, or dealt from with no host, may come with thousands of events that no log holds. They are
not this table's play: judged, 5,000 of them were 5,005 violations and a held table. They are
logged as the device reports them (nothing it holds is dropped) and taken for what they say of
the device (the shoe in it, the cards out of it), but never judged; one ``device_backlog`` line
says which they are. The driver says where the backlog ends (``DeviceDriver.held_to``: the
device's counter at the handshake); a restart in the middle of it goes on from that line
(``tablectl.table.restart.resume``).

Pure state, no I/O: ``TableCore`` asks ``holds`` of each numbered event and logs ``line``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Backlog:
    """The backlogs still being taken: device -> the number of the last event in its backlog."""

    last: dict[str, int] = field(default_factory=dict)

    def begin(self, device: str, last: int) -> None:
        """``device``'s events up to ``last`` are its backlog."""
        self.last[device] = last

    def holds(self, device: str, number: int) -> bool:
        """Whether ``device``'s event ``number`` is in its backlog; the backlog ends with its last
        event (or the first event past it)."""
        last = self.last.get(device)
        if last is None:
            return False
        if number >= last:
            del self.last[device]
        return number <= last


def line(device: str, first: int, last: int) -> dict[str, Any]:
    """The fields of the one ``device_backlog`` line: ``device``, ``first``, ``last``, ``events``
    and what it means in words."""
    events = last - first + 1
    return {
        "device": device, "first": first, "last": last, "events": events,
        "detail": f"{events} event(s) #{first}..#{last} held by {device} from before this table's session: "
                  "logged as the device reports them and taken for its state (its shoe, its cards out), "
                  "not judged (they belong to no round of this table)",
    }


__all__ = ["Backlog", "line"]
