"""The floor's per-player table: one simulated player (``--player 1:basic=P-1``) at two tables,
two logs exported to one dataset, comes out as one row with both tables' rounds, and his figures
are his seats' figures summed."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from exporthelpers import run_tablectl

from tablectl.analytics.floor.report import floor

REPO = Path(__file__).resolve().parents[2]
TABLES = ("one-for-the-money-shoe", "three-card-poker-florida")


def rounds_at_seat_1(log_dir: Path) -> int:
    records = [orjson.loads(x) for p in sorted(log_dir.glob("*.jsonl")) for x in p.read_bytes().splitlines()]
    voided = {r["round"] for r in records if r["event"] == "round_voided"}
    return sum(1 for r in records if r["event"] == "round_started" and 1 in r["seats"] and r["round"] not in voided
               and r.get("players") == {"1": "P-1"})


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Path]]:
    root = tmp_path_factory.mktemp("player-floor")
    logs = {}
    for table in TABLES:
        logs[table] = root / table
        done = run_tablectl("run", REPO / "config" / "tables" / f"{table}.toml", "--simulate", "--autoplay", "12",
                            "--headless", "--seed", "4", "--player", "1:basic=P-1", "--log-dir", logs[table])
        assert done.code == 0, done.err
    dataset = root / "ds"
    done = run_tablectl("export", *logs.values(), "--to", dataset)
    assert done.code == 0, done.err
    return dataset, logs


def test_one_player_at_two_tables_is_one_row_with_both_tables_rounds(played: tuple[Path, dict[str, Path]]) -> None:
    dataset, logs = played
    players = floor(dataset).players.dicts()
    assert [(p["player"], p["tables"]) for p in players] == [("P-1", 2)]
    each = [rounds_at_seat_1(d) for d in logs.values()]
    assert min(each) > 0 and players[0]["rounds"] == sum(each)


def test_a_players_handle_theo_and_win_are_his_seats_summed(played: tuple[Path, dict[str, Path]]) -> None:
    dataset, _ = played
    report = floor(dataset)
    (p,) = report.players.dicts()
    seats = [s for s in report.seats.dicts() if s["seat"] == 1]
    assert len(seats) == 2
    assert p["handle"] == sum(s["handle"] for s in seats)
    assert p["win"] == sum(s["win"] for s in seats)
    assert p["theo_win"] == pytest.approx(sum(s["theo_win"] for s in seats))
    assert p["edge_as_played"] == pytest.approx(-p["theo_win"] / p["handle"])


def test_the_floor_prints_the_per_player_table(played: tuple[Path, dict[str, Path]]) -> None:
    dataset, _ = played
    done = run_tablectl("floor", dataset)
    assert done.code == 0, done.err
    section = done.out[done.out.index("Players"):]
    assert any(line[2:].startswith("P-1 ") for line in section.split("\n\n")[0].splitlines())
    assert "edge as played" in " ".join(section.split())
