"""The floor report: per table, dealer and day, per seat, per player and per shuffler, from the dataset
through DuckDB (the named queries ``floor_*``), judged against the approved game math
(``tablectl.analytics.approved``): every round against the math of the approved set of its game.

A house-banked table, a dealer, a day or a seat is *flagged* when the bank's result on the wagers
the math analyses lies more than its family's limit of standard deviations below what the math
expects (the house lost more than chance allows; above the band is reported, not flagged: players
playing worse than the math's strategy hand the house more). A player-banked table (a Designated
Player or player-dealer banks; the house has no interest in the play) is judged from the bank's
position in a family of its own (``player_banks``) and flagged outside its band either way: below
it, the bank lost more than chance allows; above it, the bank beat the players far beyond chance
(players playing worse than the math's strategy do that too, so the finding asks for a look at
the play). The days total the house's own games; player banks are reported apart.
The standard deviation is the exact one of the rounds' house results (``variance``: every wager's
variance and the covariances between the bets of a seat and between seats sharing a round).
Tables, player banks, dealers, days and seats are families of many tests: each family's limit is
the Bonferroni limit at family-wise ``alpha`` (the chance of any false alarm in the family at most
``alpha``; a player bank is two tests, one each side), never below ``z_limit``; the report states
each limit and the expected number of false alarms on an honest floor.
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

from tablectl.analytics.approved import STAKE_LIMIT_BINDS, default_path, rules_findings
from tablectl.analytics.approved import load as load_approved
from tablectl.analytics.dataset import load_rules
from tablectl.analytics.queries import Result, connect, make_cells, named_queries, run
from tablectl.analytics.stats import expected_false_alarms, family_limit, fisher

Z_LIMIT = 3.0
ALPHA = 0.05
P_LIMIT = 0.001
RULES_COLUMNS = ("table_id", "date", "finding", "rules_id", "detail", "rounds", "first_round", "last_round",
                 "seq_from", "seq_to", "round_span")
CORRECTION = "Bonferroni"
VARIANCE = "exact per round (game math: wager variances and covariances within a seat and between seats)"
FAMILIES = ("tables", "player_banks", "dealers", "days", "seats")
PLAYER_COLUMNS = ("player", "tables", "rounds", "handle", "player_net", "expected_player_net", "theo_win", "win",
                  "edge_as_played")


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
    rules: Result = field(default_factory=lambda: Result(list(RULES_COLUMNS), []))
    approved: str = ""  # the approved math's file
    house_revenue: list[str] = field(default_factory=list)  # what the house earns at player-banked tables
    table_days: Result | None = None  # per table and day, with the band (the hold plots of the HTML page)
    players: Result = field(default_factory=lambda: Result(list(PLAYER_COLUMNS), []))  # per player the pit entered
    alpha: float = ALPHA
    alarms: dict[str, Alarms] = field(default_factory=dict)
    correction: str = CORRECTION
    variance: str = VARIANCE

    def limit(self, family: str) -> float:
        """The z limit of ``family`` (``tables``, ``player_banks``, ``dealers``, ``days``, ``seats``)."""
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
            "expected_false_alarms": self.expected_false_alarms(), "p_limit": self.p_limit, "flagged": self.flagged,
            "approved": self.approved, "house_revenue": self.house_revenue, "rules": self.rules.dicts(),
            "tables": self.tables.dicts(),
            "dealers": self.dealers.dicts(), "days": self.days.dicts(), "seats": self.seats.dicts(),
            "players": self.players.dicts(), "shufflers": self.shufflers.dicts(), "math": self.math.dicts(), "seconds": self.seconds,
        }


def floor(root: Path, date_from: str | None = None, date_to: str | None = None, *,
          z_limit: float = Z_LIMIT, p_limit: float = P_LIMIT, alpha: float = ALPHA,
          warn: Callable[[str], None] | None = None, approved: Path | None = None,
          progress: Callable[[str], None] | None = None) -> FloorReport:
    """The floor report of the dataset at ``root`` for days ``date_from``..``date_to`` (inclusive).
    ``z_limit`` (the least limit of any family) must be a positive finite number (ValueError
    otherwise: a nan would flag nothing); ``alpha``: the family-wise false-alarm rate, in (0, 1).
    ``warn``: told when the game math cannot be cached (``queries.connect``). ``approved``: the
    approved math's file (None: the dataset's own, else the shipped one; ``ApprovedError`` if it
    is not usable). ``progress``: told while game math that takes minutes is computed."""
    if not (math.isfinite(z_limit) and z_limit > 0):
        raise ValueError(f"z_limit {z_limit!r}: not a positive finite number")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha {alpha!r}: not between 0 and 1")
    t0 = time.perf_counter()
    sql = named_queries()
    approved_path = approved or default_path(root)
    approved_math = load_approved(approved_path)
    con = connect(root, warn, approved_math, progress)
    make_cells(con, date_from, date_to)
    spans = run(con, sql["floor_rules"], date_from, date_to).dicts()
    findings = rules_findings(approved_math, load_rules(root), spans)
    raw = {k: run(con, sql[f"floor_{k}"]) for k in ("tables", "dealers", "days")}
    raw["seats"] = run(con, sql["floor_seats"], date_from, date_to)
    house, banks = (Result(raw["tables"].columns, [r for r, d in zip(raw["tables"].rows, raw["tables"].dicts(), strict=True)
                                                   if (d["bank"] == "player") == player]) for player in (False, True))
    alarms = {"tables": judged(house, alpha, z_limit), "player_banks": judged(banks, alpha, z_limit, sides=2),
              **{k: judged(raw[k], alpha, z_limit) for k in ("dealers", "days", "seats")}}
    tables = _with_rules(_banded_by_bank(raw["tables"], alarms), spans, findings)
    dealers, days = (_banded(raw[k], alarms[k].limit) for k in ("dealers", "days"))
    seats = raw["seats"]
    shufflers = _combined(run(con, sql["floor_shufflers"], date_from, date_to))
    maths = run(con, "SELECT * FROM wager_math ORDER BY game, decks, rules_id, wager")
    report = FloorReport(str(root), date_from, date_to, tables, dealers, days, seats, shufflers, maths, z_limit, p_limit,
                         alpha=alpha, alarms=alarms)
    report.table_days = _banded(run(con, sql["floor_table_days"]), z_limit)
    report.players = run(con, sql["floor_players"], date_from, date_to)
    report.rules = Result(list(RULES_COLUMNS), [tuple(f[c] for c in RULES_COLUMNS) for f in findings])
    report.approved = str(approved_path)
    report.house_revenue = house_revenue(tables.dicts())
    report.flagged = {
        "tables": [r["table_id"] for r in tables.dicts()
                   if _low(r, report.limit("player_banks" if r["bank"] == "player" else "tables"))],
        "player_banks": [r["table_id"] for r in tables.dicts()
                         if r["bank"] == "player" and _high(r, report.limit("player_banks"))],
        "rules": sorted({f["table_id"] for f in findings if f["finding"] in ("not approved", "changed")}),
        "not_judged": sorted({f["table_id"] for f in findings if f["finding"] == "not judged"}),
        "dealers": [r["dealer"] for r in dealers.dicts() if _low(r, report.limit("dealers"))],
        "days": [str(r["date"]) for r in days.dicts() if _low(r, report.limit("days"))],
        "seats": [f"{r['table_id']}:{r['seat']}" for r in seats.dicts() if _low(r, report.limit("seats"))],
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


def house_revenue(tables: list[dict[str, Any]]) -> list[str]:
    """What the house earns at the player-banked tables, one line per game: nothing, as the table
    configs set no collection fee (the bank's result is the Designated Player's or player-dealer's,
    never the house's win)."""
    out = []
    for game in sorted({t["game"] for t in tables if t.get("bank") == "player"}):
        rounds = sum(t["rounds"] for t in tables if t["game"] == game)
        out.append(f"{game}: player-banked; the house's revenue: none (no collection fee in the table config); "
                   f"the bank's result over {rounds:,} rounds is not the house's win")
    return out


def _with_rules(result: Result, spans: list[dict[str, Any]], findings: list[dict[str, Any]]) -> Result:
    """Add each table's rules ids and its rules mark (approved, not approved, rules changed, not
    judged, partly judged)."""
    ids: dict[str, list[str]] = {}
    for s in spans:
        ids.setdefault(s["table_id"], [])
        if s["rules_id"] not in ids[s["table_id"]]:
            ids[s["table_id"]].append(s["rules_id"])
    marks: dict[str, set[str]] = {}
    for f in findings:
        marks.setdefault(f["table_id"], set()).add(_mark(f))
    at = result.columns.index("table_id")
    rows = [(*row, ", ".join(ids.get(row[at], [])), ", ".join(sorted(marks.get(row[at], ()))) or "approved")
            for row in result.rows]
    return Result([*result.columns, "rules_ids", "rules"], rows)


def _mark(finding: dict[str, Any]) -> str:
    """A finding's mark on its table's row: "partly judged" for rounds a stake limit could bind
    (the table's other rounds are judged)."""
    if finding["finding"] == "changed":
        return "rules changed"
    if finding["finding"] == "not judged" and finding["detail"].startswith(STAKE_LIMIT_BINDS):
        return "partly judged"
    return str(finding["finding"])


def _weak(shufflers: Result, p_limit: float, shuffled_by: str) -> list[str]:
    return [r["serial"] for r in shufflers.dicts()
            if r["shuffled_by"] == shuffled_by and r["combined_p"] is not None and r["combined_p"] < p_limit]


def judged(result: Result, alpha: float, z_min: float, sides: int = 1) -> Alarms:
    """The family of ``result``'s rows with a z: its limit and expected false alarms. ``sides`` 2:
    each row is flagged on either side of its band (two tests)."""
    tests = sides * sum(1 for row in result.dicts() if row.get("z") is not None)
    limit = family_limit(tests, alpha, z_min)
    return Alarms(tests, limit, expected_false_alarms(tests, limit))


def flag_low(z_values: list[float | None], alpha: float = ALPHA, z_min: float = Z_LIMIT) -> list[bool]:
    """Which of one family's ``z_values`` (None: not tested) are flagged."""
    limit = family_limit(sum(z is not None for z in z_values), alpha, z_min)
    return [z is not None and z <= -limit for z in z_values]


def _low(row: dict[str, Any], z_limit: float) -> bool:
    return row.get("z") is not None and row["z"] <= -z_limit


def _high(row: dict[str, Any], z_limit: float) -> bool:
    return row.get("z") is not None and row["z"] >= z_limit


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


def _banded_by_bank(result: Result, alarms: dict[str, Alarms]) -> Result:
    """Tables banded at their family's limit: house-banked at ``tables``', player-banked at ``player_banks``'."""
    banded = [_banded(Result(result.columns, [row]), alarms["player_banks" if d["bank"] == "player" else "tables"].limit)
              for row, d in zip(result.rows, result.dicts(), strict=True)]
    columns = banded[0].columns if banded else [*result.columns, "band_low", "band_high"]
    return Result(columns, [r for b in banded for r in b.rows])


def _combined(result: Result) -> Result:
    """Add each shuffler's Fisher-combined p-value."""
    rows = [(*row, fisher(list(row[result.columns.index("p_values")] or []))) for row in result.rows]
    return Result([*result.columns, "combined_p"], rows)
