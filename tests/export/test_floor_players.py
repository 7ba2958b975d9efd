"""A simulated floor whose players play the game math's strategy holds what the math expects: every
table but the planted dealer's sits inside its band (slow: about a minute)."""

from __future__ import annotations

from pathlib import Path

import pytest
from exporthelpers import run_tablectl
from floorgen import make_floor, planted_tables

from tablectl.analytics.floor.report import floor

pytestmark = pytest.mark.slow


def test_a_small_floor_of_optimal_players_sits_inside_its_bands(tmp_path: Path) -> None:
    made = make_floor(tmp_path / "floor", per_game=1, days=2, rounds=60)
    dataset = tmp_path / "ds"
    done = run_tablectl("export", *made.logs.values(), "--to", dataset, "--key", made.public_key)
    assert done.code == 0, done.err
    report = floor(dataset)
    honest = [t for t in report.tables.dicts() if t["table_id"] not in planted_tables(made) and t["rules"] != "not judged"]
    assert len(honest) == 4  # One Card Poker is the planted dealer's; Three Card Poker judged where its bank's stake covers
    for t in honest:
        if t["game"] == "texas-holdem-bonus":  # its simulated players do not follow the main game's strategy yet:
            assert t["z"] > 0  # they hand the house more than the math's optimal play does (shown, not flagged)
            continue
        assert t["band_low"] <= t["judged_hold"] <= t["band_high"], (t["table_id"], t["z"])
    assert report.flagged["tables"] == sorted(planted_tables(made))
