"""Review reads who sat where: each round names the players the pit had entered as it started
(``--json``), and ``review --seat N`` names the players entered at the seat with their rounds."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson
import pytest

REPO = Path(__file__).resolve().parents[2]


def tablectl(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tablectl", *map(str, args)], capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def log_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    logs = tmp_path_factory.mktemp("review-players") / "logs"
    done = tablectl("run", REPO / "config" / "tables" / "three-card-poker-florida.toml", "--simulate", "--autoplay", "8",
                    "--headless", "--seed", "2", "--player", "1:basic=P-9", "--player", "2:recreational", "--log-dir", logs)
    assert done.returncode == 0, done.stderr
    return logs


def test_every_round_names_the_players_entered_as_it_started(log_dir: Path) -> None:
    done = tablectl("review", log_dir, "--json")
    assert done.returncode == 0, done.stderr
    rounds = orjson.loads(done.stdout)["rounds"]
    assert len(rounds) == 8 and all(r["players"] == {"1": "P-9"} for r in rounds)


def test_review_seat_names_the_players_entered_at_the_seat_with_their_rounds(log_dir: Path) -> None:
    done = tablectl("review", log_dir, "--json")
    at_seat_1 = sum(1 for r in orjson.loads(done.stdout)["rounds"] if 1 in r["seats"])
    seat = tablectl("review", log_dir, "--seat", "1")
    assert f"Players entered at the seat: P-9 ({at_seat_1} rounds)" in seat.stdout.splitlines(), seat.stdout
