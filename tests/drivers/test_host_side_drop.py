"""Only the host's side of the link drops (a serial device server such as ser2net restarted, the
network gone) while the device stays on its serial line, keeps its link session and goes on
sending: it sends the events it had in flight again as soon as a host answers, in the same
session, ahead of its IDENTIFY. The driver clears the DISCONNECTED fault before it delivers them,
so the table takes them as dealt cards, not as cards drawn while the device was at fault."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest
from fakedevice import FakeDevice
from tablectl.drivers import events as ev
from tablectl.drivers.shoe import ShoeDriver
from tablectl.drivers.transport_serial import SerialTransport
from tablectl.simulators.serving.pty import PtyServer
from tablectl.simulators.serving.rfc2217 import Rfc2217Bridge

from tablectl.pytest_plugin import DeviceEvents

FAST = {"answer_timeout": 0.5, "reconnect_initial": 0.01, "reconnect_max": 0.1, "keepalive_after": 60.0}


def card(n: int) -> ev.CardDrawn:
    return ev.CardDrawn(n, n % 52)


def seen(sink: DeviceEvents) -> list[tuple[str, int, bool | None]]:
    """What the table was given, in order: (type, event number, cleared for a fault)."""
    return [(type(e).__name__, e.event_no, getattr(e, "cleared", None)) for e in sink.events]


class RestartingServer(Rfc2217Bridge):
    """An RFC 2217 device server in front of the device's line that can go down and come back:
    down, it drops its client and leaves a new connection waiting, unanswered, until it is up."""

    def __init__(self, port_path: str) -> None:
        super().__init__(port_path)
        self.up = threading.Event()
        self.up.set()

    def go_down(self) -> None:
        self.up.clear()
        client = self._client
        if client is not None:
            client.shutdown(socket.SHUT_RDWR)

    def _bridge(self, client: socket.socket) -> None:
        while not self.up.wait(0.05):
            if not self._alive.is_set():
                return
        super()._bridge(client)


@pytest.fixture
def device_behind_a_server() -> Iterator[tuple[FakeDevice, RestartingServer]]:
    """A device on a serial line (a pty) and the RFC 2217 server that bridges the line to TCP."""
    device = FakeDevice()
    with PtyServer(device) as line, RestartingServer(line.address) as server:
        yield device, server


def test_cards_drawn_while_the_device_server_was_down_come_after_the_cleared_fault(device_behind_a_server) -> None:
    device, server = device_behind_a_server
    sink = DeviceEvents(timeout=15.0)
    driver = ShoeDriver("shoe", SerialTransport(f"{server.address}?timeout=10"), sink, **FAST)
    try:
        driver.start()
        device.add(card)
        device.add(card)
        sink.wait_for(lambda es: any(e.event_no == 2 for e in es))
        server.go_down()  # the device server restarts; the device on its line notices nothing
        sink.wait_for(lambda es: any(isinstance(e, ev.Fault) for e in es))
        device.add(card)  # dealt meanwhile: sent on the line, unacknowledged, sent again and again
        device.add(card)
        server.up.set()  # the device server is back
        sink.wait_for(lambda es: any(e.event_no == 4 for e in es))
        assert seen(sink) == [
            ("CardDrawn", 1, None),
            ("CardDrawn", 2, None),
            ("Fault", 0, False),
            ("Fault", 0, True),
            ("CardDrawn", 3, None),
            ("CardDrawn", 4, None),
        ]
        assert [e.card for e in sink.of_type(ev.CardDrawn)] == [1, 2, 3, 4]
    finally:
        driver.stop()
