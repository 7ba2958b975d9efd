"""Lookup tables for evaluating Texas Hold'em Bonus hands fast, built from the rules engine's own
evaluator (``tablectl.rules.hand7.best_five``): the fast path ranks exactly as settlement does.

- ``RANK_KEY[r]``: a number per rank such that the sum over any 5, 6 or 7 ranks (at most four
  of each) is unique; ``ranks(n)[sum]`` is then the value of the best non-flush five of those n
  ranks.
- ``FLUSH[mask]``: the value of the best five of the cards of one suit whose ranks are ``mask``
  (5 to 7 bits set).

Values are ``best_five``'s own ints, so they compare as the rules engine compares hands.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement

import numpy as np

from tablectl.rules.hand7 import best_five

#: rank keys whose 7-element sums are unique (checked when the table is built)
RANK_KEY = np.array([0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181], dtype=np.int64)


class TableError(ValueError):
    """The rank keys are not unique for some 7-rank multiset (never with ``RANK_KEY``)."""


@cache
def ranks(n: int) -> np.ndarray:
    """``ranks(n)[sum of RANK_KEY]`` -> the best non-flush value of n ranks (-1: no such sum)."""
    size = int(RANK_KEY[12]) * 4 + int(RANK_KEY[11]) * 3 + 1
    table = np.full(size, -1, dtype=np.int32)
    for combo in combinations_with_replacement(range(13), n):
        if max(combo.count(r) for r in set(combo)) > 4:
            continue
        # suits dealt round-robin: at most two of a suit, so no flush
        cards = [r * 4 + i % 4 for i, r in enumerate(combo)]
        key = int(RANK_KEY[list(combo)].sum())
        value = best_five(cards)
        if table[key] != -1 and table[key] != value:
            raise TableError(f"rank key {key} is not unique")
        table[key] = value
    return table


@cache
def flush() -> np.ndarray:
    """``FLUSH[mask]`` -> the best value of 5 to 7 suited cards of these ranks (0: fewer)."""
    table = np.zeros(1 << 13, dtype=np.int32)
    for mask in range(1 << 13):
        n = mask.bit_count()
        if 5 <= n <= 7:
            table[mask] = best_five([r * 4 for r in range(13) if mask >> r & 1])
    return table


__all__ = ["RANK_KEY", "TableError", "flush", "ranks"]
