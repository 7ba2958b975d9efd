"""The handshake against frames a previous host left behind on the line.

A device behind a serial line (a pty, or a TCP bridge to one as ser2net or socat is) keeps its
link session across hosts. A host that dies after HELLO leaves the device's IDENTIFY
unacknowledged; the device sends it again, in a new session, to the next host (protocol 4.2
allows it). That IDENTIFY is stale: its event counter is where the device stood back then. The
next host must not take it for the answer to its own HELLO.
"""

from __future__ import annotations

import os
import select
import socket
import threading
import time
import tty
from collections.abc import Iterator

import pytest
import serial
from fakedevice import FakeDevice
from tablectl.drivers import events as ev
from tablectl.drivers import messages as msg
from tablectl.drivers.errors import WrongDevice
from tablectl.drivers.framer import Framer
from tablectl.drivers.link import Link
from tablectl.drivers.shoe import ShoeDriver
from tablectl.drivers.transport_serial import SerialTransport
from tablectl.simulators.device import SimDevice
from tablectl.simulators.factory import build_device
from tablectl.simulators.serving.pty import PtyServer

from tablectl.pytest_plugin import DeviceEvents

TIMEOUT = 10.0


class TcpBridge:
    """A TCP port in front of a serial line, as ser2net or socat serve one: each connection opens
    the line, relays bytes both ways, and closes the line when the connection ends. The device
    behind it never sees the TCP connection come or go."""

    def __init__(self, line: str) -> None:
        self.line = line
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.address = f"socket://127.0.0.1:{self._listener.getsockname()[1]}"
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="test-tcp-bridge", daemon=True)

    def __enter__(self) -> TcpBridge:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(5)
        self._listener.close()

    def _serve(self) -> None:
        while not self._stop.is_set():
            if not select.select([self._listener], [], [], 0.05)[0]:
                continue
            client, _ = self._listener.accept()
            fd = os.open(self.line, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
            tty.setraw(fd)
            try:
                self._relay(client, fd)
            finally:
                os.close(fd)
                client.close()

    def _relay(self, client: socket.socket, fd: int) -> None:
        while not self._stop.is_set():
            ready = select.select([client, fd], [], [], 0.05)[0]
            if client in ready:
                data = client.recv(4096)
                if not data:
                    return
                os.write(fd, data)
            if fd in ready:
                try:
                    client.sendall(os.read(fd, 4096))
                except BlockingIOError:
                    continue
                except OSError:
                    return


def _host_a_dies_after_hello(line: serial.SerialBase) -> None:
    """Host A: SYNC + HELLO, wait for the IDENTIFY, leave without acknowledging it."""
    link = Link()
    link.open(time.monotonic())
    link.send(*msg.encode(msg.Hello(msg.PROTOCOL_VERSION, msg.PROTOCOL_VERSION)), time.monotonic())
    line.write(link.outgoing())
    framer = Framer()
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        for frame in framer.feed(line.read(4096)):
            if frame.type == msg.IDENTIFY:
                line.close()
                return
    raise AssertionError("host A never saw the device's IDENTIFY")


@pytest.fixture
def shoe() -> Iterator[tuple[SimDevice, PtyServer]]:
    device = build_device("shoe", seed=3)  # loaded: its SHOE_LOADED is event 1
    with PtyServer(device) as server:
        yield device, server


@pytest.mark.parametrize("way", ["pty", "tcp"])
def test_a_host_that_died_mid_handshake_does_not_lock_the_next_host_out(way: str, shoe) -> None:
    device, server = shoe
    assert device.store.last_no == 1
    with TcpBridge(server.address) as bridge:
        address = server.address if way == "pty" else bridge.address
        _host_a_dies_after_hello(serial.serial_for_url(address, timeout=0.05))
        drawn = [e for _ in range(5) for e in device.draw()]
        assert [e.event_no for e in drawn] == [2, 3, 4, 5, 6]

        sink = DeviceEvents()
        host_b = ShoeDriver("shoe", SerialTransport(address), sink, resume_after=6)
        try:
            ident = host_b.start()
            assert ident.last_event_no == 6  # the answer to its own HELLO, not host A's
            drawn = [e for _ in range(5) for e in device.draw()]
            sink.wait_for(lambda es: any(e.event_no == 11 for e in es), TIMEOUT)
            assert [(e.event_no, e.card) for e in sink.numbered()] == [(e.event_no, e.card) for e in drawn]
        finally:
            host_b.stop()


def test_a_device_whose_counter_really_went_back_is_refused_after_the_answer_timeout_naming_why() -> None:
    device = FakeDevice()
    device.add(lambda n: ev.CardDrawn(n, 0))
    with PtyServer(device) as server:
        host = ShoeDriver("shoe", SerialTransport(server.address), DeviceEvents(), resume_after=40, answer_timeout=0.5)
        t0 = time.monotonic()
        with pytest.raises(WrongDevice) as e:
            host.start()
        waited = time.monotonic() - t0
    assert "device event counter is at 1, behind event 40 already logged" in str(e.value)
    assert waited >= 0.5  # it asked again until the answer timeout before refusing ...
    assert len(device.of_type(msg.Hello)) >= 2  # ... with HELLO
