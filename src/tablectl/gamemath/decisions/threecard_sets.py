"""Every set of cards of one deck as numpy arrays, and the rules engine's three-card value of
each row (vectorised), for the three-card decision math (pure)."""

from __future__ import annotations

from functools import cache
from itertools import combinations

import numpy as np

from tablectl.rules import hand3

_VALUES = np.array(hand3.VALUES, dtype=np.int64)  # the rules engine's own lookup
_SUITED = 13**3


@cache
def subsets(m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
    """Every m-card set of one deck: cards (n x m), a 52-bit mask each, the high cards in each,
    and (three cards) each set's value."""
    sets = np.array(list(combinations(range(52), m)), dtype=np.int64).reshape(-1, m) if m else np.zeros((1, 0), np.int64)
    masks = np.zeros(len(sets), dtype=np.uint64)
    for j in range(m):
        masks |= np.left_shift(np.uint64(1), sets[:, j].astype(np.uint64))
    highs = ((sets >> 2) >= 10).sum(axis=1) if m else np.zeros(len(sets), dtype=np.int64)
    return sets, masks, highs, values3(sets) if m == 3 else None


def values3(hands: np.ndarray) -> np.ndarray:
    """``value3`` of each row of an (n x 3) card array."""
    r = hands >> 2
    s = hands & 3
    i = r[:, 0] * 169 + r[:, 1] * 13 + r[:, 2]
    suited = (s[:, 0] == s[:, 1]) & (s[:, 1] == s[:, 2])
    return _VALUES[i + suited * _SUITED]
