"""The dealer's three-card hands counted by showdown class from the sorted tables
(``gamemath.decisions.threecard_showdowns``) equal a plain enumeration of every ordered deal of the
dealer's unknown cards that agrees with what the player saw, settled by ``showdown``."""

from __future__ import annotations

from collections import Counter
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablectl.gamemath.decisions.sight import HIGH, LOW, Sight, is_high
from tablectl.gamemath.decisions.threecard_showdowns import class_counts
from tablectl.rules import three_card_poker as tcp
from tablectl.rules.hand3 import value3


def enumerated(player: int, sight: Sight) -> tuple[dict[str, int], int]:
    """Every ordered deal of the unknown dealer cards that agrees with the marks, by result; each
    set of unknown cards is dealt in m! orders, so the counts are divided by m! for unmarked slots."""
    slots = list(sight.dealer) + [None] * (3 - len(sight.dealer))
    free = [s for s in slots if not isinstance(s, int)]
    known = [s for s in slots if isinstance(s, int)]
    unseen = [c for c in range(52) if c not in sight.seen()]
    counts: Counter[str] = Counter()
    for picked in permutations(unseen, len(free)):
        if all(mark is None or is_high(c) == (mark == HIGH) for c, mark in zip(picked, free)):
            counts[tcp.showdown(player, value3(tuple(sorted(known + list(picked)))))] += 1
    if not any(isinstance(s, str) for s in free):  # unmarked: one per set, as the tables count
        orders = {0: 1, 1: 1, 2: 2, 3: 6}[len(free)]
        counts = Counter({r: n // orders for r, n in counts.items()})
    return {r: counts.get(r, 0) for r in tcp.SHOWDOWNS}, sum(counts.values())


def sight_from(deck: list[int], kind: str, k: int) -> Sight:
    own, dealer, rest = tuple(deck[:3]), deck[3:6], tuple(deck[6:])
    if kind == "hole":
        return Sight(own, dealer=tuple(c if i == k else None for i, c in enumerate(dealer)))
    if kind == "edge":
        return Sight(own, dealer=tuple(HIGH if is_high(c) else LOW for c in dealer))
    if kind == "hole-and-edge":
        return Sight(own, dealer=tuple(c if i == k else HIGH if is_high(c) else LOW for i, c in enumerate(dealer)))
    return Sight(own, others=rest[: 3 * (k + 1)])


@settings(max_examples=25, deadline=None)
@given(st.permutations(list(range(52))), st.sampled_from(["hole", "edge", "hole-and-edge", "team"]), st.integers(0, 2))
def test_counts_by_class_equal_the_enumeration_of_every_deal(deck: list[int], kind: str, k: int) -> None:
    sight = sight_from(deck[:15], kind, k)
    player = value3(tuple(sorted(sight.own)))
    assert class_counts(player, sight) == enumerated(player, sight)


@pytest.mark.parametrize("own", [(0, 1, 2), (48, 49, 50), (48, 44, 40), (0, 4, 8), (40, 41, 3), (16, 29, 50)],
                         ids=["trip-deuces", "trip-aces", "ace-king-queen-suited", "four-high-straight-flush", "pair-of-queens", "six-nine-ace"])
def test_counts_with_only_the_own_cards_seen_equal_every_dealer_hand_of_the_other_49(own: tuple[int, int, int]) -> None:
    sight = Sight(own)
    player = value3(tuple(sorted(own)))
    counts, total = class_counts(player, sight)
    assert (counts, total) == enumerated(player, sight) and total == 18_424


@pytest.mark.parametrize("dealer", [(HIGH, HIGH, HIGH), (LOW, LOW, LOW), (5, HIGH, None)], ids=["three-high", "three-low", "card-and-high"])
def test_marked_dealer_hands_weigh_the_orders_of_dealing_that_agree(dealer: tuple[object, ...]) -> None:
    sight = Sight((0, 21, 46), dealer=dealer)  # type: ignore[arg-type]
    player = value3((0, 21, 46))
    assert class_counts(player, sight) == enumerated(player, sight)


def test_two_dealer_cards_known_are_left_to_the_enumeration() -> None:
    assert class_counts(value3((0, 21, 46)), Sight((0, 21, 46), dealer=(5, 9, None))) is None


def test_no_dealer_hand_left_is_refused() -> None:
    sight = Sight((0, 1, 2), dealer=(HIGH, HIGH, HIGH), others=tuple(c for c in range(40, 52)))
    with pytest.raises(ValueError, match="no dealer hand agrees with what was seen"):
        class_counts(value3((0, 1, 2)), sight)
