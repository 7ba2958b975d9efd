"""Each round's exact spread about its theoretical win (rounds.theo_var) and the floor's judgement
against theo both ways (theo_z, the ``theo`` family), through the front door: a simulated Florida
Three Card Poker table run by ``tablectl run``, exported by ``tablectl export``, reported by
``tablectl floor --json``. One table plays honestly (every decision the strategy's); one table
short-pays the Pairplus (its pay table below the posted one its log names)."""

from __future__ import annotations

import sys
from pathlib import Path

import duckdb
import orjson
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from exporthelpers import Tablectl, run_tablectl
from tablectl.eventlog.keys import generate_key, save_keypair

sys.path.insert(0, str(Path(__file__).parents[1] / "review"))
from forgery import LogCopy  # noqa: E402

CONFIG = Path(__file__).resolve().parents[2] / "config" / "tables" / "three-card-poker-florida.toml"
ROUNDS = 200
SHORT_ROUNDS = 600  # the short-pay's expected theo_z: about 4 (the family's limit: 3)
#: the short-paid lines of the Pairplus (posted: straight 4, flush 3, pair 2)
SHORT = {"straight = 4": "straight = 1", "flush = 3": "flush = 1", "pair = 2": "pair = 1"}


def _play(tmp: Path, config: Path, key: Path, seed: int, rounds: int = ROUNDS) -> Path:
    logs = tmp / "log"
    done = run_tablectl("run", config, "--simulate", "--autoplay", rounds, "--headless", "--log-dir", logs,
                        "--seed", seed, "--signing-key", key)
    assert done.code == 0, done.err
    return logs


def _export_and_floor(tmp: Path, logs: Path, public: Path) -> tuple[Path, dict]:
    dataset = tmp / "ds"
    done = run_tablectl("export", logs, "--to", dataset, "--key", public)
    assert done.code == 0, done.err
    floor = run_tablectl("floor", dataset, "--json")
    assert floor.code in (0, 1), floor.err
    return dataset, orjson.loads(floor.out)


def _short_paid(tmp: Path, key: Ed25519PrivateKey, key_path: Path) -> Path:
    """A table paying the Pairplus below its posted table while its log names the posted one."""
    text = CONFIG.read_text()
    for posted, paid in SHORT.items():
        assert posted in text
        text = text.replace(posted, paid)
    config = tmp / "short.toml"
    config.write_text(text)
    logs = _play(tmp / "played", config, key_path, seed=11, rounds=SHORT_ROUNDS)
    copy = LogCopy.read(logs)
    at = copy.find("table_started")
    posted = {"straight": 4, "flush": 3, "pair": 2}
    copy.edit(*at, lambda r: r["pay_tables"]["pairplus"].update(posted))
    copy.relink(key)
    return copy.write(tmp / "log")


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> tuple[Ed25519PrivateKey, Path, Path]:
    key = generate_key()
    files = save_keypair(tmp_path_factory.mktemp("keys"), key)
    return key, files.private, files.public


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory, keys: tuple[Ed25519PrivateKey, Path, Path]) -> tuple[Path, dict]:
    tmp = tmp_path_factory.mktemp("honest")
    return _export_and_floor(tmp, _play(tmp, CONFIG, keys[1], seed=5), keys[2])


@pytest.fixture(scope="module")
def short(tmp_path_factory: pytest.TempPathFactory, keys: tuple[Ed25519PrivateKey, Path, Path]) -> tuple[Path, dict]:
    tmp = tmp_path_factory.mktemp("short")
    return _export_and_floor(tmp, _short_paid(tmp, keys[0], keys[1]), keys[2])


def _rounds(dataset: Path) -> list[tuple]:
    return duckdb.sql(f"SELECT status, theo_win, theo_var FROM read_parquet('{dataset}/rounds/**/*.parquet')").fetchall()


def test_every_settled_round_has_a_positive_theo_var(honest: tuple[Path, dict]) -> None:
    rows = [r for r in _rounds(honest[0]) if r[0] == "complete"]
    assert len(rows) >= ROUNDS * 0.9
    assert all(theo is not None and var is not None and var > 0 for _, theo, var in rows)


def test_an_honest_basic_table_s_theo_spread_is_close_to_its_optimal_play_variance(honest: tuple[Path, dict]) -> None:
    table = honest[1]["tables"][0]
    assert table["theo_var_rounds"] == table["theo_rounds"] > 0
    ratio = table["theo_sd"] ** 2 / table["win_sd"] ** 2
    assert 0.6 < ratio < 1.6, ratio  # equal in expectation (both seats' cards unseen), apart by chance
    assert table["theo_win"] == pytest.approx(table["expected_win"], rel=1e-9)  # no decision costs anything


def test_an_honest_table_is_not_flagged_against_its_theo(honest: tuple[Path, dict]) -> None:
    report = honest[1]
    assert report["alarms"]["theo"]["tests"] == 2 * sum(
        1 for k in ("tables", "dealers", "days") for row in report[k] if row["theo_z"] is not None)
    assert not any(report["flagged"][k] for k in ("theo_tables", "theo_dealers", "theo_days"))
    assert abs(report["tables"][0]["theo_z"]) < report["alarms"]["theo"]["limit"]


def test_a_short_paying_table_wins_far_above_its_theo_and_is_flagged(short: tuple[Path, dict]) -> None:
    report = short[1]
    table = report["tables"][0]
    assert table["theo_z"] >= report["alarms"]["theo"]["limit"], table
    assert report["flagged"]["theo_tables"] == [table["table_id"]]


def test_the_optimal_play_band_alone_does_not_flag_the_short_pay(short: tuple[Path, dict]) -> None:
    assert short[1]["flagged"]["tables"] == []  # winning above the band is reported, never flagged there


def test_the_floor_shows_theo_z_beside_the_optimal_play_z(short: tuple[Path, dict], tablectl: Tablectl, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "400")  # every column on one line of the terminal tables
    page = tmp_path / "floor.html"
    done = tablectl("floor", short[0], "--html", page)
    assert done.code == 1, done.err
    assert "theo z" in done.out and "FLAGGED theo_tables" in done.out
    assert "theo z" in page.read_text()
