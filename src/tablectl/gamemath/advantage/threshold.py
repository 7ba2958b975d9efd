"""An advantage figure being counted, hand by hand, and its strategy summarised in words as play
thresholds: per group of what the player knows (the dealer's card shows a Q, two cards read
high...), the lowest hand he plays and the highest he folds, with "card removal" where the two
overlap. Pure bookkeeping over the counting's integer sums (``advantage_threecard``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from tablectl.cards import RANKS
from tablectl.gamemath.advantage.figure import AdvantageFigure, rank_runs
from tablectl.rules.hand3 import CATEGORY_NAMES, HIGH_CARD, PAIR, category3


def describe(value: int) -> str:
    """A hand value in words: ``Q-6-4``, ``pair of 5s``, ``flush``..."""
    category = category3(value)
    a, b, c = (value >> 8) & 15, (value >> 4) & 15, value & 15
    if category == HIGH_CARD:
        return f"{RANKS[a]}-{RANKS[b]}-{RANKS[c]}"
    if category == PAIR:
        return f"pair of {RANKS[a]}s"
    return CATEGORY_NAMES[category]


@dataclass
class ThresholdGroups:
    """Per group of what the player knows: the lowest hand he plays and the highest he folds."""

    names: list[str]
    prefix: str = ""
    lowest_played: list[int] = field(default_factory=list)
    highest_folded: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.lowest_played = [1 << 30] * len(self.names)
        self.highest_folded = [-1] * len(self.names)

    def note(self, value: int, groups: np.ndarray, played: np.ndarray) -> None:
        size = len(self.names)
        for g in np.flatnonzero(np.bincount(groups[played], minlength=size)):
            self.lowest_played[g] = min(self.lowest_played[g], value)
        for g in np.flatnonzero(np.bincount(groups[~played], minlength=size)):
            self.highest_folded[g] = max(self.highest_folded[g], value)

    def lines(self) -> list[str]:
        """One line per distinct rule, naming the groups it applies to (in their order)."""
        by_rule: dict[str, list[str]] = {}
        for name, low, high in zip(self.names, self.lowest_played, self.highest_folded):
            if low == 1 << 30 and high < 0:
                continue
            if low == 1 << 30:
                rule = "fold everything"
            elif high < 0:
                rule = "play every hand"
            elif high < low:
                rule = f"play {describe(low)} or better"
            else:
                rule = f"play {describe(low)} or better, but fold some hands up to {describe(high)} (card removal)"
            by_rule.setdefault(rule, []).append(name)
        return [f"{self.prefix}{_names(names)}: {rule}" for rule, names in by_rule.items()]


def _names(names: list[str]) -> str:
    """Group names joined; single ranks as ranges (``2-J``)."""
    if all(len(n) == 1 and n in RANKS for n in names):
        return rank_runs(names)
    return ", ".join(names)


@dataclass
class FigureTally:
    """A figure being counted: totals and the strategy by group."""

    kind: str
    information: str
    groups: ThresholdGroups
    net: int = 0
    cases: int = 0
    played: int = 0

    def add(self, value: int, weight: int, sums: np.ndarray, counts: np.ndarray, groups: np.ndarray) -> None:
        """One player hand (``weight`` hands of its class): per key of what the player knows, the
        Play net summed over the key's cases and their number; ``groups`` per key."""
        seen = counts > 0
        sums, counts, groups = sums[seen], counts[seen], groups[seen]
        played = sums > -counts
        self.net += weight * int(np.where(played, sums, -counts).sum())
        self.cases += weight * int(counts.sum())
        self.played += weight * int(counts[played].sum())
        self.groups.note(value, groups, played)

    def result(self, bet: str, extra: Sequence[str] = ()) -> AdvantageFigure:
        share = f"plays {self.played / self.cases:.2%} of the time"
        lines = (share, *extra, *self.groups.lines())
        return AdvantageFigure(bet, self.kind, self.information, self.cases, Fraction(self.net), self.played, lines)
