"""The floor's p-values from each wager's exact distribution: honest groups heavy in long shots
(150:1 and 200:1 ties, a 200:1 mini royal, a 1000:1 six-card royal) are flagged at most at the
level asked, where a normal z over-flags them; a seat that won two 150:1 ties is not flagged and a
group far beyond chance still is. Bigger draws: ``pytest -n 0 -m slow tests/export/test_floor_tails.py``."""

from __future__ import annotations

import itertools
import math
from statistics import NormalDist

import numpy as np
import pytest

from tablectl.analytics.dataset.queries import Result
from tablectl.analytics.expected import wager_math
from tablectl.analytics.floor.report import Alarms, flagged_row, judged
from tablectl.analytics.floor.tails import Kind, lower_tail, moments, saddlepoint_tail, tails, upper_tail


def _outcomes(game: str, wager: str) -> tuple[tuple[float, float], ...]:
    return next(w.outcomes for w in wager_math(game, None, None) if w.wager == wager)


def _tie() -> tuple[tuple[float, float], ...]:
    return _outcomes("one-card-poker", "tie")


#: honest groups heavy in long shots: (name, kinds)
GROUPS = {
    "284 One Card Poker Tie bets": lambda: [Kind(284, 5, _tie())],
    "a seat's primary at 25 and Tie at 5": lambda: [Kind(300, 25, _outcomes("one-card-poker", "primary")),
                                                    Kind(300, 5, _tie())],
    "400 Florida Pair Plus bets": lambda: [Kind(400, 10, _outcomes("three-card-poker-florida", "pairplus"))],
    "500 Six Card Bonus bets": lambda: [Kind(500, 5, _outcomes("three-card-poker", "six-card-bonus"))],
    "a table's 6,000 Six Card Bonus and Pair Plus bets at two stakes (a coarsened lattice)": lambda: [
        Kind(4000, 5, _outcomes("three-card-poker", "six-card-bonus")), Kind(2000, 25, _outcomes("three-card-poker", "pairplus"))],
}


def _draw(kinds: list[Kind], groups: int, rng: np.random.Generator) -> np.ndarray:
    """The bank's result of ``groups`` honest groups, each wager drawn from its exact distribution."""
    total = np.zeros(groups)
    for k in kinds:
        values = np.array([v for v, _ in k.outcomes])
        probs = np.array([p for _, p in k.outcomes])
        counts = rng.multinomial(k.count, probs / probs.sum(), size=groups)
        total += k.stake * counts @ values
    return total


def _flagged_shares(kinds: list[Kind], groups: int, alpha: float, seed: int) -> tuple[float, float]:
    """(share flagged by the exact-tail p, share flagged by a normal z) at level ``alpha``."""
    mean, var = moments(kinds)
    results = _draw(kinds, groups, np.random.default_rng(seed))
    values, counts = np.unique(results, return_counts=True)
    zs = (values - mean) / math.sqrt(var)
    ps = tails(kinds, [float(z) for z in zs])
    by_p = sum(n for p, n in zip(ps, counts, strict=True) if p <= alpha)
    by_z = sum(n for z, n in zip(zs, counts, strict=True) if NormalDist().cdf(float(z)) <= alpha)
    return by_p / groups, by_z / groups


def _within_chance(share: float, alpha: float, groups: int) -> bool:
    return share <= alpha + 3 * math.sqrt(alpha * (1 - alpha) / groups)


@pytest.mark.parametrize("name", GROUPS)
def test_honest_long_shot_groups_are_flagged_at_most_alpha(name: str) -> None:
    kinds, groups, alpha = GROUPS[name](), 4000, 0.01
    by_p, _ = _flagged_shares(kinds, groups, alpha, seed=1)
    assert _within_chance(by_p, alpha, groups), (name, by_p)


def test_a_normal_z_over_flags_honest_tie_bettors_that_the_exact_tail_does_not() -> None:
    kinds, groups, alpha = GROUPS["284 One Card Poker Tie bets"](), 4000, 0.001
    by_p, by_z = _flagged_shares(kinds, groups, alpha, seed=2)
    assert _within_chance(by_p, alpha, groups)
    assert not _within_chance(by_z, alpha, groups), by_z


