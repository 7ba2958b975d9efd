"""The floor report: per table, dealer and day, per seat, per player and per shuffler, from the dataset
through DuckDB (the named queries ``floor_*``), judged against the approved game math
(``tablectl.analytics.approved``): every round against the math of the approved set of its game.

A house-banked table, a dealer, a day or a seat is *flagged* when the bank's result on the wagers
the math analyses lies so far below what the math expects that its p-value -- the chance of so
low a result, from each wager's exact distribution (``group_tails``, ``tails``: long shots make
the result skewed, so a normal z would over-flag) -- is at most its family's limit (the house
lost more than chance allows; above the band is reported, not flagged: players playing worse than
the math's strategy hand the house more). A player-banked table (a Designated
Player or player-dealer banks; the house has no interest in the play) is judged from the bank's
position in a family of its own (``player_banks``) and flagged outside its band either way: below
it, the bank lost more than chance allows; above it, the bank beat the players far beyond chance
(players playing worse than the math's strategy do that too, so the finding asks for a look at
the play). The days total the house's own games; player banks are reported apart.
The standard deviation is the exact one of the rounds' house results (``variance``: every wager's
variance and the covariances between the bets of a seat and between seats sharing a round).
Tables, player banks, dealers, days and seats are families of many tests: each family's p limit is
the Bonferroni limit at family-wise ``alpha`` (``alpha`` over the family's tests: the chance of
any false alarm in the family at most ``alpha``; a player bank is two tests, one each side), and
no row is flagged at a z nearer than ``z_limit``; the report states each limit, z the band's
(the normal quantile of the p limit), and the expected number of false alarms on an honest floor.
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
from statistics import NormalDist
from typing import Any

import duckdb

from tablectl.analytics.approved import STAKE_LIMIT_BINDS, Approved, default_path, rules_findings
from tablectl.analytics.approved import load as load_approved
from tablectl.analytics.dataset.limits import within
from tablectl.analytics.dataset.queries import Result, connect, make_cells, named_queries, run
from tablectl.analytics.dataset.store import load_rules
from tablectl.analytics.floor import theo as floor_theo
from tablectl.analytics.floor.detection import AdvantagePlay, advantage_play
from tablectl.analytics.floor.group_tails import kinds_by_group, outcome_table, with_p
from tablectl.analytics.floor.stats import expected_false_alarms, family_limit, fisher
from tablectl.analytics.floor.stats import p_limit as family_p_limit

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
    """How one family of tests is judged: ``tests`` tested rows, the ``p_limit`` of each test
    (Bonferroni), the z ``limit`` of the band shown (the normal quantile of ``p_limit``) and the
    expected number of false alarms among them if every row is honest."""

    tests: int
    limit: float
    expected_false_alarms: float
    p_limit: float = 0.0  # a row is flagged at a p-value (``group_tails``) at most this
    z_min: float = Z_LIMIT  # ... and never at a z nearer its expected result than this


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
    hold_curve: Result | None = None  # per table, day and round ended, the hold so far (the HTML page's plot)
    players: Result = field(default_factory=lambda: Result(list(PLAYER_COLUMNS), []))  # per player the pit entered
    alpha: float = ALPHA
    alarms: dict[str, Alarms] = field(default_factory=dict)
    correction: str = CORRECTION
    variance: str = VARIANCE
    advantage: AdvantagePlay | None = None  # play from hidden cards, every seat session (floor_detection)

    def limit(self, family: str) -> float:
        """The z limit of ``family`` (``tables``, ``player_banks``, ``dealers``, ``days``, ``seats``)."""
        found = self.alarms.get(family)
        return found.limit if found is not None else self.z_limit

    def flags(self, family: str, row: dict[str, Any]) -> bool:
        """Whether ``row`` of ``family`` is flagged (a player bank, or a dealer's player-banked rounds:
        on either side of its band)."""
        alarms = self.alarms.get(family) or Alarms(0, self.z_limit, 0.0, 0.0, self.z_limit)
        either = family == "player_banks" or row.get("bank") == "player"
        return flagged_row(row, alarms, "low") or (either and flagged_row(row, alarms, "high"))

    def expected_false_alarms(self) -> float:
        """The expected number of false alarms over all families on an honest floor, at most: the
        play-from-hidden-cards family adds its family-wise alpha (Holm: at most that many)."""
        hidden = self.advantage.alpha if self.advantage is not None and self.advantage.tests else 0.0
        return sum(a.expected_false_alarms for a in self.alarms.values()) + hidden

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
            "advantage_play": self.advantage.to_dict() if self.advantage is not None else None,
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
    approved_path = approved or default_path(root)
    approved_math = load_approved(approved_path)
    con = connect(root, warn, approved_math, progress)
    # DuckDB's work in a worker thread, so that Ctrl-C or SIGTERM interrupts it and the command stops
    report = within(con, lambda: _report(con, root, date_from, date_to, z_limit, p_limit, alpha, approved_math,
                                         approved_path), None)
    report.seconds = time.perf_counter() - t0
    return report


def _report(con: duckdb.DuckDBPyConnection, root: Path, date_from: str | None, date_to: str | None, z_limit: float,
            p_limit: float, alpha: float, approved_math: Approved, approved_path: Path) -> FloorReport:
    """The floor report (:func:`floor`) from the dataset's views on ``con``."""
    sql = named_queries()
    make_cells(con, date_from, date_to)
    spans = run(con, sql["floor_rules"], date_from, date_to).dicts()
    findings = rules_findings(approved_math, load_rules(root), spans)
    raw = {k: run(con, sql[f"floor_{k}"]) for k in ("tables", "dealers", "days")}
    raw["seats"] = run(con, sql["floor_seats"], date_from, date_to)
    wagers = run(con, sql["floor_wagers"], date_from, date_to)
    outcomes = outcome_table(run(con, "SELECT * FROM wager_outcomes"))
    raw = {k: with_p(r, k, kinds_by_group(wagers, outcomes, k), lambda row: row.get("bank") == "player")
           for k, r in raw.items()}
    house, banks = (Result(raw["tables"].columns, [r for r, d in zip(raw["tables"].rows, raw["tables"].dicts(), strict=True)
                                                   if (d["bank"] == "player") == player]) for player in (False, True))
    alarms = {"tables": judged(house, alpha, z_limit), "player_banks": judged(banks, alpha, z_limit, sides=2),
              "dealers": judged(raw["dealers"], alpha, z_limit, sides=_sides),
              **{k: judged(raw[k], alpha, z_limit) for k in ("days", "seats")}}
    tables = _with_rules(_banded_by_bank(raw["tables"], alarms), spans, findings)
    dealers = _banded(raw["dealers"], alarms["dealers"].limit)
    days = _banded(raw["days"], alarms["days"].limit)
    seats = raw["seats"]
    shufflers = _combined(run(con, sql["floor_shufflers"], date_from, date_to))
    maths = run(con, "SELECT * FROM wager_math ORDER BY game, decks, rules_id, wager")
    report = FloorReport(str(root), date_from, date_to, tables, dealers, days, seats, shufflers, maths, z_limit, p_limit,
                         alpha=alpha, alarms=alarms)
    report.table_days = _banded(run(con, sql["floor_table_days"]), z_limit)
    report.hold_curve = run(con, sql["floor_hold_curve"], date_from, date_to)
    report.players = run(con, sql["floor_players"], date_from, date_to)
    report.rules = Result(list(RULES_COLUMNS), [tuple(f[c] for c in RULES_COLUMNS) for f in findings])
    report.approved = str(approved_path)
    report.house_revenue = house_revenue(tables.dicts())
    report.flagged = {
        "tables": [r["table_id"] for r in tables.dicts()
                   if _low(r, alarms["player_banks" if r["bank"] == "player" else "tables"])],
        "player_banks": [r["table_id"] for r in tables.dicts()
                         if r["bank"] == "player" and _high(r, alarms["player_banks"])],
        "rules": sorted({f["table_id"] for f in findings if f["finding"] in ("not approved", "changed")}),
        "not_judged": sorted({f["table_id"] for f in findings if _mark(f) == "not judged"}),
        "partly_judged": sorted({f["table_id"] for f in findings if _mark(f) == "partly judged"}),
        "dealers": list(dict.fromkeys(r["dealer"] for r in dealers.dicts() if report.flags("dealers", r))),
        "days": [str(r["date"]) for r in days.dicts() if _low(r, alarms["days"])],
        "seats": [f"{r['table_id']}:{r['seat']}" for r in seats.dicts() if _low(r, alarms["seats"])],
        "shufflers": _weak(shufflers, p_limit, "machine"),
        "hand_shuffles": _weak(shufflers, p_limit, "hand"),
    }
    _judge_theo(report, raw, alpha, z_limit)
    report.advantage = advantage_play(con, date_from, date_to, alpha)
    report.flagged["advantage_play"] = report.advantage.flagged()
    return report


