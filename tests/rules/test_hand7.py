"""Best five of 5-7 cards."""

import random
from collections import Counter
from itertools import combinations

import pytest

from tablectl.cards import cards
from tablectl.rules import hand7
from tablectl.rules.hand7 import ROYAL_FLUSH, best_five, category5


def v(text: str) -> int:
    return best_five(cards(text))


def naive_category(hand: list[int]) -> int:
    """A five-card category from first principles, written independently of the evaluator."""
    ranks = sorted((c >> 2 for c in hand), reverse=True)
    shape = sorted(Counter(ranks).values(), reverse=True)
    flush = len({c & 3 for c in hand}) == 1
    distinct = sorted(set(ranks))
    straight = len(distinct) == 5 and (distinct[4] - distinct[0] == 4 or distinct == [0, 1, 2, 3, 12])
    if straight and flush:
        return hand7.STRAIGHT_FLUSH
    if shape[0] == 4:
        return hand7.FOUR_OF_A_KIND
    if shape[:2] == [3, 2]:
        return hand7.FULL_HOUSE
    if flush:
        return hand7.FLUSH
    if straight:
        return hand7.STRAIGHT
    if shape[0] == 3:
        return hand7.THREE_OF_A_KIND
    if shape[:2] == [2, 2]:
        return hand7.TWO_PAIR
    return hand7.PAIR if shape[0] == 2 else hand7.HIGH_CARD


def test_five_card_categories_agree_with_a_first_principles_classifier() -> None:
    rng = random.Random(7)
    for _ in range(20_000):
        hand = rng.sample(range(52), 5)
        assert category5(best_five(hand)) == naive_category(hand)


def test_best_of_seven_is_the_best_of_its_twenty_one_fives() -> None:
    rng = random.Random(11)
    for _ in range(2_000):
        hand = rng.sample(range(52), 7)
        assert best_five(hand) == max(best_five(list(five)) for five in combinations(hand, 5))


def test_wheel_is_the_lowest_straight() -> None:
    assert category5(v("AS 2H 3D 4C 5S")) == hand7.STRAIGHT
    assert v("AS 2H 3D 4C 5S") < v("2S 3H 4D 5C 6S")


def test_royal_flush_is_the_top_straight_flush() -> None:
    assert v("AS KS QS JS TS 2C 3D") == ROYAL_FLUSH
    assert v("KS QS JS TS 9S") < ROYAL_FLUSH


def test_cards_beyond_the_best_five_do_not_count() -> None:
    assert v("AS AH KD QC JS 3D 2C") == v("AD AC KS QH JD 4S 3H")


def test_three_pairs_play_the_top_two_and_the_best_kicker() -> None:
    assert v("7H 7C 5D 5S 3S 3D AC") == v("7S 7D 5H 5C AD 2S 4H")


def test_two_trips_make_a_full_house() -> None:
    assert category5(v("7H 7C 7D 5S 5D 5C 2H")) == hand7.FULL_HOUSE
    assert v("7H 7C 7D 5S 5D 5C 2H") == v("7S 7H 7C 5H 5S AD KD")


def test_a_straight_flush_beats_a_higher_plain_straight_in_seven_cards() -> None:
    assert category5(v("5H 6H 7H 8H 9H TD JC")) == hand7.STRAIGHT_FLUSH


def test_a_flush_beats_a_straight_in_seven_cards() -> None:
    assert category5(v("2H 6H 7H 8H 9C TH JC")) == hand7.FLUSH


@pytest.mark.slow
def test_five_card_category_frequencies_match_the_published_counts() -> None:
    # Standard 5-card poker frequencies (e.g. Wikipedia "Poker probability"): of 2,598,960 hands
    # SF 40 (4 royal), quads 624, FH 3,744, flush 5,108, straight 10,200, trips 54,912,
    # two pair 123,552, pair 1,098,240, high card 1,302,540.
    counts = Counter(category5(best_five(h)) for h in combinations(range(52), 5))
    assert [counts[c] for c in range(8, -1, -1)] == [40, 624, 3744, 5108, 10200, 54912, 123552, 1098240, 1302540]
