"""A small floor report made of plain values (no dataset, no DuckDB): two house-banked tables, one
far below its band (flagged: z -4.2 and p 1e-5 against the family's p limit 0.001 and z 3), one
honest; a dealer whose id carries HTML; two days of one table's hold against its band."""

from __future__ import annotations

from tablectl.analytics.dataset.queries import Result
from tablectl.analytics.floor.detection import AdvantagePlay
from tablectl.analytics.floor.report import Alarms, FloorReport

DEALER = "<b onclick=x>D-7</b>"


def rows(columns: list[str], *values: tuple) -> Result:  # type: ignore[type-arg]
    return Result(columns, list(values))


def report(*, advantage: bool = True) -> FloorReport:
    tables = rows(["table_id", "game", "bank", "rules", "rounds", "handle", "win", "hold", "expected_hold", "z", "p",
                   "theo_win"],
                  ("T-low", "one-card-poker", "house", "approved", 400, 400_000, -60_000, -0.15, 0.03, -4.2, 1e-5, 12_000),
                  ("T-fair", "three-card-poker", "house", "approved", 300, 300_000, 9_000, 0.03, 0.034, -0.2, 0.42, 10_200))
    dealers = rows(["dealer", "bank", "rounds", "hold", "z", "p"], (DEALER, "house", 700, -0.07, -1.0, 0.16))
    days = rows(["date", "rounds", "hold", "z", "p"], ("2026-05-01", 700, -0.07, -1.0, 0.16))
    seats = rows(["table_id", "seat", "rounds", "z", "p"], ("T-low", 2, 400, 0.4, 0.66))
    shufflers = rows(["serial", "kind", "shuffled_by", "combined_p"])
    math = rows(["game", "wager", "edge"], ("one-card-poker", "primary", 0.0231))
    r = FloorReport("ds-plain", None, None, tables, dealers, days, seats, shufflers, math,
                    alarms={"tables": Alarms(2, 3.0, 0.0027, 0.001, 3.0)})
    r.table_days = rows(["table_id", "date", "judged_hold", "expected_hold", "band_low", "band_high"],
                        ("T-low", "2026-05-01", -0.15, 0.03, -0.05, 0.11),
                        ("T-low", "2026-05-02", 0.04, 0.03, -0.05, 0.11),
                        ("T-fair", "2026-05-01", 0.03, 0.034, -0.06, 0.13))
    r.flagged = {"tables": ["T-low"]}
    if advantage:
        r.advantage = AdvantagePlay(0.05, "holm", sessions=3, decisions=40, tests=6)
    return r
