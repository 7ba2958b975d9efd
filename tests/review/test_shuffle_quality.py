"""Shuffle quality: the review tool's entry points, and (slow) false-alarm rates and power."""

import json
import random

import pytest

from tablectl.review.shuffle.analyses import (
    ObservedShuffle,
    Thresholds,
    analyse_csm,
    analyse_shuffles,
    guessing_test,
    position_test,
    reentry_test,
)
from tablectl.review.shuffle.models import riffles, shelf_shuffle, simulate_csm, uniform_shuffle

DECK = list(range(52))


def test_batch_analysis_runs_the_position_and_guessing_tests() -> None:
    rng = random.Random(1)
    results = analyse_shuffles([ObservedShuffle(uniform_shuffle(DECK, rng), DECK) for _ in range(100)])
    assert [r.name for r in results] == ["card_position_chi_square", "dfh_guessing_with_feedback"]
    assert [r.verdict for r in results] == ["pass", "pass"]
    json.dumps([r.to_dict() for r in results])


def test_batch_analysis_can_assume_the_shuffler_is_fed_back_in_dealt_order() -> None:
    rng = random.Random(2)
    order, logged = DECK, []
    for _ in range(100):
        order = riffles(order, 3, rng)
        logged.append(ObservedShuffle(order))
    position, guessing = analyse_shuffles(logged, fed_back_in_output_order=True)
    assert guessing.verdict == "fail"
    assert "input position" in position.detail


def test_csm_analysis_runs_the_reentry_test() -> None:
    events = simulate_csm(random.Random(3), decks=2, rounds=100)
    (result,) = analyse_csm(events, decks=2)
    assert result.name == "csm_reentry_lag"
    assert result.verdict == "pass"


def test_thresholds_are_parameters() -> None:
    rng = random.Random(4)
    shuffles = [ObservedShuffle(riffles(DECK, 5, rng), DECK) for _ in range(100)]
    strict = guessing_test(shuffles, thresholds=Thresholds(warn_below=0.5, fail_below=0.4))
    lenient = guessing_test(shuffles, thresholds=Thresholds(warn_below=1e-30, fail_below=1e-40))
    assert (strict.verdict, lenient.verdict) == ("fail", "pass")


# --- slow: calibration and power --------------------------------------------------------------


def false_alarm_rate(p_values: list[float | None], level: float) -> float:
    return sum(p is not None and p < level for p in p_values) / len(p_values)


@pytest.mark.slow
def test_position_test_false_alarm_rate_matches_its_level() -> None:
    rng = random.Random(10)
    ps = [position_test([ObservedShuffle(uniform_shuffle(DECK, rng), DECK) for _ in range(50)]).p_value for _ in range(400)]
    assert false_alarm_rate(ps, 0.05) < 0.08
    assert false_alarm_rate(ps, 0.01) < 0.025


@pytest.mark.slow
def test_guessing_test_false_alarm_rate_matches_its_level() -> None:
    rng = random.Random(11)
    ps = [guessing_test([ObservedShuffle(uniform_shuffle(DECK, rng), DECK) for _ in range(50)]).p_value for _ in range(400)]
    assert false_alarm_rate(ps, 0.05) < 0.08
    assert false_alarm_rate(ps, 0.01) < 0.025


@pytest.mark.slow
@pytest.mark.parametrize("decks", [1, 6])
def test_reentry_test_false_alarm_rate_matches_its_level(decks: int) -> None:
    ps = [reentry_test(simulate_csm(random.Random(100 + s), decks=decks, rounds=150), decks=decks).p_value for s in range(200)]
    assert false_alarm_rate(ps, 0.05) < 0.09
    assert false_alarm_rate(ps, 0.01) < 0.03


@pytest.mark.slow
def test_guessing_test_catches_five_riffles_at_200_shuffles() -> None:
    verdicts = [
        guessing_test([ObservedShuffle(riffles(DECK, 5, rng), DECK) for _ in range(200)]).verdict
        for rng in (random.Random(s) for s in range(10))
    ]
    assert verdicts.count("fail") >= 9


@pytest.mark.slow
def test_two_shelf_passes_are_hard_to_tell_from_uniform_at_200_shuffles() -> None:
    """DFH's recommendation (two passes) holds up: the guessing test rarely fails it at this sample size."""
    verdicts = [
        guessing_test([ObservedShuffle(shelf_shuffle(DECK, rng, 10, 2), DECK) for _ in range(200)]).verdict
        for rng in (random.Random(s) for s in range(10))
    ]
    assert verdicts.count("fail") <= 3
