"""The penetration cap (pure): how far into a shoe cards may be dealt, and when to announce the
last round so that a normal round never reaches the cap.

Penetration = cards drawn since the shuffle / cards in the shoe. Card number ``n`` (1-based) is
accepted as dealt only if ``n <= cap_cards``. After each round the controller looks ahead by
the game's normal-round budget for a full table: when fewer than two rounds' worth remain under
the cap the next round is announced as the last; when less than one remains a reshuffle is due.
"""

from __future__ import annotations

import math

OK = "ok"
LAST_ROUND = "last_round"
RESHUFFLE = "reshuffle"


def cap_cards(size: int, cap: float) -> int:
    """How many cards of a ``size``-card shoe may be dealt under ``cap`` (a fraction)."""
    return math.floor(size * cap + 1e-9)


def past_cap(number: int, cap_cards: int) -> bool:
    """Whether the ``number``-th card drawn (1-based) is past the cap."""
    return number > cap_cards


def outlook(drawn: int, cap_cards: int, budget: int) -> str:
    """``OK``, ``LAST_ROUND`` (one more normal round fits, two may not) or ``RESHUFFLE`` (a
    normal round may not fit), with ``drawn`` cards out and ``budget`` cards per normal round."""
    left = cap_cards - drawn
    if left < budget:
        return RESHUFFLE
    if left < 2 * budget:
        return LAST_ROUND
    return OK


def fraction(drawn: int, size: int) -> float:
    """Penetration as a fraction, rounded for the log (4 places)."""
    return round(drawn / size, 4) if size else 0.0


def fractions(size: int) -> list[float]:
    """``fraction(n, size)`` for every ``n`` from 0 to ``size``, by index (looked up per card)."""
    return [fraction(n, size) for n in range(size + 1)]
