"""Three-card poker hands, one table lookup each.

Order (three-card poker's, each category rarer than the next in one deck, so three of a kind
beats a straight and a straight beats a flush): straight flush > three of a kind > straight >
flush > pair > high card. A-2-3 is the lowest straight, A-K-Q the highest. The evaluator also
takes multi-deck hands (One for the Money's 3 Card Bonus): suited three of a kind counts as three
of a kind, a suited pair as a flush.

A hand's *value* is an int, higher is better: ``category << 12`` then three 4-bit tiebreak ranks
(straights: the top card, with A-2-3 topped by the 3; pairs: pair then kicker; otherwise the
ranks high to low). Equal values are equal hands: suits never break a tie.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

HIGH_CARD, PAIR, FLUSH, STRAIGHT, THREE_OF_A_KIND, STRAIGHT_FLUSH = range(6)
CATEGORY_NAMES = ("high-card", "pair", "flush", "straight", "three-of-a-kind", "straight-flush")

_ACE = 12
_SUITED = 13**3


def pack3(category: int, a: int = 0, b: int = 0, c: int = 0) -> int:
    """The value of a hand of ``category`` with tiebreak ranks ``a``, ``b``, ``c``."""
    return category << 12 | a << 8 | b << 4 | c


def _value_of(ranks: tuple[int, int, int], suited: bool) -> int:
    hi, mid, lo = sorted(ranks, reverse=True)
    if hi == lo:
        return pack3(THREE_OF_A_KIND, hi)
    distinct = hi != mid and mid != lo
    if distinct and hi - lo == 2:
        return pack3(STRAIGHT_FLUSH if suited else STRAIGHT, hi)
    if distinct and (hi, mid, lo) == (_ACE, 1, 0):
        return pack3(STRAIGHT_FLUSH if suited else STRAIGHT, 1)
    if suited:
        return pack3(FLUSH, hi, mid, lo)
    if not distinct:
        return pack3(PAIR, mid, lo if hi == mid else hi)
    return pack3(HIGH_CARD, hi, mid, lo)


def _build() -> tuple[int, ...]:
    table = [0] * (2 * _SUITED)
    for a, b, c in product(range(13), repeat=3):
        i = a * 169 + b * 13 + c
        table[i] = _value_of((a, b, c), False)
        table[i + _SUITED] = _value_of((a, b, c), True)
    return tuple(table)


VALUES = _build()
"""``value3`` of every hand by index ``rank_a * 169 + rank_b * 13 + rank_c`` (plus ``13**3`` when
suited): the table the exact math reads vectorised."""

QUEEN_HIGH = pack3(HIGH_CARD, 10, 1, 0)
"""The lowest queen-high hand (Q-3-2): a dealer qualifies with this value or more."""
QUEEN_SIX_FOUR = pack3(HIGH_CARD, 10, 4, 2)
"""Q-6-4: the conventional raise threshold."""
MINI_ROYAL = pack3(STRAIGHT_FLUSH, _ACE)
"""Suited A-K-Q."""


def value3(cards: Sequence[int]) -> int:
    """The value of a three-card hand (cards as ints ``rank * 4 + suit``)."""
    a, b, c = cards
    i = (a >> 2) * 169 + (b >> 2) * 13 + (c >> 2)
    if (a & 3) == (b & 3) == (c & 3):
        i += _SUITED
    return VALUES[i]


def category3(value: int) -> int:
    """The category (``HIGH_CARD`` .. ``STRAIGHT_FLUSH``) of a hand value."""
    return value >> 12


def category_name3(value: int) -> str:
    """The category's name ("straight-flush" .. "high-card"), as pay-table lines spell it."""
    return CATEGORY_NAMES[value >> 12]

