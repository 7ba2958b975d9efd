"""The floor report: per table, dealer and day, per seat and per shuffler, from the dataset
through DuckDB (the named queries ``floor_*``), judged against the game math.

A table, dealer or day is *flagged* when the bank's result on the wagers the math analyses lies
more than ``z_limit`` standard deviations below what the math expects (the house lost more than
chance allows; above the band is reported, not flagged: players playing worse than the math's
strategy hand the house more). A shuffler serial is flagged when its shuffle-quality p-values,
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
from tablectl.analytics.stats import fisher

Z_LIMIT = 3.0
P_LIMIT = 0.001


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

    def to_dict(self) -> dict[str, Any]:
        return {
            "dataset": self.dataset, "from": self.date_from, "to": self.date_to, "z_limit": self.z_limit,
            "p_limit": self.p_limit, "flagged": self.flagged, "tables": self.tables.dicts(),
            "dealers": self.dealers.dicts(), "days": self.days.dicts(), "seats": self.seats.dicts(),
            "shufflers": self.shufflers.dicts(), "math": self.math.dicts(), "seconds": self.seconds,
        }


def floor(root: Path, date_from: str | None = None, date_to: str | None = None, *,
          z_limit: float = Z_LIMIT, p_limit: float = P_LIMIT, warn: Callable[[str], None] | None = None) -> FloorReport:
    """The floor report of the dataset at ``root`` for days ``date_from``..``date_to`` (inclusive).
    ``z_limit`` must be a positive finite number (ValueError otherwise: a nan would flag nothing).
    ``warn``: told when the game math cannot be cached (``queries.connect``)."""
    if not (math.isfinite(z_limit) and z_limit > 0):
        raise ValueError(f"z_limit {z_limit!r}: not a positive finite number")
    t0 = time.perf_counter()
    sql = named_queries()
    con = connect(root, warn)
    make_cells(con, date_from, date_to)
    tables, dealers, days = (_banded(run(con, sql[f"floor_{k}"]), z_limit) for k in ("tables", "dealers", "days"))
    seats = run(con, sql["floor_seats"], date_from, date_to)
    shufflers = _combined(run(con, sql["floor_shufflers"], date_from, date_to))
    maths = run(con, "SELECT * FROM wager_math ORDER BY game, decks, rules_id, wager")
    report = FloorReport(str(root), date_from, date_to, tables, dealers, days, seats, shufflers, maths, z_limit, p_limit)
    report.table_days = _banded(run(con, sql["floor_table_days"]), z_limit)
    report.flagged = {
        "tables": [r["table_id"] for r in tables.dicts() if _low(r, z_limit)],
        "dealers": [r["dealer"] for r in dealers.dicts() if _low(r, z_limit)],
        "days": [str(r["date"]) for r in days.dicts() if _low(r, z_limit)],
        "seats": [f"{r['table_id']}:{r['seat']}" for r in seats.dicts() if _low(r, z_limit)],
        "shufflers": _weak(shufflers, p_limit, "machine"),
        "hand_shuffles": _weak(shufflers, p_limit, "hand"),
    }
    report.seconds = time.perf_counter() - t0
    return report


def _weak(shufflers: Result, p_limit: float, shuffled_by: str) -> list[str]:
    return [r["serial"] for r in shufflers.dicts()
            if r["shuffled_by"] == shuffled_by and r["combined_p"] is not None and r["combined_p"] < p_limit]


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
