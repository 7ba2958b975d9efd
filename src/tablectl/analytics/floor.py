"""The floor report: per table, dealer and day, per seat and per shuffler, from the dataset
through DuckDB (the named queries ``floor_*``), judged against the game math.

A table, dealer, day or seat is *flagged* when the bank's result on the wagers the math analyses
lies more than its family's limit of standard deviations below what the math expects (the house
lost more than chance allows; above the band is reported, not flagged: players playing worse than
the math's strategy hand the house more). The standard deviation is the exact one of the rounds'
house results (``variance``: every wager's variance and the covariances between the bets of a
seat and between seats sharing a round). Tables, dealers, days and seats are four families of
many tests: each family's limit is the Bonferroni limit at family-wise ``alpha`` (the chance of
any false alarm in the family at most ``alpha``), never below ``z_limit``; the report states each
limit and the expected number of false alarms on an honest floor. A shuffler serial is flagged when its shuffle-quality p-values,
combined over the tables it served (Fisher's method), fall below ``p_limit``; a card-reading shoe
whose hand-shuffled shoes fail the same way is listed apart (``hand_shuffles``: the people
shuffling, not the machine).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tablectl.analytics.queries import Result, connect, make_cells, named_queries, run
from tablectl.analytics.stats import expected_false_alarms, family_limit, fisher

Z_LIMIT = 3.0
ALPHA = 0.05
P_LIMIT = 0.001
CORRECTION = "Bonferroni"
VARIANCE = "exact per round (game math: wager variances and covariances within a seat and between seats)"
FAMILIES = ("tables", "dealers", "days", "seats")


@dataclass(frozen=True)
class Alarms:
    """How one family of tests is judged: ``tests`` tested rows, the z ``limit`` and the expected
    number of false alarms among them if every row is honest."""

    tests: int
    limit: float
    expected_false_alarms: float


@dataclass
class FloorReport:
    """Everything ``tablectl floor`` shows."""

    dataset: str
    date_from: str | None
    date_to: str | None
    tables: Result
    dealers: Result
    days: Result
    seats: Result
    shufflers: Result
    math: Result
    z_limit: float = Z_LIMIT
    p_limit: float = P_LIMIT
    seconds: float = 0.0
    flagged: dict[str, list[str]] = field(default_factory=dict)
    table_days: Result | None = None  # per table and day, with the band (the hold plots of the HTML page)
    alpha: float = ALPHA
    alarms: dict[str, Alarms] = field(default_factory=dict)
    correction: str = CORRECTION
    variance: str = VARIANCE

    def limit(self, family: str) -> float:
        """The z limit of ``family`` (``tables``, ``dealers``, ``days``, ``seats``)."""
        found = self.alarms.get(family)
        return found.limit if found is not None else self.z_limit

    def expected_false_alarms(self) -> float:
        """The expected number of false alarms over all families on an honest floor."""
        return sum(a.expected_false_alarms for a in self.alarms.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            "dataset": self.dataset, "from": self.date_from, "to": self.date_to, "z_limit": self.z_limit,
            "alpha": self.alpha, "correction": self.correction, "variance": self.variance,
            "alarms": {k: vars(a) for k, a in self.alarms.items()},
            "expected_false_alarms": self.expected_false_alarms(), "p_limit": self.p_limit, "flagged": self.flagged, "tables": self.tables.dicts(),
            "dealers": self.dealers.dicts(), "days": self.days.dicts(), "seats": self.seats.dicts(),
            "shufflers": self.shufflers.dicts(), "math": self.math.dicts(), "seconds": self.seconds,
        }


def floor(root: Path, date_from: str | None = None, date_to: str | None = None, *,
          z_limit: float = Z_LIMIT, p_limit: float = P_LIMIT, alpha: float = ALPHA,
          warn: Callable[[str], None] | None = None) -> FloorReport:
    """The floor report of the dataset at ``root`` for days ``date_from``..``date_to`` (inclusive).
    ``z_limit`` (the least limit of any family) must be a positive finite number (ValueError
    otherwise: a nan would flag nothing); ``alpha``: the family-wise false-alarm rate, in (0, 1).
    ``warn``: told when the game math cannot be cached (``queries.connect``)."""
    if not (math.isfinite(z_limit) and z_limit > 0):
        raise ValueError(f"z_limit {z_limit!r}: not a positive finite number")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha {alpha!r}: not between 0 and 1")
    t0 = time.perf_counter()
    sql = named_queries()
    con = connect(root, warn)
    make_cells(con, date_from, date_to)
    raw = {k: run(con, sql[f"floor_{k}"]) for k in ("tables", "dealers", "days")}
    raw["seats"] = run(con, sql["floor_seats"], date_from, date_to)
    alarms = {k: judged(raw[k], alpha, z_limit) for k in FAMILIES}
    tables, dealers, days = (_banded(raw[k], alarms[k].limit) for k in ("tables", "dealers", "days"))
    seats = raw["seats"]
    shufflers = _combined(run(con, sql["floor_shufflers"], date_from, date_to))
    maths = run(con, "SELECT * FROM wager_math ORDER BY game, decks, rules_id, wager")
    report = FloorReport(str(root), date_from, date_to, tables, dealers, days, seats, shufflers, maths, z_limit, p_limit,
                         alpha=alpha, alarms=alarms)
    report.table_days = _banded(run(con, sql["floor_table_days"]), z_limit)
    report.flagged = {
        "tables": [r["table_id"] for r in tables.dicts() if _low(r, report.limit("tables"))],
        "dealers": [r["dealer"] for r in dealers.dicts() if _low(r, report.limit("dealers"))],
        "days": [str(r["date"]) for r in days.dicts() if _low(r, report.limit("days"))],
        "seats": [f"{r['table_id']}:{r['seat']}" for r in seats.dicts() if _low(r, report.limit("seats"))],
        "shufflers": _weak(shufflers, p_limit, "machine"),
        "hand_shuffles": _weak(shufflers, p_limit, "hand"),
    }
    report.seconds = time.perf_counter() - t0
    return report


def _weak(shufflers: Result, p_limit: float, shuffled_by: str) -> list[str]:
    return [r["serial"] for r in shufflers.dicts()
            if r["shuffled_by"] == shuffled_by and r["combined_p"] is not None and r["combined_p"] < p_limit]


def judged(result: Result, alpha: float, z_min: float) -> Alarms:
    """The family of ``result``'s rows with a z: its limit and expected false alarms."""
    tests = sum(1 for row in result.dicts() if row.get("z") is not None)
    limit = family_limit(tests, alpha, z_min)
    return Alarms(tests, limit, expected_false_alarms(tests, limit))


