"""Holm's step-down and Benjamini-Hochberg's step-up decisions, and their bad input."""

from __future__ import annotations

import pytest

from tablectl.detection.multiple import benjamini_hochberg, holm

P = [0.01, 0.04, 0.03, 0.005]


def test_holm_stops_at_the_first_p_value_above_its_step() -> None:
    # sorted 0.005 <= .05/4, 0.01 <= .05/3, 0.03 > .05/2: stop
    assert holm(P, 0.05) == [True, False, False, True]


def test_benjamini_hochberg_rejects_up_to_the_largest_rank_under_its_line() -> None:
    # 0.04 <= 4 * .05 / 4: every test up to rank 4
    assert benjamini_hochberg(P, 0.05) == [True, True, True, True]


def test_holm_of_one_test_is_the_test_at_alpha() -> None:
    assert holm([0.009], 0.01) == [True] and holm([0.011], 0.01) == [False]


def test_a_p_value_outside_zero_to_one_is_named_by_position() -> None:
    with pytest.raises(ValueError, match=r"p-value #1 is 1.5"):
        holm([0.1, 1.5], 0.01)


def test_an_alpha_outside_zero_to_one_is_refused() -> None:
    with pytest.raises(ValueError, match=r"alpha 0: expected a level above 0 and below 1"):
        benjamini_hochberg([0.1], 0)
