"""Play from hidden cards across the floor: every seat session tested, false alarms controlled
across them all.

A *seat session* is one table's seat on one day (``table, seat, date``), or, where the pit entered
a player at the seat (the decisions dataset's ``player`` column), that player across every table
and day. Each session's sightings (the ``sightings`` dataset, ``analytics.export.sightings``) become its
``detection.DecisionRow``\\ s, in the order played, and are tested for every hypothesis they carry
(``detection.seat_test``: the sequential likelihood-ratio test, its p-value valid however often
the seat is looked at). Then one Holm pass (``detection.flag``) over the p-values of every
(session, hypothesis) tested bounds the chance of any false flag on the whole floor by ``alpha``.
Each flag carries its evidence: the decisions only the flagged information explains.

:func:`read_sightings` is the one part that reads (DuckDB, from the dataset's views);
:func:`sessions` and :func:`detect` are pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tablectl.analytics.export.sightings import decision_rows
from tablectl.detection.screen import DetectionError, SeatTest, flag, seat_test

METHOD = "holm"

_SELECT = """SELECT s.table_id, CAST(s.date AS VARCHAR) AS date, s.seat, s.seq, s.round_id,
       any_value(s.options) AS options, any_value(s.choice) AS choice, any_value(s.own) AS own,
       list(s.hypothesis ORDER BY s.hypothesis) AS hypotheses, list(s.hidden ORDER BY s.hypothesis) AS hidden,
       any_value(d.ts) AS ts, any_value({player}) AS player
