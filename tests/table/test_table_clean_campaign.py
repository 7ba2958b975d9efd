"""Clean play campaigns: the virtual dealer plays by the book on simulated devices over ptys and
the table raises no violation at all. A few hundred rounds per game in the default suite;
10,000 per game by hand (``pytest -n 0 -m slow tests/table/test_table_clean_campaign.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

TABLE_CONFIGS = sorted(p.stem for p in (Path(__file__).resolve().parents[2] / "config" / "tables").glob("*.toml"))


def check_clean(played, rounds: int) -> None:
    assert played.report.rounds == rounds
    assert played.violations() == []
    assert played.events("round_started")[-1]["round"] == rounds
    if played.config.card_driver != "csm":
        cap = played.config.penetration_cap
        assert all(r["penetration"] <= cap for r in played.events("dealt", "burned"))


@pytest.mark.parametrize("name", TABLE_CONFIGS)
def test_a_few_hundred_clean_rounds_raise_no_violation(name, tmp_path, play_table):
    check_clean(play_table(name, tmp_path, 200, seed=21, fsync=False), 200)


@pytest.mark.slow
@pytest.mark.parametrize("name", TABLE_CONFIGS)
def test_ten_thousand_clean_rounds_raise_no_violation(name, tmp_path, play_table):
    check_clean(play_table(name, tmp_path, 10_000, seed=10_000, fsync=False), 10_000)
