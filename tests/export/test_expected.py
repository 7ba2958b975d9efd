"""The expected hold and its variance come from the game math's exact outcome counts."""

from __future__ import annotations

from fractions import Fraction

from tablectl.analytics.expected import moments, wager_math
from tablectl.analytics.floor.stats import fisher
from tablectl.gamemath.table import Tally


def test_moments_are_the_exact_mean_and_variance_of_the_outcomes() -> None:
    tally = Tally()
    tally.add("win", 1, 3)
    tally.add("lose", -1, 5)
    tally.add("big", Fraction(10), 2)
    edge, variance = moments(tally.analysis("demo", {}))
    mean = Fraction(3 - 5 + 20, 10)
    assert edge == float(-mean)
    assert variance == float(Fraction(3 + 5 + 200, 10) - mean * mean)


def test_pay_tables_in_force_change_the_expected_hold() -> None:
    default = {m.wager: m for m in wager_math("three-card-poker", 1, None)}
    richer = {"house_rules": {}, "pay_tables": {"pairplus": {"pair": 2}}}
    changed = {m.wager: m for m in wager_math("three-card-poker", 1, richer)}
    assert changed["pairplus"].edge < default["pairplus"].edge
    assert changed["ante"].edge == default["ante"].edge


def test_a_game_without_game_math_says_so() -> None:
    [found] = wager_math("no-such-game", 1, None)
    assert found.edge is None and "unknown game" in found.note


def test_fisher_combines_p_values() -> None:
    assert fisher([1.0, 1.0]) == 1.0
    assert abs(fisher([0.05]) - 0.05) < 1e-12  # one p-value is itself
    assert fisher([0.01, 0.01, 0.01]) < 0.001
