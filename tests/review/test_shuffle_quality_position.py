"""Shuffle quality: the card-position chi-square passes good shuffles and fails bad ones."""

import random

import pytest

from tablectl.review.shuffle.common import ObservedShuffle
from tablectl.review.shuffle.models import riffles, shelf_shuffle, uniform_shuffle
from tablectl.review.shuffle.positions import position_test

DECK = list(range(52))
SHUFFLES = 200


def batch(shuffle, seed: int, *, input_known: bool = True, seen: int = 52) -> list[ObservedShuffle]:
    """SHUFFLES shuffles of a deck fed in new-deck order, of which the first ``seen`` cards are logged."""
    rng = random.Random(seed)
    return [ObservedShuffle(shuffle(DECK, rng)[:seen], DECK if input_known else None) for _ in range(SHUFFLES)]


def test_uniform_shuffle_passes_with_a_ratio_near_one() -> None:
    r = position_test(batch(uniform_shuffle, 1))
    assert r.verdict == "pass"
    assert 0.85 < r.figure < 1.15
    assert "input position x output position" in r.detail


@pytest.mark.parametrize("times", [1, 2, 3])
def test_few_gsr_riffles_fail(times: int) -> None:
    r = position_test(batch(lambda d, rng: riffles(d, times, rng), 10 + times))
    assert r.verdict == "fail"
    assert r.figure > 1.5


def test_fewer_riffles_give_a_larger_statistic() -> None:
    figures = [position_test(batch(lambda d, rng, k=k: riffles(d, k, rng), 20)).figure for k in (1, 2, 3)]
    assert figures[0] > figures[1] > figures[2]


def test_a_machine_that_leaves_the_top_card_on_top_fails() -> None:
    def sticky_top(deck: list[int], rng: random.Random) -> list[int]:
        return [deck[0]] + uniform_shuffle(deck[1:], rng)

    assert position_test(batch(sticky_top, 2)).verdict == "fail"


def test_unknown_input_falls_back_to_card_by_position() -> None:
    r = position_test(batch(uniform_shuffle, 3, input_known=False))
    assert r.verdict == "pass"
    assert "card x output position" in r.detail


def test_card_by_position_still_fails_two_riffles_of_a_fresh_deck() -> None:
    assert position_test(batch(lambda d, rng: riffles(d, 2, rng), 4, input_known=False)).verdict == "fail"


def test_hand_forming_prefix_of_a_uniform_shuffle_passes() -> None:
    r = position_test(batch(uniform_shuffle, 5, seen=25))
    assert r.verdict == "pass"


def test_hand_forming_prefix_of_two_riffles_fails() -> None:
    assert position_test(batch(lambda d, rng: riffles(d, 2, rng), 6, seen=25)).verdict == "fail"


def test_six_deck_shoes_dealt_to_the_cut_card_pass_when_uniform() -> None:
    rng = random.Random(7)
    shoe = [c for c in range(52) for _ in range(6)]
    shoes = [ObservedShuffle(uniform_shuffle(shoe, rng)[: rng.randint(230, 260)]) for _ in range(30)]
    r = position_test(shoes, decks=6)
    assert r.verdict == "pass"


def test_too_few_cards_seen_is_not_applicable() -> None:
    r = position_test([ObservedShuffle(uniform_shuffle(DECK, random.Random(8))[:3], DECK)])
    assert r.verdict == "n/a"
    assert r.p_value is None


def test_a_card_that_did_not_go_in_is_rejected() -> None:
    with pytest.raises(ValueError, match="did not go in"):
        position_test([ObservedShuffle([0, 1, 2], [1, 2, 3])], mode="input")


def test_more_copies_than_the_decks_hold_is_rejected() -> None:
    with pytest.raises(ValueError, match="more than 1"):
        position_test([ObservedShuffle([5, 5])], decks=1)


def test_ten_shelf_machine_shows_only_weakly_in_positions() -> None:
    """DFH's point: the shelf machine nearly passes position tests (here chi2/df ~ 1.2 at 200 shuffles)."""
    r = position_test(batch(shelf_shuffle, 9))
    assert 1.0 < r.figure < 1.5