def flag_low(z_values: list[float | None], alpha: float = ALPHA, z_min: float = Z_LIMIT) -> list[bool]:
    """Which of one family's ``z_values`` (None: not tested) are flagged."""
    limit = family_limit(sum(z is not None for z in z_values), alpha, z_min)
    return [z is not None and z <= -limit for z in z_values]


def _low(row: dict[str, Any], z_limit: float) -> bool:
    return row.get("z") is not None and row["z"] <= -z_limit


def _banded(result: Result, z_limit: float) -> Result:
    """Add the hold band: the expected hold +- ``z_limit`` standard deviations (of the win, over
    the analysed handle)."""
    out = []
    for row in result.dicts():
        handle, sd, expected = row["judged_handle"], row["win_sd"], row["expected_hold"]
        if handle and sd is not None and expected is not None:
            low, high = expected - z_limit * sd / handle, expected + z_limit * sd / handle
        else:
            low = high = None
        out.append((*row.values(), low, high))
    return Result([*result.columns, "band_low", "band_high"], out)


def _combined(result: Result) -> Result:
    """Add each shuffler's Fisher-combined p-value."""
    rows = [(*row, fisher(list(row[result.columns.index("p_values")] or []))) for row in result.rows]
    return Result([*result.columns, "combined_p"], rows)
