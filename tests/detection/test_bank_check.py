"""The bank position's results against its exact mean and variance."""

from __future__ import annotations

import pytest

from tablectl.analytics.detection import DetectionError, bank_check


def test_a_bank_winning_ten_standard_errors_over_its_mean_has_z_ten() -> None:
    check = bank_check([1.0] * 100, mean=0.0, variance=1.0)
    assert (check.rounds, check.total, check.expected) == (100, 100.0, 0.0)
    assert check.z == pytest.approx(10.0) and check.p_value < 1e-20


def test_a_bank_at_its_mean_is_not_remarkable() -> None:
    check = bank_check([0.5, -0.5] * 50, mean=0.0, variance=0.25)
    assert check.z == 0.0 and check.p_value == pytest.approx(0.5)


def test_a_variance_of_zero_is_refused_in_one_line() -> None:
    with pytest.raises(DetectionError, match="bank_check: mean 0.0 and variance 0.0"):
        bank_check([1.0], 0.0, 0.0)