@pytest.mark.slow
@pytest.mark.parametrize("name", GROUPS)
def test_many_honest_long_shot_groups_are_flagged_at_most_alpha_at_three_levels(name: str) -> None:
    kinds, groups = GROUPS[name](), 200_000
    for alpha in (0.01, 0.001, 0.0001):
        by_p, by_z = _flagged_shares(kinds, groups, alpha, seed=3)
        print(f"{name}: alpha {alpha}: flagged by p {by_p:.5f}, by a normal z {by_z:.5f}")
        assert _within_chance(by_p, alpha, groups), (name, alpha, by_p)


def test_the_seat_that_won_two_150_to_1_ties_in_284_tie_bets_is_not_flagged() -> None:
    primary, tie = _outcomes("one-card-poker", "primary"), _tie()
    # two triple ties paid 150:1 on 5 each, 282 Tie bets lost; the primary wagers won 40 units over the mean
    kinds = [Kind(284, 25, primary), Kind(284, 5, tie)]
    mean, var = moments(kinds)
    result = 25 * (284 * -sum(v * p for v, p in primary) - 40) + 5 * (282 - 2 * 150)
    z = (result - mean) / math.sqrt(var)
    p = lower_tail(kinds, z)
    seats = judged(Result(["seat", "z"], [(i, -1.0) for i in range(100)]), 0.05, 3.0)
    assert p > seats.p_limit and not flagged_row({"z": z, "p": p}, seats)
    assert NormalDist().cdf(z) < p  # the normal reads it as rarer than it is


def test_a_seat_far_beyond_chance_is_still_flagged() -> None:
    tie = _tie()
    kinds = [Kind(284, 5, tie)]
    mean, var = moments(kinds)
    result = 5 * (278 - 6 * 150)  # six triple ties in 284 bets: 0.1 expected
    z = (result - mean) / math.sqrt(var)
    p = lower_tail(kinds, z)
    seats = judged(Result(["seat", "z"], [(i, -1.0) for i in range(100)]), 0.05, 3.0)
    assert p < 1e-5 and flagged_row({"z": z, "p": p}, seats)


def test_the_exact_tail_of_three_tie_bets_is_their_enumerated_sum() -> None:
    tie = _tie()
    kinds = [Kind(3, 5, tie)]
    mean, var = moments(kinds)
    for target in (-1000.0, -745.0, -30.0, 15.0):
        expected = sum(pa * pb * pc for (a, pa), (b, pb), (c, pc) in itertools.product(tie, repeat=3)
                       if 5 * (a + b + c) <= target + 1e-9)
        assert lower_tail(kinds, (target - mean) / math.sqrt(var)) == pytest.approx(expected, rel=1e-9, abs=1e-12)


def test_the_saddlepoint_agrees_with_the_exact_convolution_in_the_far_tail() -> None:
    kinds = [Kind(3000, 1, _outcomes("one-card-poker", "primary")), Kind(3000, 1, _tie())]
    mean, var = moments(kinds)
    for z in (-3.0, -4.0, -5.0):
        exact = lower_tail(kinds, z)
        assert saddlepoint_tail(kinds, mean + z * math.sqrt(var), True) == pytest.approx(exact, rel=0.15)
        assert exact > NormalDist().cdf(z)  # the long shots fatten the bank's lower tail


def test_a_player_bank_too_far_above_its_band_has_a_small_upper_tail() -> None:
    kinds = [Kind(20_000, 1, _outcomes("one-card-poker", "primary")), Kind(5_000, 1, _tie())]
    assert upper_tail(kinds, 5.0) < 1e-5 and upper_tail(kinds, 0.0) == pytest.approx(0.5, abs=0.02)


def test_a_family_p_limit_is_alpha_over_its_tests_and_never_beyond_the_least_z() -> None:
    many = judged(Result(["seat", "z"], [(i, 0.0) for i in range(500)]), 0.05, 3.0)
    few = judged(Result(["seat", "z"], [(i, 0.0) for i in range(4)]), 0.05, 3.0)
    assert many.p_limit == pytest.approx(0.05 / 500) and few.p_limit == pytest.approx(NormalDist().cdf(-3.0))
    assert many.tests * many.p_limit <= 0.05
    assert not flagged_row({"z": -2.9, "p": 1e-9}, Alarms(4, 3.0, 0.0, 0.01, 3.0))
