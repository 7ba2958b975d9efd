"""False alarms controlled across many tests (pure): Holm's step-down and Benjamini-Hochberg.

``holm`` bounds the family-wise error -- the chance that *any* honest seat of the family is
flagged -- by ``alpha``, whatever the dependence between the tests (seats of one table share the
dealer's cards, so their statistics are dependent). It is the one game protection uses: a flag
accuses a player, so the chance of one false accusation per screening is what must be bounded.
``benjamini_hochberg`` bounds the expected share of false flags among the flags instead (valid for
independent or positively dependent tests); it flags more when many seats cheat, and is given for
screening a whole floor where a share of false leads is acceptable.
"""

from __future__ import annotations

from collections.abc import Sequence


def _check(pvalues: Sequence[float], alpha: float) -> None:
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha {alpha!r}: expected a level above 0 and below 1")
    for i, p in enumerate(pvalues):
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"p-value #{i} is {p!r}: expected a probability from 0 to 1")


def holm(pvalues: Sequence[float], alpha: float) -> list[bool]:
    """Which tests Holm's step-down procedure rejects at family-wise level ``alpha``: the smallest
    p-value against alpha/m, the next against alpha/(m-1), ... stopping at the first kept."""
    _check(pvalues, alpha)
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    out = [False] * m
    for rank, i in enumerate(order):
        if pvalues[i] > alpha / (m - rank):
            break
        out[i] = True
    return out


def benjamini_hochberg(pvalues: Sequence[float], alpha: float) -> list[bool]:
    """Which tests Benjamini-Hochberg rejects at false-discovery rate ``alpha``: every test up to
    the largest rank k whose p-value is at most k * alpha / m."""
    _check(pvalues, alpha)
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    cut = 0
    for rank, i in enumerate(order, start=1):
        if pvalues[i] <= rank * alpha / m:
            cut = rank
    out = [False] * m
    for i in order[:cut]:
        out[i] = True
    return out


METHODS = {"holm": holm, "bh": benjamini_hochberg}

__all__ = ["METHODS", "benjamini_hochberg", "holm"]
