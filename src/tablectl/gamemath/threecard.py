"""Player hand against dealer hand, three cards each from one deck, counted without looping
over the C(52,3) * C(49,3) = 407,170,400 pairs.

For a player hand P the dealer holds three of the other cards. The number of such dealer hands
with a value below k is, by inclusion-exclusion over P's cards,

    all(<k) - sum over c in P of with(c, <k) + sum over pairs {c, d} in P of with(c, d, <k) - [P < k]

where ``all`` counts every hand of the deck, ``with(c)`` the hands holding card c (prefix sums
over the hands' value ranks) and ``with(c, d)`` the 50 hands holding both (sorted, bisected).
Only a hand's value matters to the outcome functions, and they compare the dealer's value only
with the player's value and with fixed thresholds (queen-high): so between consecutive
breakpoints {thresholds, player value, player value + 1} every dealer value settles the same way,
and one representative value per interval, with the interval's exact count, stands for all.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable, Sequence
from itertools import combinations

from tablectl.rules.hand3 import value3


class DealerHands:
    """The dealer's three-card hands from ``deck`` (distinct cards of one deck), indexed for
    counting those that avoid a given player hand, by value."""

    def __init__(self, deck: Iterable[int]) -> None:
        self.deck = sorted(set(deck))
        self.hands = list(combinations(self.deck, 3))
        hand_values = [value3(h) for h in self.hands]
        self.values = sorted(set(hand_values))
        """Dense rank -> value: ``values[i]`` is the i-th lowest value in the deck."""
        rank_of = {v: i for i, v in enumerate(self.values)}
        self.ranks = [rank_of[v] for v in hand_values]
        size = len(self.values) + 1
        total = [0] * size
        single = {c: [0] * size for c in self.deck}
        pairs: defaultdict[tuple[int, int], list[int]] = defaultdict(list)
        for (a, b, c), i in zip(self.hands, self.ranks):
            total[i] += 1
            single[a][i] += 1
            single[b][i] += 1
            single[c][i] += 1
            pairs[a, b].append(i)
            pairs[a, c].append(i)
            pairs[b, c].append(i)
        self._total = _prefix(total)
        self._single = {c: _prefix(h) for c, h in single.items()}
        self._pairs = {key: sorted(v) for key, v in pairs.items()}

    def rank_at_least(self, value: int) -> int:
        """The dense rank of the lowest value >= ``value`` (``len(values)`` if none)."""
        return bisect_left(self.values, value)

    def below(self, hand: Sequence[int], rank: int, own: int) -> int:
        """Dealer hands avoiding ``hand`` (sorted, dense rank ``own``) with dense rank < ``rank``."""
        a, b, c = hand
        single = self._single
        pairs = self._pairs
        return (
            self._total[rank]
            - single[a][rank]
            - single[b][rank]
            - single[c][rank]
            + bisect_left(pairs[a, b], rank)
            + bisect_left(pairs[a, c], rank)
            + bisect_left(pairs[b, c], rank)
            - (own < rank)
        )


def _prefix(counts: list[int]) -> list[int]:
    """``out[k]`` = sum of ``counts[:k]``."""
    out = [0] * len(counts)
    running = 0
    for k in range(1, len(counts)):
        running += counts[k - 1]
        out[k] = running
    return out


def matchups(deck: Iterable[int], thresholds: Sequence[int] = ()) -> dict[tuple[int, int], int]:
    """(player value, representative dealer value) -> number of (player hand, dealer hand) pairs
    it stands for, over every deal of three cards to each from ``deck`` (see the module
    docstring). The counts add up to C(n,3) * C(n-3,3)."""
    dealer = DealerHands(deck)
    top = len(dealer.values)
    fixed = {dealer.rank_at_least(t) for t in thresholds}
    cells: defaultdict[tuple[int, int], int] = defaultdict(int)
    for hand, own in zip(dealer.hands, dealer.ranks):
        cuts = sorted(fixed | {0, own, own + 1, top})
        low_count = 0
        for low, high in zip(cuts, cuts[1:]):
            if low >= high:
                continue
            high_count = dealer.below(hand, high, own)
            if high_count > low_count:
                cells[own, low] += high_count - low_count
            low_count = high_count
    values = dealer.values
    return {(values[p], values[d]): n for (p, d), n in cells.items()}
