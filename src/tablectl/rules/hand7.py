"""Five-card poker hands: the best five of 5, 6 or 7 cards (single deck), by table lookup.

A hand's *value* is an int, higher is better: ``category << 20`` then five 4-bit tiebreak ranks.
Two tables do the work: one by the rank bit-mask of a suit holding five or more cards (flushes and
straight flushes), one by the multiset of ranks (everything else). The rank multiset's key is
``sum(5 ** rank)``, unique because no rank appears more than four times. Tables for each hand
size, and the flush table, are built on first use.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations_with_replacement

(
    HIGH_CARD,
    PAIR,
    TWO_PAIR,
    THREE_OF_A_KIND,
    STRAIGHT,
    FLUSH,
    FULL_HOUSE,
    FOUR_OF_A_KIND,
    STRAIGHT_FLUSH,
) = range(9)
CATEGORY_NAMES = (
    "high-card",
    "pair",
    "two-pair",
    "three-of-a-kind",
    "straight",
    "flush",
    "full-house",
    "four-of-a-kind",
    "straight-flush",
)

_ACE = 12
_POW5 = tuple(5**r for r in range(13))
_BIT = tuple(1 << r for r in range(13))
_WHEEL = _BIT[_ACE] | 0b1111


def pack5(category: int, ranks: Iterable[int] = ()) -> int:
    """The value of a hand of ``category`` with tiebreak ``ranks`` (most significant first)."""
    ranks = list(ranks)
    value = category
    for i in range(5):
        value = value << 4 | (ranks[i] if i < len(ranks) else 0)
    return value


ROYAL_FLUSH = pack5(STRAIGHT_FLUSH, [_ACE])


def _straight_top(mask: int) -> int:
    """The top rank of the best straight in a rank bit-mask, or -1."""
    for top in range(_ACE, 3, -1):
        window = 0b11111 << (top - 4)
        if mask & window == window:
            return top
    return 3 if mask & _WHEEL == _WHEEL else -1


def _flush_value(mask: int) -> int:
    top = _straight_top(mask)
    if top >= 0:
        return pack5(STRAIGHT_FLUSH, [top])
    return pack5(FLUSH, [r for r in range(_ACE, -1, -1) if mask & _BIT[r]][:5])


def _rank_value(counts: Sequence[int]) -> int:
    """The best five-card value of a rank multiset, flushes aside."""
    by_count: list[list[int]] = [[], [], [], [], []]
    mask = 0
    for r in range(_ACE, -1, -1):
        n = counts[r]
        if n:
            by_count[n].append(r)
            mask |= _BIT[r]
    _, singles, pairs, trips, quads = by_count
    if quads:
        kicker = max(singles + pairs + trips + quads[1:])
        return pack5(FOUR_OF_A_KIND, [quads[0], kicker])
    if trips and (len(trips) > 1 or pairs):
        return pack5(FULL_HOUSE, [trips[0], max(trips[1:] + pairs)])
    top = _straight_top(mask)
    if top >= 0:
        return pack5(STRAIGHT, [top])
    if trips:
        return pack5(THREE_OF_A_KIND, [trips[0], *singles[:2]])
    if len(pairs) >= 2:
        return pack5(TWO_PAIR, [pairs[0], pairs[1], max(singles + pairs[2:])])
    if pairs:
        return pack5(PAIR, [pairs[0], *singles[:3]])
    return pack5(HIGH_CARD, singles[:5])


def _multisets(size: int, rank: int = 0) -> Iterable[list[int]]:
    if rank == 12:
        if size <= 4:
            yield [size]
        return
    for n in range(min(size, 4) + 1):
        for rest in _multisets(size - n, rank + 1):
            yield [n, *rest]


class _FlushTable(dict[int, int]):
    """Rank bit-mask of a suit holding five or more cards -> its flush value: filled in whole on
    the first lookup, so that importing this module costs nothing (a lookup after that is a plain
    dict lookup)."""

    def __missing__(self, mask: int) -> int:
        if self:
            raise KeyError(mask)
        self.update((m, _flush_value(m)) for m in range(1 << 13) if m.bit_count() >= 5)
        return self[mask]


_FLUSH = _FlushTable()
_RANKS: dict[int, dict[int, int]] = {}


def _rank_table(size: int) -> dict[int, int]:
    table = _RANKS.get(size)
    if table is None:
        table = {}
        for combo in combinations_with_replacement(range(13), size):
            counts = [0] * 13
            for r in combo:
                counts[r] += 1
            if max(counts) <= 4:
                table[sum(_POW5[r] for r in combo)] = _rank_value(counts)
        _RANKS[size] = table
    return table


def best_five(cards: Sequence[int]) -> int:
    """The value of the best five-card hand among 5 to 7 distinct cards."""
    key = 0
    masks = [0, 0, 0, 0]
    for c in cards:
        key += _POW5[c >> 2]
        masks[c & 3] |= _BIT[c >> 2]
    best = _rank_table(len(cards))[key]
    for mask in masks:
        if mask.bit_count() >= 5:
            flush = _FLUSH[mask]
            if flush > best:
                best = flush
    return best


def category5(value: int) -> int:
    """The category (``HIGH_CARD`` .. ``STRAIGHT_FLUSH``) of a five-card value."""
    return value >> 20


def category_name5(value: int) -> str:
    """The hand's name as pay-table lines spell it ("royal-flush" for the top straight flush)."""
    return "royal-flush" if value == ROYAL_FLUSH else CATEGORY_NAMES[value >> 20]
