"""The dealer's possible three-card hands against a player's three cards, counted by showdown
result, from tables built once (pure): ``showdown_counts(own)``.

With nothing known of the dealer's cards but the player's own three, the dealer holds any of the
C(49, 3) = 18,424 three-card sets of the other cards. Counting those by showdown result (dealer
not qualified, player wins, push, player loses) needs only how many of them fall below a value.
That count comes from three sorted tables of the rules engine's three-card values
(``tablectl.rules.hand3``): of all 22,100 sets, of the 1,275 sets holding each card, of the 50
sets holding each pair of cards; by inclusion and exclusion the sets missing the player's cards a,
b, c are all - (a) - (b) - (c) + (ab) + (ac) + (bc) - (abc). Each count is a handful of binary
searches instead of an enumeration of 18,424 hands; the counts are exact and equal the
enumeration's (``decision_threecard.dealer_weights``).
"""

from __future__ import annotations

from bisect import bisect_left
from functools import cache
from itertools import combinations

from tablectl.rules import three_card_poker as tcp
from tablectl.rules.hand3 import value3

TOTAL = 18_424  # C(49, 3): the dealer's three cards from the 49 the player does not hold


@cache
def _tables() -> tuple[list[int], list[list[int]], dict[tuple[int, int], list[int]]]:
    """Sorted three-card values: of every set, of the sets holding each card, of the sets
    holding each pair of cards (key: the pair, lower card first)."""
    every: list[int] = []
    by_card: list[list[int]] = [[] for _ in range(52)]
    by_pair: dict[tuple[int, int], list[int]] = {}
    for a, b, c in combinations(range(52), 3):
        v = value3((a, b, c))
        every.append(v)
        for card in (a, b, c):
            by_card[card].append(v)
        for pair in ((a, b), (a, c), (b, c)):
            by_pair.setdefault(pair, []).append(v)
    every.sort()
    for values in by_card:
        values.sort()
    for values in by_pair.values():
        values.sort()
    return every, by_card, by_pair


def below(own: tuple[int, int, int], x: int) -> int:
    """How many three-card sets without any of ``own`` (three distinct cards) have a value below ``x``."""
    every, by_card, by_pair = _tables()
    a, b, c = sorted(own)
    n = bisect_left(every, x)
    n -= bisect_left(by_card[a], x) + bisect_left(by_card[b], x) + bisect_left(by_card[c], x)
    n += bisect_left(by_pair[a, b], x) + bisect_left(by_pair[a, c], x) + bisect_left(by_pair[b, c], x)
    return n - (value3((a, b, c)) < x)


def showdown_counts(own: tuple[int, int, int]) -> dict[str, int]:
    """The dealer's three-card sets from the other 49 cards, counted by the result of a played
    hand (``three_card_poker.SHOWDOWNS``); they sum to ``TOTAL``."""
    if len(set(own)) != 3 or any(not 0 <= c < 52 for c in own):
        raise ValueError(f"three distinct cards 0-51 expected, not {list(own)}")
    v, q = value3(tuple(sorted(own))), tcp.QUEEN_HIGH
    not_qualified = below(own, q)
    under, through = below(own, max(v, q)), below(own, max(v + 1, q))
    return {tcp.NOT_QUALIFIED: not_qualified, "win": under - not_qualified, "push": through - under, "lose": TOTAL - through}


__all__ = ["TOTAL", "below", "showdown_counts"]
