"""Play from hidden cards caught at a Texas Hold'em Bonus table: a simulated three-seat table of
90 rounds (seat 1 a full-time hole-carder who sees the dealer's first hole card, seat 2 basic
strategy, seat 3 the simulator's default player) run, exported and screened by ``tablectl floor``
as a user runs them, and the seat reviewed with ``tablectl review --seat``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import duckdb
import pytest
from exporthelpers import Done, play_and_export, run_tablectl

CONFIG = Path(__file__).parents[2] / "config" / "tables" / "texas-holdem-bonus.toml"


@pytest.fixture(scope="module")
def thb_table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("thb")
    config = root / "thb-3-seats.toml"
    config.write_text(CONFIG.read_text(encoding="utf-8").replace("\nseats = 7\n", "\nseats = 3\n"), encoding="utf-8")
    return play_and_export(root, config, 90, "1:hole-card", "2:basic")


@pytest.fixture(scope="module")
def screened(thb_table: Path) -> dict:
    done = run_tablectl("floor", thb_table / "ds", "--json")
    assert done.code in (0, 1), done.err
    return json.loads(done.out)["advantage_play"]


@pytest.fixture(scope="module")
def reviewed(thb_table: Path) -> Done:
    done = run_tablectl("review", thb_table / "logs", "--key", thb_table / "keys" / "table.pub", "--seat", "1")
    assert done.code in (0, 1), done.err
    return done


def test_every_judged_turn_and_river_decision_has_a_sighting_under_each_hole_card_and_the_edge_sort(thb_table: Path) -> None:
    ds = thb_table / "ds"
    judged = duckdb.sql(f"""SELECT count(*) FROM read_parquet('{ds}/decisions/**/*.parquet')
                            WHERE ev_choice IS NOT NULL AND decision IN ('turn', 'check', 'river')""").fetchall()[0][0]
    per = dict(duckdb.sql(f"SELECT hypothesis, count(*) FROM read_parquet('{ds}/sightings/**/*.parquet') GROUP BY ALL").fetchall())
    assert judged > 100
    assert [per.get(h) for h in ("hole:1", "hole:2", "edge")] == [judged] * 3


def test_the_floor_flags_the_texas_holdem_bonus_hole_carder_for_the_dealers_first_card(screened: dict) -> None:
    assert [(f["table_id"], f["seat"], f["hypothesis"]) for f in screened["flags"] if f["seat"] == 1] == [("thb-1", 1, "hole:1")]
    assert screened["flags"][0]["count"] >= 3


def test_no_honest_texas_holdem_bonus_seat_is_flagged(screened: dict) -> None:
    assert screened["sessions"] == 3
    assert [f for f in screened["flags"] if f["seat"] != 1] == []


def test_review_of_the_seat_gives_the_floors_p_value_and_rounds_for_the_hole_card(screened: dict, reviewed: Done) -> None:
    flag = next(f for f in screened["flags"] if f["hypothesis"] == "hole:1")
    line = next(ln for ln in reviewed.out.splitlines() if ln.strip().startswith("hole:1:"))
    assert "FLAGGED" in line and f"p {flag['p']:.3g}," in line
    after = reviewed.out.split(line + "\n", 1)[1].splitlines()
    evidence = next((after[:i] for i, ln in enumerate(after) if not ln.startswith("    ")), after)  # to the next hypothesis
    rounds = [re.match(r"    round (\S+):", ln).group(1) for ln in evidence]  # type: ignore[union-attr]
    assert sorted(rounds) == sorted(r.split(".")[-1] for r in flag["rounds"])
