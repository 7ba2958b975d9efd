"""What holds or stops the table (state only): the open violations a supervisor must resolve,
the misread cards waiting to be identified and the devices' active faults — and how each shows
on the display (``AlarmView``, with what to do about it)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from tablectl.drivers import events as ev
from tablectl.table.procedure import validation as va
from tablectl.table.view import AlarmView

#: Open violations kept (shown, listed when resolved); more are logged and only counted.
MAX_OPEN_VIOLATIONS = 256


@dataclass(slots=True)
class Misread:
    """A card the device could not read: where it went and what identifies it in the log."""

    where: str  # "cursor" (dealt in the round), "returned", or elsewhere (burn, discard)
    to: str
    device: str
    event_no: int
    face: str


@dataclass
class Alarms:
    """Open violations (the first ``MAX_OPEN_VIOLATIONS`` kept, the rest counted by kind),
    misreads to identify, and active faults by (device, kind)."""

    violations: list[va.Violation] = field(default_factory=list)
    unlisted: Counter[str] = field(default_factory=Counter)  # kind -> open violations in the log only
    misreads: list[Misread] = field(default_factory=list)
    faults: dict[tuple[str, int], str] = field(default_factory=dict)

    def violation(self, v: va.Violation) -> bool:
        """Keep ``v`` open; False when too many are open already (only counted then)."""
        if len(self.violations) < MAX_OPEN_VIOLATIONS:
            self.violations.append(v)
            return True
        self.unlisted[v.kind] += 1
        return False

    def resolved(self) -> tuple[list[str], dict[str, int]]:
        """A supervisor resolved every open violation: their kinds, and the counted ones."""
        kinds, unlisted = [v.kind for v in self.violations], dict(self.unlisted)
        self.violations = []
        self.unlisted.clear()
        return kinds, unlisted

    def views(self) -> tuple[AlarmView, ...]:
        """The alarms as the display shows them: violations first, then faults."""
        out = [AlarmView(v.kind, v.round, v.detail, va.WHAT_TO_DO.get(v.kind, "Supervisor: resolve.")) for v in self.violations]
        if self.unlisted:
            more = sum(self.unlisted.values())
            out.append(AlarmView(
                "more_violations", None, f"{more} more open violations (in the event log)",
                "Supervisor: review the log, then resolve.",
            ))
        out += [
            AlarmView(ev.FaultKind(kind).name.lower(), None, f"{device}: {detail}", "Clear the device fault (attendant).", violation=False)
            for (device, kind), detail in self.faults.items()
        ]
        return tuple(out)


__all__ = ["MAX_OPEN_VIOLATIONS", "Alarms", "Misread"]
