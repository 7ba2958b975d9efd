"""The floor report: per table, dealer and day, per seat and per shuffler, from the dataset
through DuckDB (the named queries ``floor_*``), judged against the approved game math
(``tablectl.analytics.approved``): every round against the math of the approved set of its game.

A house-banked table, a dealer or a day is *flagged* when the bank's result on the wagers the
math analyses lies more than ``z_limit`` standard deviations below what the math expects (the
house lost more than chance allows; above the band is reported, not flagged: players playing
worse than the math's strategy hand the house more). A player-banked table (a Designated Player
or player-dealer banks; the house has no interest in the play) is judged from the bank's
position and flagged outside the band either way: below it with the tables, above it as
``player_banks`` (a bank beating the players far beyond chance; players playing worse than the
math's strategy do that too, so the finding asks for a look at the play). The days total the house's own games; player banks are reported apart.
A table whose logged rules no approved set has, or whose rules change within a day, is flagged
(``flagged["rules"]``, the findings in ``rules``); rounds under a rule the math does not model
are reported *not judged*. A shuffler serial is flagged when its shuffle-quality p-values,
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

from tablectl.analytics.approved import Approved, default_path, rules_findings
from tablectl.analytics.approved import load as load_approved
from tablectl.analytics.dataset import load_rules
from tablectl.analytics.queries import Result, connect, make_cells, named_queries, run
from tablectl.analytics.stats import fisher

Z_LIMIT = 3.0
P_LIMIT = 0.001
RULES_COLUMNS = ("table", "date", "finding", "rules_id", "detail", "rounds", "seq_from", "seq_to")


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
    rules: Result = field(default_factory=lambda: Result(list(RULES_COLUMNS), []))
    approved: str = ""  # the approved math's file
    house_revenue: list[str] = field(default_factory=list)  # what the house earns at player-banked tables

    def to_dict(self) -> dict[str, Any]:
        return {
            "dataset": self.dataset, "from": self.date_from, "to": self.date_to, "z_limit": self.z_limit,
            "p_limit": self.p_limit, "flagged": self.flagged, "approved": self.approved,
            "house_revenue": self.house_revenue, "rules": self.rules.dicts(), "tables": self.tables.dicts(),
            "dealers": self.dealers.dicts(), "days": self.days.dicts(), "seats": self.seats.dicts(),
            "shufflers": self.shufflers.dicts(), "math": self.math.dicts(), "seconds": self.seconds,
        }


def floor(root: Path, date_from: str | None = None, date_to: str | None = None, *,
          z_limit: float = Z_LIMIT, p_limit: float = P_LIMIT, warn: Callable[[str], None] | None = None,
          approved: Path | None = None, progress: Callable[[str], None] | None = None) -> FloorReport:
    """The floor report of the dataset at ``root`` for days ``date_from``..``date_to`` (inclusive).
    ``z_limit`` must be a positive finite number (ValueError otherwise: a nan would flag nothing).
    ``warn``: told when the game math cannot be cached (``queries.connect``). ``approved``: the
    approved math's file (None: the dataset's own, else the shipped one; ``ApprovedError`` if it
    is not usable). ``progress``: told while game math that takes minutes is computed."""
    if not (math.isfinite(z_limit) and z_limit > 0):
        raise ValueError(f"z_limit {z_limit!r}: not a positive finite number")
    t0 = time.perf_counter()
    sql = named_queries()
    approved_path = approved or default_path(root)
    approved_math = load_approved(approved_path)
    con = connect(root, warn, approved_math, progress)
    make_cells(con, date_from, date_to)
    spans = run(con, sql["floor_rules"], date_from, date_to).dicts()
    findings = rules_findings(approved_math, load_rules(root), spans)
    tables = _with_rules(_banded(run(con, sql["floor_tables"]), z_limit), spans, findings)
    dealers, days = (_banded(run(con, sql[f"floor_{k}"]), z_limit) for k in ("dealers", "days"))
    seats = run(con, sql["floor_seats"], date_from, date_to)
    shufflers = _combined(run(con, sql["floor_shufflers"], date_from, date_to))
    maths = run(con, "SELECT * FROM wager_math ORDER BY game, decks, rules_id, wager")
    report = FloorReport(str(root), date_from, date_to, tables, dealers, days, seats, shufflers, maths, z_limit, p_limit)
    report.rules = Result(list(RULES_COLUMNS), [tuple(f[c] for c in RULES_COLUMNS) for f in findings])
    report.approved = str(approved_path)
    report.house_revenue = house_revenue(approved_math, tables.dicts())
    report.flagged = {
        "tables": [r["table"] for r in tables.dicts() if _low(r, z_limit)],
        "player_banks": [r["table"] for r in tables.dicts()
                         if r.get("bank") == "player" and r.get("z") is not None and r["z"] >= z_limit],
        "rules": sorted({f["table"] for f in findings if f["finding"] in ("not approved", "changed")}),
        "not_judged": sorted({f["table"] for f in findings if f["finding"] == "not judged"}),
        "dealers": [r["dealer"] for r in dealers.dicts() if _low(r, z_limit)],
        "days": [str(r["date"]) for r in days.dicts() if _low(r, z_limit)],
        "seats": [f"{r['table']}:{r['seat']}" for r in seats.dicts() if _low(r, z_limit)],
        "shufflers": _weak(shufflers, p_limit, "machine"),
        "hand_shuffles": _weak(shufflers, p_limit, "hand"),
    }
    report.seconds = time.perf_counter() - t0
    return report


def outside_band(row: dict[str, Any], z_limit: float) -> bool:
    """Whether a table's row is flagged: a house bank below the band, a player bank outside it."""
    if row.get("z") is None:
        return False
    return abs(row["z"]) >= z_limit if row.get("bank") == "player" else row["z"] <= -z_limit


def house_revenue(approved: Approved, tables: list[dict[str, Any]]) -> list[str]:
    """What the house earns at the player-banked tables: the collection fee its approved set
    names, per round, or none (said so)."""
    out = []
    for game in sorted({t["game"] for t in tables if t.get("bank") == "player"}):
        rounds = sum(t["rounds"] for t in tables if t["game"] == game)
        fees = {s.collection for s in approved.of_game(game)}
        if fees - {None, 0} and len(fees) == 1:
            fee = fees.pop() or 0
            out.append(f"{game}: player-banked; the house's revenue is the collection, {rounds:,} rounds x "
                       f"{fee / 100:,.2f} = {rounds * fee / 100:,.2f}")
        else:
            out.append(f"{game}: player-banked; the house's revenue: none (no collection fee in the approved math); "
                       f"the bank's result, {rounds:,} rounds, is not the house's win")
    return out


def _with_rules(result: Result, spans: list[dict[str, Any]], findings: list[dict[str, Any]]) -> Result:
    """Add each table's rules ids and its rules mark (approved, not approved, changed, not judged)."""
    ids: dict[str, list[str]] = {}
    for s in spans:
        ids.setdefault(s["table"], [])
        if s["rules_id"] not in ids[s["table"]]:
            ids[s["table"]].append(s["rules_id"])
    marks: dict[str, set[str]] = {}
    for f in findings:
        marks.setdefault(f["table"], set()).add("rules changed" if f["finding"] == "changed" else f["finding"])
    rows = [(*row, ", ".join(ids.get(row[0], [])), ", ".join(sorted(marks.get(row[0], ()))) or "approved")
            for row in result.rows]
    return Result([*result.columns, "rules_ids", "rules"], rows)


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