def _judge_theo(report: FloorReport, raw: dict[str, Result], alpha: float, z_limit: float) -> None:
    """The ``theo`` family (``floor_theo``): tables, dealers and days against the theoretical win
    from the play made, either side."""
    tests, limit, expected = floor_theo.limit(raw, alpha, z_limit)
    report.alarms[floor_theo.FAMILY] = Alarms(tests, limit, expected, NormalDist().cdf(-limit), z_limit)
    report.flagged.update(floor_theo.flagged(raw, limit))


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


def _sides(row: dict[str, Any]) -> int:
    """A dealer's row is two tests at a player's bank (either side), one at the house's."""
    return 2 if row.get("bank") == "player" else 1


def judged(result: Result, alpha: float, z_min: float, sides: int | Callable[[dict[str, Any]], int] = 1) -> Alarms:
    """The family of ``result``'s rows with a z: its limits and expected false alarms. ``sides`` 2
    (or a row's ``sides(row)``): the row is flagged on either side of its band (two tests)."""
    tests = sum(sides(row) if callable(sides) else sides for row in result.dicts() if row.get("z") is not None)
    limit = family_limit(tests, alpha, z_min)
    return Alarms(tests, limit, expected_false_alarms(tests, limit), family_p_limit(tests, alpha, z_min), z_min)


def flagged_row(row: dict[str, Any], alarms: Alarms, side: str = "low") -> bool:
    """Whether a row (with ``z`` and ``p``) of a family judged by ``alarms`` is flagged on ``side``
    (``low``: the bank won less than chance allows; ``high``: more): its p-value at most the
    family's ``p_limit`` and its z beyond the least limit (a row without ``p``: z beyond the
    family's limit)."""
    z = row.get("z")
    if z is None:
        return False
    signed = -z if side == "low" else z
    if row.get("p") is None:
        return signed >= alarms.limit
    return signed >= alarms.z_min and row["p"] <= alarms.p_limit


def _low(row: dict[str, Any], alarms: Alarms) -> bool:
    return flagged_row(row, alarms, "low")


def _high(row: dict[str, Any], alarms: Alarms) -> bool:
    return flagged_row(row, alarms, "high")


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
