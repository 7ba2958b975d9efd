"""Small statistics the floor report needs (pure functions)."""

from __future__ import annotations

import math
from statistics import NormalDist


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


def one_sided_limit(tests: int, alpha: float) -> float:
    """The z limit of a one-sided (low-side) test that keeps the chance of any false alarm among
    ``tests`` tests at or below ``alpha`` (Bonferroni: each test at ``alpha / tests``). It holds
    whatever the dependence between the tests, and the expected number of false alarms is at most
    ``alpha``."""
    if not 0 < alpha < 1:
        raise ValueError(f"alpha {alpha!r}: not between 0 and 1")
    return -NormalDist().inv_cdf(alpha / max(tests, 1))


def family_limit(tests: int, alpha: float, z_min: float) -> float:
    """One family's z limit: the Bonferroni limit at family-wise ``alpha``, never below ``z_min``."""
    return max(z_min, one_sided_limit(tests, alpha))


def p_limit(tests: int, alpha: float, z_min: float) -> float:
    """One family's p-value limit: Bonferroni at family-wise ``alpha`` (``alpha / tests``), never
    above the normal tail at ``z_min``; ``tests`` true-null tests with valid p-values raise at most
    ``tests * p_limit <= alpha`` false alarms on average."""
    return min(alpha / max(tests, 1), NormalDist().cdf(-z_min))


def expected_false_alarms(tests: int, limit: float) -> float:
    """How many of ``tests`` true-null tests are expected below ``-limit`` (z standard normal)."""
    return tests * NormalDist().cdf(-limit)
