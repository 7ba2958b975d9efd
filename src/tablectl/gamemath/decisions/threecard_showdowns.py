"""The dealer's possible three-card hands counted by showdown class, from sorted tables built once
(pure): ``class_counts(player, sight)``.

A Three Card Poker decision's value turns on how many of the dealer's possible hands (weighted by
the orders of dealing that agree with an edge sort's marks, as ``decision_threecard.dealer_weights``
weights them) fall in each showdown class: below queen-high, qualified and below the player's
value, equal to it, above it. The dealer's hands are the rules engine's three-card values
(``tablectl.rules.hand3``) of the known dealer cards plus every set of the unknown ones: with no
dealer card known, the 22,100 three-card sets; with one card K known, K with each of the 1,326
pairs. How many of them miss every card seen S and fall below a value x is, by inclusion and
exclusion, (all below x) - (those holding a card of S) + (those holding two) - (those holding
three), each a binary search in a sorted table built once, when first needed: the values of every
set, of the sets holding each card, of the sets holding each pair of cards (the last term: the sets within S
themselves, valued directly). Each table is kept per count of high cards (Q, K, A) among the
unknown cards too: an edge sort's weight turns on it. The counts are exact integers, equal to the
enumeration's; with two or more dealer cards known no table is built (None).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations
from math import perm

import numpy as np

from tablectl.gamemath.decisions.sight import HIGH, LOW, Sight, is_high
from tablectl.gamemath.decisions.threecard_sets import subsets, values3
from tablectl.rules import three_card_poker as tcp
from tablectl.rules.hand3 import QUEEN_HIGH, value3

HIGH_CARDS = min(c for c in range(52) if is_high(c))  # the queens, kings and aces are the cards from here up
Lists = list[list[int]]  # sorted values per group: index h = that many high cards, the last = every member


class _Universe:
    """The dealer's possible hands with ``known`` (None, or one card) and every set of the others,
    as sorted value tables: every member, those holding each card, those holding each pair (each
    table built the first time a sight needs it)."""

    def __init__(self, known: int | None) -> None:
        self.known = known
        self.size = 3 if known is None else 2  # unknown cards
        self.every = self._every()
        self._by_card: dict[int, Lists] = {}
        self._by_pair: dict[tuple[int, int], Lists] = {}

    def _every(self) -> Lists:
        """Every member's value, sorted, per group (from the three-card math's arrays, at once)."""
        sets, _, highs, values = subsets(self.size)
        if values is None:
            values = values3(np.hstack([np.full((len(sets), 1), self.known, dtype=np.int64), sets]))
        return [*(np.sort(values[highs == h]).tolist() for h in range(self.size + 1)), np.sort(values).tolist()]

    def _lists(self, members: Iterable[Sequence[int]]) -> Lists:
        """The members' values, sorted, per group (by high cards; the last: every member)."""
        lists: Lists = [[] for _ in range(self.size + 2)]
        for cards in members:
            v, h = self.member(cards)
            lists[h].append(v)
            lists[-1].append(v)
        for values in lists:
            values.sort()
        return lists

    def by_card(self, c: int) -> Lists:
        """The members holding card ``c``."""
        found = self._by_card.get(c)
        if found is None:
            others = [d for d in range(52) if d != c]
            found = self._by_card[c] = self._lists(tuple(sorted((c, *rest))) for rest in combinations(others, self.size - 1))
        return found

    def by_pair(self, pair: tuple[int, int]) -> Lists:
        """The members holding both cards of ``pair`` (three-card members only)."""
        found = self._by_pair.get(pair)
        if found is None:
            found = self._by_pair[pair] = self._lists(tuple(sorted((*pair, d))) for d in range(52) if d not in pair)
        return found

    def member(self, cards: Sequence[int]) -> tuple[int, int]:
        """A member's value and its unknown cards' high-card count (cards ascending)."""
        hand = cards if self.known is None else (self.known, *cards)
        return value3(hand), sum(c >= HIGH_CARDS for c in cards)

    def kept_below(self, seen: Sequence[int], group: int, xs: tuple[int, int, int]) -> list[int]:
        """Members of ``group`` holding none of ``seen`` (distinct, ascending): how many fall
        below each of ``xs`` (ascending), and how many there are."""
        x1, x2, x3 = xs
        values = self.every[group]
        n1 = bisect_left(values, x1)
        n2 = bisect_left(values, x2, n1)
        n3 = bisect_left(values, x3, n2)
        n4 = len(values)
        for c in seen:  # less those holding a card seen
            values = self.by_card(c)[group]
            a = bisect_left(values, x1)
            b = bisect_left(values, x2, a)
            d = bisect_left(values, x3, b)
            n1, n2, n3, n4 = n1 - a, n2 - b, n3 - d, n4 - len(values)
        sign = 1
        if self.size == 3:  # plus those holding two; then less those holding three (the sets within seen)
            for pair in combinations(seen, 2):
                values = self.by_pair(pair)[group]
                a = bisect_left(values, x1)
                b = bisect_left(values, x2, a)
                d = bisect_left(values, x3, b)
                n1, n2, n3, n4 = n1 + a, n2 + b, n3 + d, n4 + len(values)
            sign = -1
        known = () if self.known is None else (self.known,)
        for cards in combinations(seen, self.size):  # the members within seen (pairs: added back)
            if group != -1 and group != sum(c >= HIGH_CARDS for c in cards):
                continue
            v = value3(known + cards)
            n1, n2, n3, n4 = n1 + sign * (v < x1), n2 + sign * (v < x2), n3 + sign * (v < x3), n4 + sign
        return [n1, n2, n3, n4]


@cache
def _universe(known: int | None) -> _Universe:
    return _Universe(known)


def class_counts(player: int, sight: Sight) -> tuple[dict[str, int], int] | None:
    """The dealer's hands that agree with ``sight``, weighted, counted by the showdown result of a
    played ``player`` value, and the total weight; None: two or more dealer cards known. Each
    class's result is ``three_card_poker.showdown`` on the class's least value (queen-high's
    class below it: one less)."""
    known = [c for c in sight.dealer if isinstance(c, int)]
    if len(known) > 1 or len(sight.dealer) > 3:
        return None
    marks = [c for c in sight.dealer if isinstance(c, str)]
    want_high, want_low = marks.count(HIGH), marks.count(LOW)
    universe = _universe(known[0] if known else None)
    m = universe.size
    seen = sorted(set(sight.seen()))
    lows = (QUEEN_HIGH - 1, QUEEN_HIGH, max(player, QUEEN_HIGH), max(player + 1, QUEEN_HIGH))  # each class's least
    xs = (lows[1], lows[2], lows[3])
    if not (want_high or want_low):  # every hand weighing one
        bounds = universe.kept_below(seen, -1, xs)
    else:
        bounds = [0, 0, 0, 0]  # weighted hands below queen-high, the player's value, one above; all
        for h in range(m + 1):
            weight = perm(h, want_high) * perm(m - h, want_low)
            if weight:
                for i, n in enumerate(universe.kept_below(seen, h, xs)):
                    bounds[i] += weight * n
    total = bounds[3]
    if total == 0:
        raise ValueError("no dealer hand agrees with what was seen")
    by_result = dict.fromkeys(tcp.SHOWDOWNS, 0)
    below = 0
    for c, upto in enumerate(bounds):
        if upto > below:
            by_result[tcp.showdown(player, lows[c])] += upto - below
        below = upto
    return by_result, total


__all__ = ["class_counts"]
