"""Shared fixtures for the simulator tests: an in-memory host wired to a device, a thread-leak check."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import pytest

from tablectl.drivers import events as ev
from tablectl.simulators.device import SimDevice
from tablectl.simulators.minihost import MiniHost

SIM_THREADS = ("sim-",)


@pytest.fixture(autouse=True)
def no_leaked_sim_threads() -> Iterator[None]:
    """Every test must stop the servers it started."""
    before = set(threading.enumerate())
    yield
    deadline = time.monotonic() + 2
    while True:
        leaked = [t.name for t in threading.enumerate() if t.name.startswith(SIM_THREADS) and t not in before]
        if not leaked or time.monotonic() > deadline:
            break
        time.sleep(0.02)
    assert not leaked, f"simulator threads left running: {leaked}"


def memory_host(device: SimDevice) -> MiniHost:
    """A MiniHost talking to ``device`` through plain function calls (no transport)."""
    if not device.online:
        device.connected(time.monotonic())

    def read(timeout: float) -> bytes:
        deadline = time.monotonic() + timeout
        while True:
            now = time.monotonic()
            device.poll(now)
            data = device.outgoing(now)
            if data or now >= deadline:
                return data
            time.sleep(0.002)

    host = MiniHost(read, lambda data: device.receive(data, time.monotonic()))
    host.open()
    return host


@pytest.fixture
def connect() -> Callable[[SimDevice], MiniHost]:
    return memory_host


def handshake(host: MiniHost, replay_from: int | None = 1) -> ev.Identify:
    """HELLO -> IDENTIFY, then (optionally) REPLAY_FROM."""
    host.hello()
    ident = host.wait_type(ev.Identify)
    if replay_from is not None:
        host.send(ev.ReplayFrom(replay_from))
    return ident


@pytest.fixture
def shake() -> Callable[..., ev.Identify]:
    return handshake
