"""Small statistics the floor report needs (pure functions)."""

from __future__ import annotations

import math


def fisher(p_values: list[float]) -> float | None:
    """Fisher's combined p-value: P(chi-square with 2k df >= -2 sum ln p) (closed form for even df)."""
    ps = [max(p, 1e-300) for p in p_values if p is not None]
    if not ps:
        return None
    half = -sum(math.log(p) for p in ps)  # the statistic / 2
    term, total = 1.0, 1.0
    for i in range(1, len(ps)):
        term *= half / i
        total += term
    return min(1.0, math.exp(-half) * total)
