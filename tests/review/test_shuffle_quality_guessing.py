"""Shuffle quality: the Diaconis-Fulman-Holmes guessing-with-feedback test."""

import random

import pytest

from tablectl.review.shuffle.common import ObservedShuffle
from tablectl.review.shuffle.guessing import guessing_test, harmonic
from tablectl.review.shuffle.models import riffles, shelf_shuffle, uniform_shuffle
from tablectl.review.shuffle.positions import position_test

DECK = list(range(52))
SHUFFLES = 200


def batch(shuffle, seed: int, *, seen: int = 52, shuffles: int = SHUFFLES) -> list[ObservedShuffle]:
    rng = random.Random(seed)
    return [ObservedShuffle(shuffle(DECK, rng)[:seen], DECK) for _ in range(shuffles)]


def test_uniform_shuffle_passes_near_the_harmonic_number() -> None:
    r = guessing_test(batch(uniform_shuffle, 1))
    assert r.verdict == "pass"
    assert r.expected == pytest.approx(harmonic(52))
    assert abs(r.figure - harmonic(52)) < 0.5


@pytest.mark.parametrize("times", [1, 2, 3])
def test_few_gsr_riffles_fail(times: int) -> None:
    r = guessing_test(batch(lambda d, rng: riffles(d, times, rng), 10 + times))
    assert r.verdict == "fail"
    assert r.figure > r.expected + 3


def test_one_pass_of_a_ten_shelf_machine_fails_with_about_twice_the_uniform_guesses() -> None:
    r = guessing_test(batch(shelf_shuffle, 2))
    assert r.verdict == "fail"
    assert r.figure > 8.0  # DFH report about 9.5 with their strategy; 4.54 for a perfect shuffle


def test_guessing_catches_the_shelf_machine_far_more_strongly_than_positions() -> None:
    shuffles = batch(shelf_shuffle, 12)
    guessing, positions = guessing_test(shuffles), position_test(shuffles)
    assert guessing.p_value is not None and positions.p_value is not None
    assert guessing.p_value < 1e-20 < positions.p_value


def test_the_guesser_learns_which_neighbour_to_call() -> None:
    r = guessing_test(batch(lambda d, rng: riffles(d, 1, rng), 3))
    assert "next unseen card after the last one" in r.detail


def test_hand_forming_prefix_counts_only_the_cards_dealt() -> None:
    r = guessing_test(batch(uniform_shuffle, 4, seen=25))
    assert r.verdict == "pass"
    assert r.expected == pytest.approx(harmonic(52) - harmonic(27))


def test_hand_forming_prefix_of_two_riffles_fails() -> None:
    assert guessing_test(batch(lambda d, rng: riffles(d, 2, rng), 5, seen=25)).verdict == "fail"


def test_a_handful_of_unshuffled_decks_fails_on_the_exact_tail() -> None:
    r = guessing_test([ObservedShuffle(DECK, DECK) for _ in range(2)])
    assert r.verdict == "fail"
    assert r.figure == 52


def test_without_any_input_order_it_is_not_applicable() -> None:
    r = guessing_test([ObservedShuffle(uniform_shuffle(DECK, random.Random(6)))])
    assert r.verdict == "n/a"


def test_a_shuffler_fed_back_in_dealt_order_is_tested_against_the_previous_output() -> None:
    rng = random.Random(7)
    order, logged = DECK, []
    for _ in range(SHUFFLES):
        order = riffles(order, 2, rng)
        logged.append(ObservedShuffle(order))  # input never logged
    assert guessing_test(logged).verdict == "n/a"
    r = guessing_test(logged, fed_back_in_output_order=True)
    assert r.verdict == "fail"
    assert r.samples == SHUFFLES - 1


def test_six_deck_shoe_shuffled_uniformly_passes() -> None:
    rng = random.Random(8)
    shoe = [c for c in range(52) for _ in range(6)]
    r = guessing_test([ObservedShuffle(uniform_shuffle(shoe, rng)[:250], shoe) for _ in range(20)])
    assert r.verdict == "pass"


def test_six_deck_shoe_riffled_three_times_fails() -> None:
    rng = random.Random(9)
    shoe = [c for c in range(52) for _ in range(6)]
    r = guessing_test([ObservedShuffle(riffles(shoe, 3, rng)[:250], shoe) for _ in range(20)])
    assert r.verdict == "fail"
    assert r.figure > r.expected


def test_a_card_that_did_not_go_in_is_rejected() -> None:
    with pytest.raises(ValueError, match="more often than it went in"):
        guessing_test([ObservedShuffle([0, 0], DECK)])
