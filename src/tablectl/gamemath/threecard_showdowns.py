"""The dealer's possible three-card hands counted by showdown class, from sorted tables built once
(pure): ``class_counts(player, sight)``.

A Three Card Poker decision's value turns on how many of the dealer's possible hands (weighted by
the orders of dealing that agree with an edge sort's marks, as ``decision_threecard.dealer_weights``
weights them) fall in each showdown class: below queen-high, qualified and below the player's
value, equal to it, above it. The dealer's hands are the rules engine's three-card values
(``tablectl.rules.hand3``) of the known dealer cards plus every set of the unknown ones: with no
dealer card known, the 22,100 three-card sets; with one card K known, K with each of the 1,326
pairs. Each table is built once, sorted by value, with each entry's 52-bit card mask (and, for
sights with an edge sort's marks, grouped first by how many high cards -- Q, K, A -- the unknown
cards hold: what the weight turns on). A sight then costs one mask test over the table and, per
group, three binary searches (at queen-high, the player's value and one above) and counts of the kept entries below
them. The counts are exact integers, equal to the enumeration's; with two or more dealer cards
known no table is built (None).
"""

from __future__ import annotations

from functools import cache
from math import perm

import numpy as np

from tablectl.gamemath.sight import HIGH, LOW, Sight
from tablectl.rules import three_card_poker as tcp
from tablectl.rules.hand3 import QUEEN_HIGH

#: values (ascending within each group), card masks, and the groups' (start, end): per high-card count, or one
Table = tuple[np.ndarray, np.ndarray, tuple[tuple[int, int], ...]]


def _table(values: np.ndarray, masks: np.ndarray, highs: np.ndarray, size: int, grouped: bool) -> Table:
    """The entries by value, or (``grouped``) by high cards then value, with the groups' bounds."""
    if not grouped:
        order = np.argsort(values, kind="stable")
        return values[order], masks[order], ((0, len(values)),)
    order = np.lexsort((values, highs))
    highs = highs[order]
    groups = tuple((int(np.searchsorted(highs, h)), int(np.searchsorted(highs, h, side="right"))) for h in range(size + 1))
    return values[order], masks[order], groups


@cache
def _no_card_known(grouped: bool) -> Table:
    """Every three-card set."""
    from tablectl.gamemath.decision_threecard import _subsets  # built once; that module counts with these tables

    _, masks, highs, values = _subsets(3)
    return _table(values, masks, highs, 3, grouped)  # type: ignore[arg-type]


@cache
def _one_card_known(known: int, grouped: bool) -> Table:
    """The known card with every pair of the others (pairs holding it are masked out with it: a
    sight's seen cards include its dealer cards known)."""
    from tablectl.gamemath.decision_threecard import _subsets, _values3

    pairs, masks, highs, _ = _subsets(2)
    values = _values3(np.hstack([np.full((len(pairs), 1), known, dtype=np.int64), pairs]))
    return _table(values, masks, highs, 2, grouped)


def _kept_below(values: np.ndarray, keep: np.ndarray, start: int, end: int, lows: tuple[int, ...]) -> list[int]:
    """Of the entries ``start:end`` (ascending values), how many kept are below each of ``lows``, and all kept."""
    cuts = (np.searchsorted(values[start:end], lows) + start).tolist()
    return [int(np.count_nonzero(keep[start:at])) for at in (*cuts, end)]


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
    m = 3 - len(known)
    marked = bool(want_high or want_low)
    values, masks, groups = (_one_card_known if known else _no_card_known)(*known[:1], marked)
    seen = 0
    for c in sight.seen():
        seen |= 1 << c
    keep = (masks & np.uint64(seen)) == 0
    lows = (QUEEN_HIGH - 1, QUEEN_HIGH, max(player, QUEEN_HIGH), max(player + 1, QUEEN_HIGH))  # each class's least
    if not marked:  # one group, every hand weighing one
        bounds = _kept_below(values, keep, 0, len(values), lows[1:])
    else:
        bounds = [0, 0, 0, 0]  # weighted hands below queen-high, the player's value, one above; all
        for h, (start, end) in enumerate(groups):
            weight = perm(h, want_high) * perm(m - h, want_low)
            if weight and start < end:
                for i, n in enumerate(_kept_below(values, keep, start, end, lows[1:])):
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
