"""The best five of six cards from one deck, counted over all C(52,6) = 20,358,520 sets.

Without five cards of a suit the best hand depends on the ranks alone: a multiset of six ranks
(at most four of a rank) is dealt in prod C(4, count) suit assignments, of which those holding
five or six cards of one suit are set apart: 4 + 4 * 6 * 3 = 76 when the six ranks differ (all six
suited, or five and one of another suit), 4 * 3 = 12 when five differ (the pair's second card off
the suit), none otherwise. The suited sets themselves (4 * C(13,6) + 4 * C(13,5) * 39 = 207,636)
are enumerated card by card. Every set is valued by ``tablectl.rules.hand7.best_five`` on real
cards.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement
from math import comb, prod

from tablectl.rules.hand7 import best_five

_SUITED_AWAY = {6: 4 + 4 * 6 * 3, 5: 4 * 3}


def _card(rank: int, suit: int) -> int:
    return rank << 2 | suit


def six_card_values() -> Counter[int]:
    """Best-five value -> number of six-card sets from one deck."""
    counts: Counter[int] = Counter()
    for ranks in combinations_with_replacement(range(13), 6):
        per_rank = Counter(ranks)
        if max(per_rank.values()) > 4:
            continue
        # suits rotate along the sorted ranks: no suit holds five, and no rank repeats a suit
        unsuited = [_card(r, i & 3) for i, r in enumerate(ranks)]
        suitings = prod(comb(4, n) for n in per_rank.values()) - _SUITED_AWAY.get(len(per_rank), 0)
        counts[best_five(unsuited)] += suitings
    for suited in combinations(range(13), 6):
        counts[best_five([_card(r, 0) for r in suited])] += 4
    for suited in combinations(range(13), 5):
        flush = [_card(r, 0) for r in suited]
        for rank in range(13):
            # the sixth card in any of the three other suits: the same hand each time; 4 suits
            counts[best_five([*flush, _card(rank, 1)])] += 4 * 3
    return counts
