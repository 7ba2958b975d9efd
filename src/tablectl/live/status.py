"""The publisher's state in a few words, for the dealer's and the pit's screens (pure).

``publishing: up to date`` · ``publishing: 1,204 lines behind`` ·
``publishing: 1,204 lines behind, broker unreachable 3 min``
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PublisherStatus:
    """What a publisher knows: the last seq the stream acknowledged, the log's last seq, whether
    the broker answers, and since when (``time.time()``) it has not."""

    table: str
    published_seq: int = 0
    log_seq: int = 0
    connected: bool = False
    unreachable_since: float | None = None
    error: str | None = None

    @property
    def behind(self) -> int:
        """Lines written and not yet acknowledged by the stream."""
        return max(0, self.log_seq - self.published_seq)

    @property
    def ok(self) -> bool:
        return self.connected and self.behind == 0

    def to_dict(self, now: float) -> dict[str, Any]:
        """Plain values (``tablectl.<table>.status``)."""
        return {"table": self.table, "published_seq": self.published_seq, "log_seq": self.log_seq,
                "behind": self.behind, "connected": self.connected,
                "unreachable_s": None if self.unreachable_since is None else round(now - self.unreachable_since, 1)}


def duration_text(seconds: float) -> str:
    """``12 s``, ``3 min``, ``2 h 05 min``."""
    seconds = max(0, int(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


def status_text(status: PublisherStatus, now: float) -> str:
    """The publisher's state in one short line (see the module docstring)."""
    parts = []
    if status.behind:
        parts.append(f"{status.behind:,} line{'s' if status.behind != 1 else ''} behind")
    else:
        parts.append("up to date" if status.connected else "nothing to send")
    if status.connected and status.error:
        parts.append(status.error)
    if not status.connected:
        since = status.unreachable_since
        parts.append("broker unreachable" + ("" if since is None else f" {duration_text(now - since)}"))
    return "publishing: " + ", ".join(parts)


__all__ = ["PublisherStatus", "duration_text", "status_text"]
