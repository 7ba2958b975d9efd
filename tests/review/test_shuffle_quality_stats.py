"""Shuffle quality: the distribution functions, verdict thresholds and the result type."""

import json
import math
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tablectl.review.shuffle.common import (
    QualityResult,
    Thresholds,
    chi2_sf,
    gamma_q,
    normal_sf,
    poisson_binomial_sf,
    solve_quadratic_form,
)
from tablectl.review.shuffle.guessing import harmonic


@given(st.floats(min_value=0.0, max_value=200.0))
def test_chi2_on_two_df_is_an_exponential_tail(x: float) -> None:
    assert chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-9, abs=1e-300)


@given(st.integers(min_value=1, max_value=60), st.floats(min_value=0.01, max_value=150.0))
def test_gamma_q_at_integer_shape_is_a_poisson_sum(k: int, x: float) -> None:
    poisson = math.fsum(math.exp(-x + i * math.log(x) - math.lgamma(i + 1)) for i in range(k))
    assert gamma_q(k, x) == pytest.approx(poisson, rel=1e-9, abs=1e-14)


def test_chi2_critical_values_match_the_tables() -> None:
    assert chi2_sf(3.841458820694124, 1) == pytest.approx(0.05, rel=1e-9)
    assert chi2_sf(6.634896601021214, 1) == pytest.approx(0.01, rel=1e-9)
    assert chi2_sf(124.3421134, 100) == pytest.approx(0.05, rel=1e-6)


def test_chi2_with_many_df_is_centred_near_its_df() -> None:
    assert 0.45 < chi2_sf(2601, 2601) < 0.5
    assert chi2_sf(2601 + 3 * math.sqrt(2 * 2601), 2601) == pytest.approx(0.00135, rel=0.3)


def test_normal_tail_matches_the_tables() -> None:
    assert normal_sf(1.959963984540054) == pytest.approx(0.025, rel=1e-9)
    assert normal_sf(0.0) == 0.5


@given(st.lists(st.floats(min_value=0.0, max_value=1.0), max_size=8), st.integers(min_value=0, max_value=9))
def test_poisson_binomial_tail_matches_enumeration(probs: list[float], k: int) -> None:
    brute = 0.0
    for outcome in product((0, 1), repeat=len(probs)):
        if sum(outcome) >= k:
            brute += math.prod(p if o else 1 - p for p, o in zip(probs, outcome, strict=True))
    assert poisson_binomial_sf(probs, k) == pytest.approx(brute, abs=1e-12)


def test_quadratic_form_inverts_the_matrix() -> None:
    assert solve_quadratic_form([[2.0, 0.0], [0.0, 4.0]], [2.0, 4.0]) == pytest.approx(2.0 + 4.0)
    assert solve_quadratic_form([[2.0, 1.0], [1.0, 2.0]], [1.0, 1.0]) == pytest.approx(2 / 3)


def test_harmonic_52_is_the_uniform_expected_correct_guesses() -> None:
    assert harmonic(52) == pytest.approx(4.5380, abs=1e-4)


@pytest.mark.parametrize(
    ("p", "verdict"), [(0.5, "pass"), (0.01, "pass"), (0.0099, "warn"), (0.001, "warn"), (0.00099, "fail"), (None, "n/a")]
)
def test_default_thresholds_pass_from_one_percent_and_fail_below_a_tenth(p: float | None, verdict: str) -> None:
    assert Thresholds().verdict(p) == verdict


def test_thresholds_must_be_ordered() -> None:
    with pytest.raises(ValueError):
        Thresholds(warn_below=0.001, fail_below=0.01)


def test_result_serialises_to_json() -> None:
    r = QualityResult("x", 1.5, 1.0, 3.0, 0.2, "pass", "Fine.", 10)
    assert json.loads(json.dumps(r.to_dict())) == {
        "name": "x", "figure": 1.5, "expected": 1.0, "statistic": 3.0, "p_value": 0.2,
        "verdict": "pass", "detail": "Fine.", "samples": 10,
    }
