"""Shared fixtures of the surveillance tests: a small simulated floor (every game, two days, the
planted stacking dealer and weak shuffler) played once per session, and ``tablectl`` run as a
user runs it, in a subprocess."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from exporthelpers import THB_MAIN, Tablectl, play_and_export, run_tablectl  # noqa: E402
from floorgen import Floor, make_floor  # noqa: E402

# the game math these tests expect is the exact one: the Texas Hold'em Bonus main game as
# `tablectl math texas-holdem-bonus` computes and caches it (minutes), here from its stored result,
# and nothing else the machine running the tests has cached
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="tablectl-test-cache-")


def _cache_main_game() -> None:
    from tablectl.gamemath.holdem import strategy as holdem_strategy

    folder = holdem_strategy.cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(THB_MAIN, folder / f"thb-main-{holdem_strategy._cache_key()}.json")


_cache_main_game()


@pytest.fixture
def tablectl() -> Tablectl:
    return run_tablectl


@pytest.fixture(scope="session")
def small_floor(tmp_path_factory: pytest.TempPathFactory) -> Floor:
    """Five tables (one per game; One for the Money on the weak shuffler), two days of 20 rounds."""
    return make_floor(tmp_path_factory.mktemp("floor"), per_game=1, days=2, rounds=20)


@pytest.fixture(scope="session")
def exported(small_floor: Floor, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The small floor exported once (read only: copy it to change it)."""
    dataset = tmp_path_factory.mktemp("dataset") / "ds"
    done = run_tablectl("export", *small_floor.logs.values(), "--to", dataset, "--key", small_floor.public_key)
    assert done.code == 0, done.err
    return dataset


@pytest.fixture
def floor_copy(small_floor: Floor, tmp_path: Path) -> Floor:
    """A copy of the small floor's logs that a test may change."""
    logs = tmp_path / "logs"
    shutil.copytree(small_floor.root / "logs", logs)
    return Floor(tmp_path, small_floor.public_key, {name: logs / name for name in small_floor.logs},
                 dict(small_floor.dealers), dict(small_floor.serials), small_floor.rounds)


TCP_CONFIG = Path(__file__).parents[2] / "config" / "tables" / "three-card-poker.toml"


@pytest.fixture(scope="session")
def hole_card_table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A simulated Three Card Poker table of 150 rounds, seat 1 a hole-carder (sees the dealer's
    first card), seat 2 basic strategy, exported (read only): its folder holds ``logs``, ``keys``
    and the dataset ``ds``."""
    return play_and_export(tmp_path_factory.mktemp("judged"), TCP_CONFIG, 150, "1:hole-card", "2:basic")
