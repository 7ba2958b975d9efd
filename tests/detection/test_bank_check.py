"""The bank position's results against its exact mean and variance."""

from __future__ import annotations

import pytest

from tablectl.detection.screen import DetectionError, bank_check


def test_a_bank_winning_ten_standard_errors_over_its_mean_has_z_ten() -> None:
    check = bank_check([1.0] * 100, mean=0.0, variance=1.0)
    assert (check.rounds, check.total, check.expected) == (100, 100.0, 0.0)
    assert check.z == pytest.approx(10.0) and check.p_value < 1e-20


def test_a_bank_at_its_mean_is_not_remarkable() -> None:
    check = bank_check([0.5, -0.5] * 50, mean=0.0, variance=0.25)
    assert check.z == 0.0 and check.p_value == pytest.approx(0.5)


def test_a_variance_of_zero_is_refused_in_one_line() -> None:
    with pytest.raises(DetectionError, match="bank_check: round #0: mean 0.0 and variance 0.0"):
        bank_check([1.0], 0.0, 0.0)


def test_rounds_of_different_stakes_sum_their_own_means_and_variances() -> None:
    check = bank_check([3.0, -1.0], mean=[0.5, 0.5], variance=[4.0, 5.0])
    assert check.expected == 1.0 and check.z == pytest.approx(1.0 / 3.0)


def test_a_result_count_unlike_the_means_is_refused_in_one_line() -> None:
    with pytest.raises(DetectionError, match="bank_check: 2 results, 1 means, 1 variances"):
        bank_check([1.0, 2.0], mean=[0.0], variance=[1.0])


def test_a_one_card_poker_dp_against_two_seats_carries_their_covariance() -> None:
    from tablectl.analytics.bank import round_moments
    from tablectl.analytics.expected import wager_math
    from tablectl.analytics.variance import covariances

    primary = next(w for w in wager_math("one-card-poker", 6, None) if w.wager == "primary")
    cov = next(c.covariance for c in covariances("one-card-poker", 6, None) if (c.wager_a, c.wager_b, c.seats) == ("primary", "primary", "other"))
    mean, variance = round_moments("one-card-poker", {(1, "primary"): 5.0, (2, "primary"): 5.0}, decks=6)
    assert mean == pytest.approx(10 * primary.edge)
    assert variance == pytest.approx(25 * (2 * primary.variance + 2 * cov))


def test_a_wager_without_math_is_named_with_its_seat() -> None:
    from tablectl.analytics.bank import BankMathError, round_moments

    with pytest.raises(BankMathError, match="one-card-poker: seat 2's 'bonus': no exact edge and variance"):
        round_moments("one-card-poker", {(2, "bonus"): 1.0}, decks=6)
