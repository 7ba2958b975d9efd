"""The dealer's three-card hands counted by showdown result from the precomputed tables equal a
plain enumeration of the 18,424 hands from the other 49 cards."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablectl.gamemath.threecard_counts import TOTAL, showdown_counts
from tablectl.rules import three_card_poker as tcp
from tablectl.rules.hand3 import value3


def enumerated(own: tuple[int, int, int]) -> dict[str, int]:
    player = value3(tuple(sorted(own)))
    rest = [c for c in range(52) if c not in own]
    counts = Counter(tcp.showdown(player, value3(d)) for d in combinations(rest, 3))
    return {r: counts.get(r, 0) for r in tcp.SHOWDOWNS}


@pytest.mark.parametrize("own", [(0, 1, 2), (48, 49, 50), (48, 44, 40), (0, 4, 8), (40, 41, 3), (16, 29, 50)],
                         ids=["trip-deuces", "trip-aces", "ace-king-queen-suited", "four-high-straight-flush", "pair-of-queens", "six-nine-ace"])
def test_counts_equal_the_enumeration(own: tuple[int, int, int]) -> None:
    assert showdown_counts(own) == enumerated(own)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=3, max_size=3, unique=True))
def test_counts_of_any_hand_equal_the_enumeration_and_sum_to_every_dealer_hand(cards: list[int]) -> None:
    own = (cards[0], cards[1], cards[2])
    counts = showdown_counts(own)
    assert counts == enumerated(own)
    assert sum(counts.values()) == TOTAL


def test_a_card_given_twice_is_refused_naming_the_cards() -> None:
    with pytest.raises(ValueError, match=r"three distinct cards 0-51 expected, not \[5, 5, 9\]"):
        showdown_counts((5, 5, 9))
