"""Fixtures for the table's tests, from ``tablehelpers``: configs built from plain values, an
in-memory event log double, a ``TableCore`` with a small driving helper, a table autoplayed on
simulated devices."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tablehelpers import CONFIGS, MemoryLog, Played, RecordingSim, Table, make_config, play

from tablectl.config import TableConfig
from tablectl.table.restart.resume import fold


@pytest.fixture
def memory_log() -> type[MemoryLog]:
    """The in-memory event log double (class)."""
    return MemoryLog


@pytest.fixture
def config() -> Callable[..., TableConfig]:
    """``config(game, **overrides)`` -> a valid ``TableConfig``."""
    return make_config


@pytest.fixture
def table() -> Callable[..., Table]:
    """``table(game, **overrides)`` -> a ``Table`` (online, nothing loaded yet)."""
    return lambda game, **overrides: Table(make_config(game, **overrides))


@pytest.fixture
def table_from_log() -> Callable[..., Table]:
    """``table_from_log(game, records)`` -> a ``Table`` that went online after a restart, given the
    log records of its previous run (plain dicts with ``event``)."""
    return lambda game, records: Table(make_config(game), fold(records, "dev"))


@pytest.fixture(scope="session")
def play_table() -> Callable[..., Played]:
    """``play_table(config_name, tmp_path, rounds, **options)`` -> ``Played`` (see ``play``)."""
    return lambda name, tmp, rounds, **kw: play(CONFIGS / f"{name}.toml", tmp, rounds, **kw)


@pytest.fixture(scope="session")
def recording_sim() -> type[RecordingSim]:
    """The ``RecordingSim`` class, for tests that wire a runtime themselves."""
    return RecordingSim
