"""Deck check: a stack's composition against N full decks, as counts (never the order)."""

from __future__ import annotations

from collections.abc import Iterable

from tablectl.cards import DECK_SIZE


def deck_check(cards: Iterable[int], decks: int) -> tuple[dict[int, int], dict[int, int]]:
    """``(missing, extra)``: card -> how many fewer / more than ``decks`` copies ``cards`` holds."""
    counts = [0] * DECK_SIZE
    for c in cards:
        counts[c] += 1
    missing = {c: decks - n for c, n in enumerate(counts) if n < decks}
    extra = {c: n - decks for c, n in enumerate(counts) if n > decks}
    return missing, extra
