"""The floor's alarm control: many honest dealers, judged together, raise no alarm by chance."""

from __future__ import annotations

from statistics import NormalDist

from tablectl.analytics.dataset.queries import Result
from tablectl.analytics.floor.report import Z_LIMIT, flagged_row, judged


def test_the_alarm_correction_flags_nothing_on_a_null_floor_where_uncorrected_z_flags_some() -> None:
    dealers = 1000
    # an honest floor: the dealers' z at the normal quantiles, as chance spreads them
    zs: list[float | None] = [NormalDist().inv_cdf((i + 0.5) / dealers) for i in range(dealers)]
    assert sum(z is not None and z <= -Z_LIMIT for z in zs) >= 1  # the uncorrected limit flags some
    family = judged(Result(["dealer", "z"], [(f"D-{i}", z) for i, z in enumerate(zs)]), 0.05, Z_LIMIT)
    assert not any(flagged_row({"z": z}, family) for z in zs)
    assert family.tests == dealers and family.limit > -min(z for z in zs if z is not None)
    assert family.expected_false_alarms <= 0.05
