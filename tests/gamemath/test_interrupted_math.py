"""A long computation stops at once: ``tablectl math texas-holdem-bonus`` and ``tablectl floor``
solving the Texas Hold'em Bonus main game on a machine that has not cached it, sent SIGINT
(Ctrl-C) or SIGTERM once they show their progress, end within 2 s of the signal with exit 130,
leave no process behind and no cache file half written: the next run solves again. The hours
long hole-card count (``--advantage``) stops as soon, its workers with it, every hand it has
counted kept whole.

Real processes, each with its own empty cache (``XDG_CACHE_HOME``); the signal is sent as soon as
the progress line shows, two seconds into the solve, so each test takes seconds.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from stopping import assert_stopped_at_once, start, stop_after

from tablectl.gamemath.holdem import strategy

REPO = Path(__file__).resolve().parents[2]
SIGNALS = pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])


def assert_no_cache_file(cache: Path) -> None:
    """Nothing of the main game in the cache, not even a temporary file: the next run solves."""
    folder = cache / "tablectl"
    left = sorted(p.name for p in folder.iterdir()) if folder.exists() else []
    assert [name for name in left if name.startswith("thb-main") or name.endswith(".tmp")] == []
    assert strategy.will_solve(folder)


@SIGNALS
def test_math_solving_the_main_game_stops_within_two_seconds_of_a_signal_and_leaves_no_half_cache(
        signum: int, tmp_path: Path) -> None:
    proc = start(["math", "texas-holdem-bonus", "--json", "--progress"], {"XDG_CACHE_HOME": str(tmp_path)})
    stopped = stop_after(proc, b"ETA", signum)
    assert "solving Texas Hold'em Bonus's main game" in stopped.stderr
    assert_stopped_at_once(stopped, "math")
    assert_no_cache_file(tmp_path)


@pytest.fixture(scope="module")
def holdem_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A simulated Texas Hold'em Bonus table of 10 rounds, exported."""
    root = tmp_path_factory.mktemp("thb")

    def tablectl(*args: str | Path) -> None:
        done = subprocess.run([sys.executable, "-m", "tablectl", *map(str, args)], capture_output=True, text=True,
                              check=False, timeout=600)
        assert done.returncode == 0, done.stderr

    tablectl("keygen", root / "keys")
    tablectl("run", REPO / "config" / "tables" / "texas-holdem-bonus.toml", "--simulate", "--headless", "--autoplay",
             "10", "--seed", "3", "--log-dir", root / "logs", "--signing-key", root / "keys" / "table.key")
    tablectl("export", root / "logs", "--to", root / "ds", "--key", root / "keys" / "table.pub")
    return root / "ds"


@SIGNALS
def test_floor_solving_the_main_game_stops_within_two_seconds_of_a_signal_and_leaves_no_half_cache(
        signum: int, holdem_dataset: Path, tmp_path: Path) -> None:
    proc = start(["floor", holdem_dataset, "--progress"], {"XDG_CACHE_HOME": str(tmp_path)})
    stopped = stop_after(proc, b"ETA", signum)
    assert "computing the Texas Hold'em Bonus main game's optimal strategy" in stopped.stderr
    assert_stopped_at_once(stopped, "floor")
    assert_no_cache_file(tmp_path)


@SIGNALS
def test_the_hole_card_count_stops_within_two_seconds_of_a_signal_keeping_each_hand_counted_whole(
        signum: int, tmp_path: Path) -> None:
    proc = start(["math", "texas-holdem-bonus", "--advantage", "--workers", "2", "--progress"],
                 {"XDG_CACHE_HOME": str(tmp_path)})
    stopped = stop_after(proc, b"hands counted", signum)  # a hand counted, two in progress
    assert_stopped_at_once(stopped, "math")
    [results] = (tmp_path / "tablectl").glob("*.units.jsonl")
    lines = results.read_text(encoding="utf-8").splitlines()
    assert lines and all(json.loads(line)["k"] for line in lines)
