"""A simulated device on a loopback TCP socket (``socket://127.0.0.1:PORT``)."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator

import pytest
import serial
from tablectl.drivers import events as ev
from tablectl.drivers import messages as msg
from tablectl.simulators.factory import build_device
from tablectl.simulators.minihost import MiniHost, serial_io, socket_io
from tablectl.simulators.serving.tcp import TcpServer


@pytest.fixture
def servers() -> Iterator[list[TcpServer]]:
    started: list[TcpServer] = []
    yield started
    for s in started:
        s.stop()


def connect(address: str) -> tuple[socket.socket, MiniHost]:
    host, port = address.removeprefix("socket://").rsplit(":", 1)
    sock = socket.create_connection((host, int(port)), timeout=2)
    h = MiniHost(*socket_io(sock))
    h.open()
    return sock, h


def test_hello_identify_and_a_drawn_card_over_pyserial_socket_url(servers: list, shake: Callable) -> None:
    device = build_device("csm", seed=1, serial="TCP1")
    server = TcpServer(device, port=0)
    servers.append(server)
    address = server.start()
    assert address.startswith("socket://127.0.0.1:") and not address.endswith(":0")
    port = serial.serial_for_url(address, timeout=0.05)
    try:
        host = MiniHost(*serial_io(port))
        host.open()
        assert shake(host).serial == "TCP1"
        (drawn,) = device.draw()
        assert host.wait_type(ev.CardDrawn) == drawn
    finally:
        port.close()


def test_version_mismatch_over_tcp(servers: list) -> None:
    server = TcpServer(build_device("shoe", seed=2, protocol_version=0))
    servers.append(server)
    sock, host = connect(server.start())
    with sock:
        host.hello(1, 1)
        assert host.wait_type(msg.DeviceError) == msg.DeviceError(msg.ERR_VERSION, "device speaks protocol 0")


def test_one_host_at_a_time_and_a_reconnect_gets_a_new_session(servers: list, shake: Callable) -> None:
    device = build_device("shoe", seed=3)
    server = TcpServer(device)
    servers.append(server)
    address = server.start()
    first_sock, first = connect(address)
    shake(first)
    first.wait_type(ev.ShoeLoaded)
    second_sock, _ = connect(address)
    second_sock.settimeout(2)
    try:  # refused while the first host is connected: EOF, or a reset (it had sent its SYNC)
        assert second_sock.recv(100) == b""
    except ConnectionResetError:
        pass
    second_sock.close()
    first_sock.close()
    sock, host = connect(address)
    with sock:
        shake(host, replay_from=1)
        assert host.wait_type(ev.ShoeLoaded).event_no == 1  # still unpersisted: replayed
    assert server.connections == 2


def test_disconnect_fault_closes_the_socket(servers: list, shake: Callable) -> None:
    device = build_device("shoe", seed=4)
    server = TcpServer(device, unplug_for=0.1)
    servers.append(server)
    sock, host = connect(server.start())
    with sock:
        shake(host)
        host.wait_type(ev.ShoeLoaded)
        device.inject("disconnect")
        device.draw()
        with pytest.raises(ConnectionError):
            for _ in range(200):
                host.pump(0.02)
    assert server.unplugs == 1


def test_port_in_use_raises(servers: list) -> None:
    first = TcpServer(build_device("shoe", seed=5))
    servers.append(first)
    address = first.start()
    port = int(address.rsplit(":", 1)[1])
    with pytest.raises(OSError):
        TcpServer(build_device("shoe", seed=5), port=port).start()
