"""Texas Hold'em Bonus's rounds carry their exact spread about the theoretical win (rounds.theo_var)
and its tables, dealers and days are judged against theo (theo_z), through the front door: a
simulated table of honest players run by ``tablectl run``, exported by ``tablectl export`` (the
main game's analysis on the machine: ``conftest``), reported by ``tablectl floor --json``."""

from __future__ import annotations

from pathlib import Path

import duckdb
import orjson
import pytest

from exporthelpers import run_tablectl
from tablectl.eventlog.keys import save_keypair

CONFIG = Path(__file__).resolve().parents[2] / "config" / "tables" / "texas-holdem-bonus.toml"
ROUNDS = 30


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """The dataset of the table's exported log, and the floor's JSON report on it."""
    tmp = tmp_path_factory.mktemp("thb")
    keys = save_keypair(tmp / "keys")
    logs = tmp / "log"
    done = run_tablectl("run", CONFIG, "--simulate", "--autoplay", ROUNDS, "--headless", "--log-dir", logs,
                        "--seed", 4, "--signing-key", keys.private)
    assert done.code == 0, done.err
    dataset = tmp / "ds"
    done = run_tablectl("export", logs, "--to", dataset, "--key", keys.public)
    assert done.code == 0, done.err
    floor = run_tablectl("floor", dataset, "--json")
    assert floor.code in (0, 1), floor.err
    return dataset, orjson.loads(floor.out)


def test_every_settled_holdem_round_has_a_positive_theo_var(played: tuple[Path, dict]) -> None:
    rows = duckdb.sql(f"SELECT theo_win, theo_var FROM read_parquet('{played[0]}/rounds/**/*.parquet') "
                      "WHERE status = 'complete'").fetchall()
    assert len(rows) == ROUNDS
    assert all(theo is not None and var is not None and var > 0 for theo, var in rows)


def test_the_holdem_table_its_dealers_and_its_day_are_judged_against_theo(played: tuple[Path, dict]) -> None:
    report = played[1]
    for group in ("tables", "dealers", "days"):
        assert report[group] and all(row["theo_z"] is not None for row in report[group]), group
    table = report["tables"][0]
    assert table["theo_var_rounds"] == table["theo_rounds"] == ROUNDS
    assert report["alarms"]["theo"]["tests"] == 2 * sum(len(report[g]) for g in ("tables", "dealers", "days"))
