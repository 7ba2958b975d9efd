"""A simulated device on a real pseudo-terminal, opened with pyserial like any serial port."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest
import serial
from tablectl.drivers import events as ev
from tablectl.drivers import messages as msg
from tablectl.simulators.device import SimDevice
from tablectl.simulators.factory import build_device
from tablectl.simulators.minihost import MiniHost, serial_io
from tablectl.simulators.serving.pty import PtyServer


@pytest.fixture
def served() -> Iterator[Callable[[SimDevice], tuple[PtyServer, MiniHost]]]:
    started: list[tuple[PtyServer, serial.SerialBase]] = []

    def serve(device: SimDevice) -> tuple[PtyServer, MiniHost]:
        server = PtyServer(device, unplug_for=0.2)
        path = server.start()
        port = serial.serial_for_url(path, timeout=0.05)
        started.append((server, port))
        host = MiniHost(*serial_io(port))
        host.open()
        return server, host

    yield serve
    for server, port in started:
        port.close()
        server.stop()


def test_address_is_the_slave_path_and_hello_gets_identify(served: Callable, shake: Callable) -> None:
    server, host = served(build_device("shoe", seed=1, serial="PTY1"))
    assert server.address.startswith("/dev/pts/")
    ident = shake(host)
    assert ident.serial == "PTY1" and ident.kind == ev.DeviceKind.SHOE


def test_a_card_drawn_via_the_control_api_arrives(served: Callable, shake: Callable) -> None:
    device = build_device("shoe", seed=2)
    _, host = served(device)
    shake(host)
    assert isinstance(host.wait_type(ev.ShoeLoaded), ev.ShoeLoaded)
    (drawn,) = device.draw()
    assert host.wait_type(ev.CardDrawn) == drawn


def test_version_mismatch_over_a_pty(served: Callable) -> None:
    _, host = served(build_device("csm", seed=3, protocol_version=7))
    host.hello()
    assert host.wait_type(msg.DeviceError).code == msg.ERR_VERSION


def test_unplug_and_replug_starts_a_new_session_and_replay_fills_the_gap(served: Callable, shake: Callable) -> None:
    device = build_device("shoe", seed=4)
    server, host = served(device)
    shake(host)
    host.wait_type(ev.ShoeLoaded)
    sessions = host.device_sessions
    host.inbox.clear()
    server.unplug(0.2)
    time.sleep(0.05)
    lost = device.draw()[0]  # while unplugged: stored, not sent
    host.wait_for(lambda m: m == msg.SYNC, timeout=3)
    assert host.device_sessions == sessions + 1
    shake(host, replay_from=lost.event_no)
    assert host.wait_type(ev.CardDrawn) == lost
