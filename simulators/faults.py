"""Fault plans: which fault fires when, at a rate or at a given number, deterministic from a seed.

A ``FaultPlan`` is asked at each *opportunity* (a card event for device faults, a frame for line
faults) which of its kinds fire. A kind fires

- at a rate: with probability ``rate`` (0..1) at every opportunity, drawn from the plan's own
  ``random.Random`` (seeded; so the card order of a model never depends on its fault settings);
- at a number: once, at the first opportunity whose number is at least the given one (the number
  is the event number about to be issued for device faults, the frame count for line faults);
- when armed: once, at the next opportunity (``arm(kind)``; the control channel's ``fault``).

Specs as the CLI and the control channel write them: ``jam=0.01`` (a rate), ``jam@12`` (at a
number), ``jam`` alone (armed). ``parse_fault_spec`` reads them.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

#: Faults inside the device model, rolled once per card event.
DEVICE_FAULTS: tuple[str, ...] = ("jam", "door", "misread", "foreign", "extra", "missing", "restart")
#: Faults on the byte stream, rolled once per frame written (and, except disconnect, read).
LINE_FAULTS: tuple[str, ...] = ("noise", "crc", "drop", "dup", "reorder", "disconnect")
ALL_FAULTS: tuple[str, ...] = DEVICE_FAULTS + LINE_FAULTS


class FaultSpecError(ValueError):
    """A fault spec that cannot be read (unknown kind, rate outside 0..1, bad number)."""


@dataclass(frozen=True, slots=True)
class FaultSpec:
    """One parsed ``KIND=RATE`` / ``KIND@N`` / ``KIND``."""

    kind: str
    rate: float | None = None
    at: int | None = None


def parse_fault_spec(text: str, kinds: Iterable[str] = ALL_FAULTS) -> FaultSpec:
    """Read ``jam=0.01``, ``drop@40`` or ``restart``; ``FaultSpecError`` names what is wrong."""
    known = tuple(kinds)
    text = text.strip()
    if "=" in text:
        kind, _, value = text.partition("=")
        try:
            rate = float(value)
        except ValueError:
            raise FaultSpecError(f"fault {text!r}: rate {value!r} is not a number") from None
        if not 0.0 <= rate <= 1.0:
            raise FaultSpecError(f"fault {text!r}: rate must be between 0 and 1")
        spec = FaultSpec(kind.strip().lower(), rate=rate)
    elif "@" in text:
        kind, _, value = text.partition("@")
        try:
            at = int(value)
        except ValueError:
            raise FaultSpecError(f"fault {text!r}: {value!r} is not a whole number") from None
        if at < 0:
            raise FaultSpecError(f"fault {text!r}: the number must not be negative")
        spec = FaultSpec(kind.strip().lower(), at=at)
    else:
        spec = FaultSpec(text.lower())
    if spec.kind not in known:
        raise FaultSpecError(f"unknown fault kind {spec.kind!r} (known: {', '.join(known)})")
    return spec


@dataclass
class FaultPlan:
    """Rates, one-shot numbers and armed faults for a set of kinds, with its own seeded RNG."""

    rates: dict[str, float] = field(default_factory=dict)
    at: dict[str, set[int]] = field(default_factory=dict)
    seed: int | str | None = 0
    armed: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.rng = random.Random(f"faults:{self.seed}")
        self.fired: Counter[str] = Counter()  # how often each kind has fired
        for kind, rate in self.rates.items():
            if not 0.0 <= rate <= 1.0:
                raise FaultSpecError(f"fault {kind}: rate {rate} is outside 0..1")

    @classmethod
    def from_specs(cls, specs: Iterable[FaultSpec | str], kinds: Iterable[str], seed: int | str | None = 0) -> FaultPlan:
        """A plan holding only the specs whose kind is one of ``kinds``."""
        wanted = set(kinds)
        plan = cls(seed=seed)
        for s in specs:
            spec = parse_fault_spec(s) if isinstance(s, str) else s
            if spec.kind not in wanted:
                continue
            plan.add(spec)
        return plan

    def add(self, spec: FaultSpec) -> None:
        if spec.rate is not None:
            self.rates[spec.kind] = spec.rate
        elif spec.at is not None:
            self.at.setdefault(spec.kind, set()).add(spec.at)
        else:
            self.armed.add(spec.kind)

    def arm(self, kind: str) -> None:
        """Fire ``kind`` once at the next opportunity."""
        self.armed.add(kind)

    def roll(self, number: int, kinds: Iterable[str]) -> set[str]:
        """The kinds (of ``kinds``) that fire at this opportunity. Rolls every rated kind, in order."""
        fired: set[str] = set()
        for kind in kinds:
            rate = self.rates.get(kind, 0.0)
            hit = rate > 0.0 and self.rng.random() < rate
            due = self.at.get(kind)
            if due:
                passed = {n for n in due if n <= number}
                if passed:
                    due -= passed
                    hit = True
            if kind in self.armed:
                self.armed.discard(kind)
                hit = True
            if hit:
                fired.add(kind)
        self.fired.update(fired)
        return fired

    def uniform(self, n: int) -> int:
        """A fault's own random choice (which card, which byte), from the plan's RNG."""
        return self.rng.randrange(n)

    @property
    def active(self) -> bool:
        return bool(any(r > 0 for r in self.rates.values()) or any(self.at.values()) or self.armed)
