"""Texas Hold'em Bonus decision situations up to suits: which (hole, board) stands for which.

The main game's strategy depends on the cards only up to a renaming of the suits, so one
*canonical* situation stands for every deal that a suit renaming turns into it. The hole cards are
the starting hand's representative (``holdem_main.starting_hands``: a pair is spades and hearts,
a suited hand spades, an offsuit hand a high spade and a low heart); the board is, among the
boards the renamings that keep those hole cards give, the one whose card numbers sorted
ascending come first (the smallest colex index). ``canonical`` maps any dealt cards to it.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations

import numpy as np
from numba import njit

from tablectl.cards import RANKS, text

_PERMUTATIONS = np.array(list(permutations(range(4))), dtype=np.int64)


def stabiliser(c1: int, c2: int) -> np.ndarray:
    """The suit renamings (rows: new suit of spades, hearts, diamonds, clubs) that keep the two
    hole cards as they are (as a set)."""
    keep = [p for p in _PERMUTATIONS if {c1 >> 2 << 2 | p[c1 & 3], c2 >> 2 << 2 | p[c2 & 3]} == {c1, c2}]
    return np.array(keep, dtype=np.int64)


@njit(cache=True)
def next_combination(picks: np.ndarray, items: int) -> bool:
    """Step ``picks`` (ascending indices) to the next combination of ``len(picks)`` of ``items``
    in lexicographic order; False after the last one."""
    n = picks.shape[0]
    i = n - 1
    while i >= 0 and picks[i] == items - n + i:
        i -= 1
    if i < 0:
        return False
    picks[i] += 1
    for j in range(i + 1, n):
        picks[j] = picks[j - 1] + 1
    return True


@njit(cache=True)
def _index(cards: np.ndarray, n: int, binom: np.ndarray) -> int:
    """The colex index of ``cards[:n]`` sorted ascending in place."""
    for i in range(1, n):
        x = cards[i]
        j = i - 1
        while j >= 0 and cards[j] > x:
            cards[j + 1] = cards[j]
            j -= 1
        cards[j + 1] = x
    total = 0
    for i in range(n):
        total += binom[cards[i], i + 1]
    return total


@njit(cache=True)
def canonical_boards(c1: int, c2: int, n: int, perms: np.ndarray, binom: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The canonical ``n``-card boards (3: flops, 4: turns) beside hole cards ``c1, c2`` (which
    ``perms`` keep): the boards, one per row sorted ascending, and how many boards each stands
    for (its suit renamings that differ)."""
    total = binom[50, n]
    boards = np.empty((total, n), dtype=np.int64)
    sizes = np.empty(total, dtype=np.int64)
    rest = np.empty(50, dtype=np.int64)
    k = 0
    for c in range(52):
        if c != c1 and c != c2:
            rest[k] = c
            k += 1
    board = np.empty(n, dtype=np.int64)
    image = np.empty(n, dtype=np.int64)
    seen = np.empty(perms.shape[0], dtype=np.int64)
    picks = np.arange(n)
    count = 0
    while True:
        for i in range(n):
            board[i] = rest[picks[i]]
        own = _index(board, n, binom)
        least = True
        distinct = 0
        for p in range(perms.shape[0]):
            for i in range(n):
                image[i] = (board[i] >> 2 << 2) | perms[p, board[i] & 3]
            idx = _index(image, n, binom)
            if idx < own:
                least = False
                break
            new = True
            for q in range(distinct):
                if seen[q] == idx:
                    new = False
                    break
            if new:
                seen[distinct] = idx
                distinct += 1
        if least:
            boards[count, :] = board
            sizes[count] = distinct
            count += 1
        if not next_combination(picks, 50):
            break
    return boards[:count], sizes[:count]


def hand_name(c1: int, c2: int) -> str:
    """The starting hand's name: ``AA``, ``AKs``, ``72o``."""
    hi, lo = max(c1 >> 2, c2 >> 2), min(c1 >> 2, c2 >> 2)
    if hi == lo:
        return RANKS[hi] * 2
    return RANKS[hi] + RANKS[lo] + ("s" if (c1 & 3) == (c2 & 3) else "o")


def cards_text(cards: Sequence[int]) -> str:
    """Cards as the log writes them, highest first (by rank, then clubs, diamonds, hearts,
    spades): ``AS KD``, ``8H 7H 2C``."""
    return " ".join(text(c) for c in sorted(cards, reverse=True))


def representative(c1: int, c2: int) -> tuple[int, int]:
    """The representative hole cards of the starting hand of ``c1, c2`` (low card first)."""
    hi, lo = max(c1 >> 2, c2 >> 2), min(c1 >> 2, c2 >> 2)
    if hi == lo:
        return hi * 4, hi * 4 + 1
    if (c1 & 3) == (c2 & 3):
        return lo * 4, hi * 4
    return lo * 4 + 1, hi * 4


def canonical(hole: Sequence[int], board: Sequence[int]) -> tuple[str, str]:
    """The canonical situation of dealt cards, as the export's ``hole`` and ``board`` text."""
    if len(hole) != 2 or len(set(hole) | set(board)) != 2 + len(board):
        raise ValueError(f"not a Texas Hold'em Bonus situation: hole {list(hole)}, board {list(board)}")
    rep = representative(*hole)
    best: tuple[int, ...] | None = None
    for p in _PERMUTATIONS:
        renamed = {c >> 2 << 2 | int(p[c & 3]) for c in hole}
        if renamed != set(rep):
            continue
        image = tuple(sorted(c >> 2 << 2 | int(p[c & 3]) for c in board))
        key = tuple(reversed(image))  # colex order: compare from the highest card down
        if best is None or key < best:
            best = key
    assert best is not None
    return cards_text(rep), cards_text(best)


__all__ = ["canonical", "canonical_boards", "cards_text", "hand_name", "representative", "stabiliser"]
