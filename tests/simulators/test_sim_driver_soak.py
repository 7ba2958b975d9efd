"""Slow: the real host driver against the simulators through a fault campaign (run: pytest -n 0 -m slow).

Every event the device issues must reach the driver's sink exactly once, in order, across line
noise, CRC errors, drops, duplicates, reordering, disconnects and a device restart.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from tablectl.drivers import events as ev
from tablectl.simulators.device import SimDevice
from tablectl.simulators.factory import build_device
from tablectl.simulators.serving.pty import PtyServer
from tablectl.simulators.serving.server import ServerBase
from tablectl.simulators.serving.tcp import TcpServer
from tablectl.simulators.serving.usb import SimUsbBackend

registry = pytest.importorskip("tablectl.drivers.registry")

LINE = ["noise=0.05", "crc=0.05", "drop=0.05", "dup=0.05", "reorder=0.05"]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("transport", "faults"),
    [("tcp", LINE), ("pty", LINE), ("usb", LINE), ("tcp", ["disconnect=0.01"]), ("pty", ["disconnect=0.01"])],
)
def test_every_event_reaches_the_driver_once_in_order(transport: str, faults: list[str]) -> None:
    device = build_device("shoe", seed=11, faults=faults, retransmit_after=0.02)
    got: list[ev.DeviceEvent] = []
    lock = threading.Lock()

    def sink(name: str, event: ev.DeviceEvent) -> None:
        with lock:
            got.append(event)

    server: ServerBase | None = None
    backend = None
    factories: dict[str, Callable[[SimDevice], ServerBase]] = {
        "tcp": lambda d: TcpServer(d, unplug_for=0.1),
        "pty": lambda d: PtyServer(d, unplug_for=0.1),
    }
    if transport == "usb":
        backend = SimUsbBackend(device)
        address = "usb:1209:7ab1"
    else:
        server = factories[transport](device)
        address = server.start()
    driver = registry.open_device("shoe", address, "soak", sink, usb_backend=backend)
    try:
        for i in range(300):
            device.draw()
            if i == 150:
                device.restart()
            time.sleep(0.001)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with lock:
                numbers = [e.event_no for e in got if e.event_no]
            if numbers and numbers[-1] >= device.store.last_no:
                break
            time.sleep(0.05)
    finally:
        driver.stop()
        if server is not None:
            server.stop()
    assert numbers == list(range(1, device.store.last_no + 1))
