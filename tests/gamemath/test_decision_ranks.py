"""One for the Money's dealer deals counted by the higher card's rank (``decision_ranks.dealer_highs``)
equal a walk through every ordered deal of the dealer's unknown cards from the shoe's counts."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tablectl.gamemath.decisions.ranks import dealer_highs
from tablectl.gamemath.decisions.sight import HIGH, HIGH_RANKS, LOW


def walked(counts: list[int], known: list[int], marks: tuple[str | None, ...]) -> list[int]:
    """Every ordered deal, card by card from what is left of each rank."""
    out = [0] * 13
    deals = [([*counts], max(known, default=-1), 1)]
    for mark in marks:
        deals = [(left[:r] + [left[r] - 1] + left[r + 1:], max(high, r), weight * left[r])
                 for left, high, weight in deals for r in range(13)
                 if left[r] and (mark is None or (r in HIGH_RANKS) == (mark == HIGH))]
    for _, high, weight in deals:
        out[high] += weight
    return out


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 32), min_size=13, max_size=13), st.lists(st.integers(0, 12), max_size=2),
       st.lists(st.sampled_from([None, HIGH, LOW]), min_size=2, max_size=2))
def test_deals_by_higher_rank_equal_walking_every_ordered_deal(counts: list[int], known: list[int], marks: list[str | None]) -> None:
    unknown = tuple(marks[: 2 - len(known)])
    assert dealer_highs(counts, known, unknown) == walked(counts, known, unknown)
