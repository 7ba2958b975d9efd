"""The pit's player id at the keys only: ``tablectl run CONFIG --simulate`` on a real 80x24 pty,
``P`` on a selected seat, the id typed, a round dealt from what the screen says; then the signed
log, its review and its export read as surveillance reads them."""

from __future__ import annotations

import glob
import subprocess
import sys
from pathlib import Path

import duckdb
import orjson
import pytest
from atthekeys import Keys, Screen, ScreenDealer, Shift, seat_row, tablectl_command

REPO = Path(__file__).resolve().parents[2]
TABLE = REPO / "config" / "tables" / "three-card-poker-florida.toml"


def at_table(log_dir: Path) -> Keys:
    return Keys([tablectl_command(), "run", str(TABLE), "--simulate", "--seed", "5", "--log-dir", str(log_dir)])


def lines(log_dir: Path) -> list[dict]:
    return [orjson.loads(x) for p in sorted(log_dir.glob("*.jsonl")) for x in p.read_bytes().splitlines()]


def tablectl(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tablectl", *map(str, args)], capture_output=True, text=True, timeout=300)


class Dealt:
    """One shift at the keys: seat 1 alone, player P-1077 entered, one round dealt."""

    def __init__(self, log_dir: Path, entered: Screen) -> None:
        self.log_dir, self.entered = log_dir, entered


@pytest.fixture(scope="module")
def dealt(tmp_path_factory: pytest.TempPathFactory) -> Dealt:
    log_dir = tmp_path_factory.mktemp("player-at-the-keys") / "logs"
    k = at_table(log_dir)
    try:
        k.ready_with_seat_1_alone()
        k.type(b"1P", lambda s: s.prompt_open and "seat 1 player id" in s.status)
        entered = k.type(b"P-1077\r", lambda s: "seat 1: player P-1077" in s.status and "player P-1077" in seat_row(s, 1))
        dealer = ScreenDealer(k.t, Shift(rounds=1, dealer_change=99, shoe_change=99, planted=99))
        dealer.log.planted_in = 0  # nothing planted: the shift ends after its rounds
        dealer.deal_shift()
        assert k.t.wait(30) == 0
    finally:
        k.t.kill()
    return Dealt(log_dir, entered)


def test_the_seats_row_shows_the_player_entered(dealt: Dealt) -> None:
    assert "player P-1077" in seat_row(dealt.entered, 1)


def test_a_player_id_typed_at_the_keys_is_a_player_seated_event_of_the_verified_log(dealt: Dealt) -> None:
    seated = [r for r in lines(dealt.log_dir) if r["event"] == "player_seated"]
    assert [(r["seat"], r["player"], r["round"]) for r in seated] == [(1, "P-1077", 1)]
    started = next(r for r in lines(dealt.log_dir) if r["event"] == "round_started")
    assert started["players"] == {"1": "P-1077"} and started["seq"] > seated[0]["seq"]
    review = tablectl("review", dealt.log_dir)
    assert review.returncode == 0 and "result: verified; clean" in review.stdout, review.stdout + review.stderr


def test_the_entered_player_id_is_the_player_column_of_the_exports_bets_and_decisions(dealt: Dealt, tmp_path: Path) -> None:
    dataset = tmp_path / "ds"
    done = tablectl("export", dealt.log_dir, "--to", dataset)
    assert done.returncode == 0, done.stderr
    for name in ("bets", "decisions"):
        files = glob.glob(str(dataset / name / "**" / "*.parquet"), recursive=True)
        rows = duckdb.sql(f"SELECT DISTINCT seat, player FROM read_parquet({files!r}, union_by_name = true)").fetchall()
        assert rows == [(1, "P-1077")], name


@pytest.mark.parametrize(("typed", "refusal"), [
    ("P\u20111077", "seat 1: player id: '\u2011' (U+2011, character 2) looks like '-': type '-'"),
    ("P-" + "1" * 31, "seat 1: player id: 33 characters, at most 32"),
    ("", "seat 1: player id: empty (type the player's card number or id)"),
], ids=["look-alike hyphen", "too long", "empty"])
def test_a_bad_player_id_is_refused_in_one_line_and_nothing_is_logged(tmp_path: Path, typed: str, refusal: str) -> None:
    log_dir = tmp_path / "logs"
    k = at_table(log_dir)
    try:
        k.type(b"1P", lambda s: s.prompt_open)
        s = k.type(typed.encode() + b"\r", lambda s: s.status.startswith("✗ "))
        assert s.status.rstrip() == "✗ " + refusal
        assert "player" not in seat_row(s, 1)
        status, _ = k.quit()
        assert status == 0
    finally:
        k.t.kill()
    logged = lines(log_dir)
    assert logged and not [r for r in logged if r["event"] in ("player_seated", "input_rejected")]
