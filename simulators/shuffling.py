"""Card orders for the simulated devices: uniform shuffles and Gilbert–Shannon–Reeds riffles
(an explicit order file is read by ``simulators.factory.read_order``).

``ShuffleQuality`` lets the surveillance team's shuffle-quality analytics be tested against a
machine known to be bad: a batch shuffler doing only a few GSR riffle passes over the previous
order (the gathered deck), or a continuous shuffler whose carousel puts returned cards back near
the exit (a "lagging carousel") so they come out again too soon.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from tablectl.cards import DECK_SIZE


@dataclass(frozen=True, slots=True)
class ShuffleQuality:
    """How well the simulated machine randomises.

    ``riffles`` None = a uniform shuffle; a number = that many GSR riffle passes over the gathered
    deck. ``csm_lag`` None = returned cards go to a uniformly random carousel slot; a number = to
    one of the first ``csm_lag`` slots (they come out again within ``csm_lag`` draws).
    """

    riffles: int | None = None
    csm_lag: int | None = None

    @classmethod
    def named(cls, name: str, *, riffles: int = 3, lag: int = 8) -> ShuffleQuality:
        """``good`` (uniform) or ``poor`` (``riffles`` GSR passes; a carousel lagging by ``lag``)."""
        if name == "good":
            return cls()
        if name == "poor":
            return cls(riffles=riffles, csm_lag=lag)
        raise ValueError(f"unknown shuffle quality {name!r} (good or poor)")

    @property
    def is_good(self) -> bool:
        return self.riffles is None and self.csm_lag is None


GOOD = ShuffleQuality()


def gsr_riffle(deck: Sequence[int], rng: random.Random) -> list[int]:
    """One Gilbert–Shannon–Reeds riffle: a Binomial(n, 1/2) cut, then cards drop from each packet
    with probability proportional to that packet's size."""
    n = len(deck)
    cut = sum(rng.getrandbits(1) for _ in range(n))
    left, right = list(deck[:cut]), list(deck[cut:])
    out: list[int] = []
    i = j = 0
    while i < len(left) or j < len(right):
        a, b = len(left) - i, len(right) - j
        if rng.randrange(a + b) < a:
            out.append(left[i])
            i += 1
        else:
            out.append(right[j])
            j += 1
    return out


def shuffled(deck: Sequence[int], rng: random.Random, quality: ShuffleQuality = GOOD) -> list[int]:
    """A new order of ``deck``: uniform, or ``quality.riffles`` GSR passes over its current order."""
    if quality.riffles is None:
        out = list(deck)
        rng.shuffle(out)
        return out
    out = list(deck)
    for _ in range(quality.riffles):
        out = gsr_riffle(out, rng)
    return out


def full_shoe(decks: int) -> list[int]:
    """``decks`` full decks in new-deck order."""
    return [c for _ in range(decks) for c in range(DECK_SIZE)]