FROM sightings s LEFT JOIN decisions d ON d.table_id = s.table_id AND d.seq = s.seq
WHERE s.date BETWEEN $from AND $to
GROUP BY ALL
ORDER BY s.table_id, s.seq"""


@dataclass(frozen=True, slots=True, order=True)
class Session:
    """What one test's decisions belong to: a player (when the pit entered one), else a table's
    seat on one day."""

    player: str = ""
    table_id: str = ""
    seat: int = 0
    date: str = ""

    def label(self) -> str:
        """The session as the report names it."""
        return f"player {self.player}" if self.player else f"{self.table_id} seat {self.seat} on {self.date}"


@dataclass(frozen=True, slots=True)
class Sighted:
    """A decision only the flagged information explains: where it was made, the choice, the best
    from the seat's own cards, the best knowing the hidden information, and what the choice gave
    up from the own cards (units of the initial wager)."""

    table_id: str
    date: str
    seat: int
    round_id: str
    choice: str
    own_best: str
    hidden_best: str
    cost_units: float


@dataclass(frozen=True, slots=True)
class Flag:
    """One (session, hypothesis) the floor flagged, with its evidence."""

    session: Session
    hypothesis: str
    p_value: float
    decisions: int
    llr: float
    evidence: tuple[Sighted, ...]

    def to_dict(self) -> dict[str, Any]:
        s = self.session
        return {"player": s.player or None, "table_id": s.table_id or None, "seat": s.seat if not s.player else None,
                "date": s.date or None, "hypothesis": self.hypothesis, "p": self.p_value, "decisions": self.decisions,
                "llr": self.llr, "rounds": [e.round_id for e in self.evidence], "count": len(self.evidence),
                "evidence": [vars_of(e) for e in self.evidence]}


@dataclass
class AdvantagePlay:
    """The floor's test of play from hidden cards: sessions and decisions tested, the number of
    (session, hypothesis) tests, the method and level, and the flags (smallest p first)."""

    alpha: float
    method: str = METHOD
    sessions: int = 0
    decisions: int = 0
    tests: int = 0
    flags: list[Flag] = field(default_factory=list)

    def flagged(self) -> list[str]:
        """Each flag as one short name: ``session hypothesis``."""
        return [f"{f.session.label()} {f.hypothesis}" for f in self.flags]

    def to_dict(self) -> dict[str, Any]:
        return {"method": self.method, "alpha": self.alpha, "sessions": self.sessions, "decisions": self.decisions,
                "tests": self.tests, "flags": [f.to_dict() for f in self.flags]}


def vars_of(e: Sighted) -> dict[str, Any]:
    """A piece of evidence as a plain mapping."""
    return {k: getattr(e, k) for k in Sighted.__slots__}  # type: ignore[attr-defined]


def read_sightings(con: Any, date_from: str | None, date_to: str | None) -> list[dict[str, Any]]:
    """The sightings of days ``date_from``..``date_to`` from a dataset's DuckDB views
    (``queries.connect``), one record per decision with its hypotheses gathered
    (``sightings.decision_rows``), its time and the player entered (None: none or no such
    column), by table and line."""
    from tablectl.analytics.dataset.queries import run

    columns = {row[0] for row in con.execute("DESCRIBE decisions").fetchall()}
    player = "d.player" if "player" in columns else "CAST(NULL AS VARCHAR)"
    return run(con, _SELECT.format(player=player), date_from, date_to).dicts()


def sessions(records: Iterable[Mapping[str, Any]]) -> dict[Session, list[Mapping[str, Any]]]:
    """Sightings (as :func:`read_sightings` gives them) by seat session, each in the order played
    (a player's across tables by the decisions' time)."""
    out: dict[Session, list[Mapping[str, Any]]] = {}
    for r in records:
        player = r.get("player")
        key = (Session(player=str(player)) if player not in (None, "") else
               Session(table_id=str(r["table_id"]), seat=int(r["seat"]), date=str(r["date"])))
        out.setdefault(key, []).append(r)
    for key, rows in out.items():
        if key.player:
            rows.sort(key=lambda r: (str(r.get("ts") or ""), str(r["table_id"]), int(r["seq"])))
    return out


def _session_tests(rows: list[Mapping[str, Any]]) -> tuple[list[SeatTest], list[tuple[str, str, int, str]], int]:
    """One session's tests (a hypothesis each), the evidence rounds' places, and its decisions."""
    keyed = [{**r, "round": (r["table_id"], str(r["date"]), int(r["seat"]), str(r["round_id"]))} for r in rows]
    found, rounds = decision_rows(keyed)
    tests = [seat_test(found, h) for h in sorted({h for d in found for h in d.hidden})]
    return tests, rounds, len(found)


def detect(records: Iterable[Mapping[str, Any]], alpha: float) -> AdvantagePlay:
    """Every seat session of ``records`` tested for every hypothesis it carries, flagged by Holm
    at family-wise ``alpha`` across all the floor's tests (``DetectionError`` naming the session
    for sightings the test cannot take)."""
    groups = sessions(records)
    out = AdvantagePlay(alpha)
    tested: list[tuple[Session, SeatTest, list[tuple[str, str, int, str]]]] = []
    for key in sorted(groups):
        try:
            tests, rounds, n = _session_tests(groups[key])
        except (DetectionError, KeyError, TypeError, ValueError) as e:
            raise DetectionError(f"sightings of {key.label()}: {e}") from None
        out.decisions += n
        tested += [(key, t, rounds) for t in tests]
    out.sessions, out.tests = len(groups), len(tested)
    judged = flag([t for _, t, _ in tested], alpha, METHOD)
    for (key, _, rounds), t in zip(tested, judged):
        if t.flagged:
            evidence = tuple(Sighted(*rounds[e.round], e.choice, e.own_best, e.hidden_best, float(e.cost))
                             for e in t.evidence)
            out.flags.append(Flag(key, t.hypothesis, t.p_value, t.decisions, t.llr, evidence))
    out.flags.sort(key=lambda f: (f.p_value, f.session, f.hypothesis))
    return out


def advantage_play(con: Any, date_from: str | None, date_to: str | None, alpha: float) -> AdvantagePlay:
    """The floor's test of play from hidden cards over days ``date_from``..``date_to``."""
    return detect(read_sightings(con, date_from, date_to), alpha)


__all__ = ["METHOD", "AdvantagePlay", "advantage_play", "Flag", "Session", "Sighted", "detect", "read_sightings", "sessions"]
