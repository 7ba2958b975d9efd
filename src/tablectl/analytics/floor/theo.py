"""The floor's judgement against the theoretical win from the play made (pure): per table, dealer
and day, ``theo_z`` = (win - sum theo_win) / sqrt(sum theo_var) over the house-banked rounds whose
theo_var is known (``queries/floor_rollup.sql``; a player bank's capped stake makes its expected
result differ from theo_win), judged *both ways* as one family of its own (``theo``).

A result far above what the players' own decisions explain (the house won more: a dealer
short-paying, a pay table below the one logged) is as much a finding as one far below (the house
lost more: past-posting, a player or dealer in league with a seat). Every row with a ``theo_z`` is
two tests, one each side; the family's limit is the Bonferroni limit at family-wise ``alpha``
(``stats.family_limit``), never below ``z_min``, like the floor's other families.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tablectl.analytics.dataset.queries import Result
from tablectl.analytics.floor.stats import expected_false_alarms, family_limit

FAMILY = "theo"
#: group -> (the key naming a row, the flagged list's name)
GROUPS = {"tables": ("table_id", "theo_tables"), "dealers": ("dealer", "theo_dealers"), "days": ("date", "theo_days")}


def tests(results: Mapping[str, Result]) -> int:
    """How many tests the family makes: two per row (of any group) with a theo_z."""
    return 2 * sum(1 for group in GROUPS for row in results[group].dicts() if row.get("theo_z") is not None)


def limit(results: Mapping[str, Result], alpha: float, z_min: float) -> tuple[int, float, float]:
    """(tests, z limit, expected false alarms on an honest floor) of the family."""
    n = tests(results)
    z = family_limit(n, alpha, z_min)
    return n, z, expected_false_alarms(n, z)


def outside(row: Mapping[str, Any], z_limit: float) -> bool:
    """Whether a row's result lies beyond ``z_limit`` standard deviations of its theo, either side."""
    z = row.get("theo_z")
    return z is not None and abs(z) >= z_limit


def flagged(results: Mapping[str, Result], z_limit: float) -> dict[str, list[str]]:
    """The flagged names of each group (``theo_tables``, ``theo_dealers``, ``theo_days``)."""
    return {name: [str(row[key]) for row in results[group].dicts() if outside(row, z_limit)]
            for group, (key, name) in GROUPS.items()}


__all__ = ["FAMILY", "GROUPS", "flagged", "limit", "outside", "tests"]
