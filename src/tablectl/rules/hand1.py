"""One-card hands (One Card Poker, One for the Money): the rank decides, suits never do."""

from __future__ import annotations


def compare1(player: int, other: int) -> int:
    """``1`` if the player's card outranks the other, ``-1`` if lower, ``0`` on a rank tie."""
    mine, theirs = player >> 2, other >> 2
    return 1 if mine > theirs else -1 if mine < theirs else 0
