"""Shuffle quality: the continuous shuffler re-entry lag test."""

import random

import pytest

from tablectl.review.shuffle.reentry import reentry_test
from tablectl.review.shuffle.common import CsmEvent
from tablectl.review.shuffle.models import simulate_csm


def stream(mode: str, seed: int, decks: int, lag: int | None = None) -> list[CsmEvent]:
    per_round = (3, 12) if decks == 1 else (4, 16)
    return simulate_csm(random.Random(seed), decks=decks, rounds=200, cards_per_round=per_round, mode=mode, lag=lag)  # type: ignore[arg-type]


@pytest.mark.parametrize("decks", [1, 6])
def test_uniform_csm_passes_with_about_a_fifth_returning_early(decks: int) -> None:
    r = reentry_test(stream("uniform", 1, decks), decks=decks)
    assert r.verdict == "pass"
    assert 0.18 < r.figure < 0.26  # geometric lag: 1 - exp(-1/4) = 22% within a quarter of its mean
    assert abs(r.figure - r.expected) < 0.03


@pytest.mark.parametrize("decks", [1, 6])
def test_carousel_parking_returns_near_the_exit_fails_with_too_many_early(decks: int) -> None:
    r = reentry_test(stream("near_exit", 2, decks, lag=8), decks=decks)
    assert r.verdict == "fail"
    assert r.figure > r.expected + 0.15


@pytest.mark.parametrize("decks", [1, 6])
def test_carousel_holding_returns_away_from_the_exit_fails_with_too_few_early(decks: int) -> None:
    r = reentry_test(stream("far_from_exit", 3, decks), decks=decks)
    assert r.verdict == "fail"
    assert r.figure < r.expected


def test_without_returns_it_is_not_applicable() -> None:
    r = reentry_test([CsmEvent("dispense", 5, 0), CsmEvent("dispense", 6, 1)], decks=1)
    assert r.verdict == "n/a"


def test_events_are_taken_in_index_order() -> None:
    events = stream("near_exit", 4, 1, lag=8)
    shuffled = list(events)
    random.Random(0).shuffle(shuffled)
    assert reentry_test(shuffled, decks=1) == reentry_test(events, decks=1)


def test_dispensing_a_card_with_no_copy_inside_is_rejected() -> None:
    with pytest.raises(ValueError, match="no copy is inside"):
        reentry_test([CsmEvent("dispense", 5, 0), CsmEvent("dispense", 5, 1)], decks=1)


def test_returning_a_card_that_never_left_is_rejected() -> None:
    with pytest.raises(ValueError, match="already inside"):
        reentry_test([CsmEvent("return", 5, 0)], decks=1)


def test_cards_already_out_at_the_start_may_be_returned() -> None:
    events = [CsmEvent("return", 5, 0), CsmEvent("dispense", 7, 1), CsmEvent("dispense", 5, 2)]
    r = reentry_test(events, decks=1, outside_at_start=[5])
    assert r.samples == 1
    assert r.figure == 1.0  # out again at the second dispense: well within a quarter of 52
