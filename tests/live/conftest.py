"""Fixtures of the live floor's tests: a broker (a real nats-server) on a free loopback port in a
temporary folder, for a module or for one test; helpers in ``livehelpers``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from livehelpers import kill_left_running, make_streams, purge

from tablectl.live.broker import Broker


@pytest.fixture(autouse=True)
def no_process_left() -> Iterator[None]:
    """A test that fails before stopping its tables and collectors leaves none of them running."""
    yield
    kill_left_running()


@pytest.fixture(scope="module")
def shared_broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Broker]:
    """One broker for a module's tests that do not stop it, the log stream made."""
    with Broker(tmp_path_factory.mktemp("broker"), listen="127.0.0.1:0") as b:
        make_streams(b.url)
        yield b


@pytest.fixture
def broker(shared_broker: Broker) -> Broker:
    """The module's broker, its stream emptied for this test."""
    purge(shared_broker.url)
    return shared_broker


@pytest.fixture
def own_broker(tmp_path: Path) -> Iterator[Broker]:
    """A broker of this test's own (it stops and restarts it)."""
    b = Broker(tmp_path / "broker", listen="127.0.0.1:0").start()
    make_streams(b.url)
    yield b
    b.stop()
