"""A device that comes back as a different or a reset device is refused, and the reason goes where
people look: the ``Fault(DISCONNECTED)`` the driver reports (which the table logs and shows as its
alarm) and the line ``devices watch`` prints - not only a warning on stderr."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator

import pytest
from fakedevice import FakeDevice
from tablectl.drivers import events as ev
from tablectl.drivers.shoe import ShoeDriver
from tablectl.drivers.transport_serial import SerialTransport
from tablectl.simulators.factory import build_device
from tablectl.simulators.serving.tcp import TcpServer

from tablectl.pytest_plugin import DeviceEvents

TIMEOUT = 15.0
FAST = {"answer_timeout": 0.5, "reconnect_initial": 0.01, "reconnect_max": 0.1}


def _another_device(device: FakeDevice) -> None:
    device.serial = "FAKE-2"


def _reset_device(device: FakeDevice) -> None:
    device.store.clear()
    device.next_no = 1  # its event counter starts again


def _disconnections(sink: DeviceEvents) -> list[tuple[bool, str]]:
    return [(f.cleared, f.detail) for f in sink.of_type(ev.Fault) if f.kind is ev.FaultKind.DISCONNECTED]


@pytest.fixture
def connected() -> Iterator[tuple[FakeDevice, TcpServer, DeviceEvents]]:
    device = FakeDevice()
    sink = DeviceEvents()
    with TcpServer(device, unplug_for=0.3) as server:
        driver = ShoeDriver("shoe", SerialTransport(server.address), sink, **FAST)
        driver.start()
        device.add(lambda n: ev.CardDrawn(n, 1))
        sink.wait_for(lambda es: any(e.event_no == 1 for e in es))
        try:
            yield device, server, sink
        finally:
            driver.stop()


@pytest.mark.parametrize(
    ("swap", "reason"),
    [
        (_another_device, "refused: a different device answered (serial 'FAKE-2', expected 'FAKE-1')"),
        (_reset_device, "refused: device event counter is at 0, behind event 1 already logged for it"),
    ],
    ids=["different", "reset"],
)
def test_a_device_refused_after_a_reconnect_is_reported_with_the_reason(
    connected, swap: Callable[[FakeDevice], None], reason: str
) -> None:
    device, server, sink = connected
    with device.lock:
        swap(device)
    server.unplug()
    sink.wait_for(lambda es: len(_disconnections(sink)) >= 2)
    first, second = _disconnections(sink)[:2]
    assert first[0] is False and first[1].startswith("connection lost")
    assert second[0] is False and second[1].startswith(reason)
    time.sleep(1.0)  # several more reconnects, each refused for the same reason: said once
    assert len(_disconnections(sink)) == 2


def test_devices_watch_prints_why_the_device_is_refused_after_a_reconnect() -> None:
    sim = build_device("shoe", seed=2)
    with TcpServer(sim, unplug_for=0.3) as server:
        watch = subprocess.Popen(
            [sys.executable, "-m", "tablectl", "devices", "watch", "shoe", server.address],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: [lines.put(line) for line in watch.stdout or ()], daemon=True).start()
        try:
            assert lines.get(timeout=TIMEOUT).startswith("#1 shoe_loaded")
            sim.serial = "ANOTHER-SHOE"
            server.unplug()
            dropped, refused = lines.get(timeout=TIMEOUT), lines.get(timeout=TIMEOUT)
        finally:
            watch.kill()
            watch.wait(TIMEOUT)
    assert dropped.startswith("-- fault kind=disconnected cleared=False detail=connection lost")
    assert "detail=refused: a different device answered (serial 'ANOTHER-SHOE'" in refused
