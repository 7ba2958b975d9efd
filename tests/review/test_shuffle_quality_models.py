"""Shuffle quality: the reference shuffle models (GSR riffle, shelf shuffler, CSM carousel)."""

import random
from collections import Counter

import pytest

from tablectl.review.shuffle.models import gsr_riffle, riffles, shelf_shuffle, simulate_csm, uniform_shuffle

DECK = list(range(52))


def rising_sequences(out: list[int]) -> int:
    """Maximal runs of consecutive input positions appearing in increasing output positions."""
    where = {c: i for i, c in enumerate(out)}
    return 1 + sum(where[c + 1] < where[c] for c in range(len(out) - 1))


def test_uniform_shuffle_permutes_without_touching_the_input() -> None:
    deck = list(DECK)
    out = uniform_shuffle(deck, random.Random(1))
    assert deck == DECK
    assert sorted(out) == DECK and out != DECK


@pytest.mark.parametrize("times", [1, 2, 3])
def test_k_gsr_riffles_leave_at_most_two_to_the_k_rising_sequences(times: int) -> None:
    rng = random.Random(times)
    for _ in range(50):
        out = riffles(DECK, times, rng)
        assert sorted(out) == DECK
        assert rising_sequences(out) <= 2**times


def test_one_gsr_riffle_leaves_n_cards_in_order_with_chance_n_plus_one_over_two_to_the_n() -> None:
    rng = random.Random(7)
    trials = 8000
    unchanged = sum(gsr_riffle([0, 1, 2], rng) == [0, 1, 2] for _ in range(trials))
    assert abs(unchanged / trials - 4 / 8) < 0.02  # (3 + 1) / 2**3; each other riffle 1/8


def test_a_one_shelf_machine_makes_a_single_peak_in_input_order() -> None:
    rng = random.Random(3)
    for _ in range(50):
        out = shelf_shuffle(DECK, rng, shelves=1)
        top = out.index(51)
        assert out[: top + 1] == sorted(out[: top + 1])
        assert out[top:] == sorted(out[top:], reverse=True)


def test_a_ten_shelf_machine_makes_at_most_ten_peaks() -> None:
    rng = random.Random(4)
    for _ in range(50):
        out = shelf_shuffle(DECK, rng, shelves=10)
        assert sorted(out) == DECK
        runs_up_after_down = sum(out[i - 1] > out[i] < out[i + 1] for i in range(1, 51))
        assert runs_up_after_down <= 9  # ten unimodal piles stacked: at most nine valleys


def test_csm_stream_only_returns_cards_that_were_dispensed() -> None:
    events = simulate_csm(random.Random(5), decks=2, rounds=50)
    out: Counter[int] = Counter()
    assert [e.index for e in events] == list(range(len(events)))
    for e in events:
        if e.kind == "dispense":
            out[e.card] += 1
            assert out[e.card] <= 2
        else:
            assert out[e.card] > 0
            out[e.card] -= 1


def test_near_exit_carousel_gives_returned_cards_straight_back() -> None:
    events = simulate_csm(random.Random(6), decks=1, rounds=100, cards_per_round=(3, 10), mode="near_exit", lag=8)
    since_return: dict[int, int] = {}
    lags = []
    for e in events:
        if e.kind == "return":
            since_return[e.card] = 0
        else:
            for c in since_return:
                since_return[c] += 1
            if e.card in since_return:
                lags.append(since_return.pop(e.card))
    assert lags and max(lags) <= 8 + 10  # due within 8, delayed at most by parked cards due at once
