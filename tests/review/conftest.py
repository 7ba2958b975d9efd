"""Shared fixtures of the review tests, from ``reviewhelpers``: the shipped table configs signed
with a fresh key, runs of the real controller on simulated devices, and controller-shaped logs
written line by line."""

from __future__ import annotations

from pathlib import Path

import pytest
from reviewhelpers import RunTable, TableLog, WriteConfig
from reviewhelpers import run_table as _run_table
from reviewhelpers import write_config as _write_config

from tablectl.config import load_config
from tablectl.review.model import TableSetup


@pytest.fixture(scope="session")
def write_config() -> WriteConfig:
    """``write_config(tmp, table, drop=(), **changes)``: the shipped table config *table*
    (``config/tables/``) signed with a fresh key, top-level keys in *drop* left out and *changes*
    merged in, written to ``tmp/table.toml``; returns (config, public key)."""
    return _write_config


@pytest.fixture(scope="session")
def run_table() -> RunTable:
    """``run_table(config, log_dir, rounds, seed=, mistakes=None)``: ``tablectl run CONFIG --simulate
    --headless --autoplay ROUNDS`` — the real controller, drivers and simulators, and the virtual
    dealer (committing procedure errors in a *mistakes* share of the rounds)."""
    return _run_table


@pytest.fixture(scope="session")
def clean_log(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """One Card Poker, 5 honest rounds: (log directory, public key). Read only: copy it to change it."""
    tmp = tmp_path_factory.mktemp("clean")
    config, pub = _write_config(tmp, "one-card-poker.toml")
    _run_table(config, tmp / "log", 5, seed=4)
    return tmp / "log", pub


@pytest.fixture(scope="session")
def mistaken_table(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """One Card Poker, 120 rounds with dealer mistakes (violations, holds, voided rounds), a file
    per shoe: (log directory, public key, config). Read only: copy it to change it."""
    tmp = tmp_path_factory.mktemp("mistaken")
    config, pub = _write_config(tmp, "one-card-poker.toml")
    _run_table(config, tmp / "log", 120, seed=5, mistakes=0.2)
    return tmp / "log", pub, config


@pytest.fixture(scope="session")
def mistaken_slice(mistaken_table: tuple[Path, Path, Path]) -> tuple[list[Path], Path, TableSetup]:
    """The second and third files of :func:`mistaken_table` (a slice, not starting at seq 1), its
    public key, and what its config tells review."""
    log, pub, config = mistaken_table
    return sorted(log.glob("*.jsonl"))[1:3], pub, TableSetup.from_config(load_config(config), f"config {config}")


@pytest.fixture
def table_log(tmp_path: Path) -> TableLog:
    """A :class:`TableLog` writing to ``tmp_path`` (its ``table_started`` already appended)."""
    return TableLog(tmp_path)
