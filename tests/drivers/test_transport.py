"""Transports over real ptys and real loopback sockets; address parsing; error messages."""

from __future__ import annotations

import os
import pty
import socket
import threading
import time
import tty
from collections.abc import Iterator

import pytest
from tablectl.drivers.errors import DeviceUnavailable
from tablectl.drivers.transport import transport_for
from tablectl.drivers.transport_serial import SerialTransport
from tablectl.drivers.transport_usb import UsbTransport
from tablectl.drivers.usb_address import UsbAddress, parse_usb_address


@pytest.fixture
def pty_pair() -> Iterator[tuple[int, str]]:
    master, slave = pty.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    os.close(slave)
    yield master, path
    try:
        os.close(master)
    except OSError:
        pass


@pytest.fixture
def pty_port(pty_pair) -> Iterator[tuple[int, SerialTransport]]:
    master, path = pty_pair
    t = SerialTransport(path)
    t.open()
    yield master, t
    t.close()


@pytest.fixture
def tcp_pair() -> Iterator[tuple[socket.socket, SerialTransport]]:
    listener = socket.create_server(("127.0.0.1", 0))
    t = SerialTransport(f"socket://127.0.0.1:{listener.getsockname()[1]}")
    t.open()
    conn, _ = listener.accept()
    listener.close()
    yield conn, t
    t.close()
    conn.close()


def read_until(t: SerialTransport, n: int, timeout: float = 2.0) -> bytes:
    data = b""
    deadline = time.monotonic() + timeout
    while len(data) < n and time.monotonic() < deadline:
        data += t.read(4096, 0.05)
    return data


# --- pty ------------------------------------------------------------------------------------


def test_pty_bytes_flow_both_ways(pty_port) -> None:
    master, t = pty_port
    os.write(master, b"\xa5\x5a device")
    assert read_until(t, 9) == b"\xa5\x5a device"
    t.write(b"\x00\xffhost")
    time.sleep(0.02)
    assert os.read(master, 100) == b"\x00\xffhost"


def test_pty_read_returns_as_soon_as_a_byte_arrives(pty_port) -> None:
    master, t = pty_port
    threading.Timer(0.05, os.write, (master, b"x")).start()
    t0 = time.monotonic()
    assert t.read(4096, 2.0) == b"x"
    assert time.monotonic() - t0 < 0.5


def test_pty_read_times_out_empty(pty_port) -> None:
    _, t = pty_port
    t0 = time.monotonic()
    assert t.read(4096, 0.1) == b""
    assert time.monotonic() - t0 >= 0.09


def test_wakeup_releases_a_blocked_read(pty_port) -> None:
    _, t = pty_port
    threading.Timer(0.05, t.wakeup).start()
    t0 = time.monotonic()
    assert t.read(4096, 5.0) == b""
    assert time.monotonic() - t0 < 1.0


def test_a_port_already_open_is_refused_as_in_use(pty_port, pty_pair) -> None:
    _, path = pty_pair
    with pytest.raises(DeviceUnavailable, match=f"^{path}: port already in use"):
        SerialTransport(path).open()


def test_a_missing_port_is_reported_as_not_existing() -> None:
    with pytest.raises(DeviceUnavailable) as e:
        SerialTransport("/dev/ttyTABLECTL99").open()
    assert str(e.value) == "/dev/ttyTABLECTL99: does not exist"


@pytest.mark.skipif(os.geteuid() == 0, reason="root opens anything")
def test_a_port_without_permission_is_reported_as_such(tmp_path) -> None:
    f = tmp_path / "tty"
    f.write_bytes(b"")
    f.chmod(0)
    with pytest.raises(DeviceUnavailable, match="permission denied"):
        SerialTransport(str(f)).open()


def test_a_hung_up_pty_is_a_lost_connection(pty_port) -> None:
    master, t = pty_port
    os.close(master)
    with pytest.raises(DeviceUnavailable, match="connection lost"):
        read_until(t, 1)


def test_close_is_idempotent(pty_port) -> None:
    _, t = pty_port
    t.close()
    t.close()
    with pytest.raises(DeviceUnavailable, match="not open"):
        t.read(1, 0)


# --- TCP ------------------------------------------------------------------------------------


def test_tcp_bytes_flow_both_ways(tcp_pair) -> None:
    conn, t = tcp_pair
    conn.sendall(b"device")
    assert read_until(t, 6) == b"device"
    t.write(b"host")
    assert conn.recv(100) == b"host"


def test_tcp_peer_closing_is_a_lost_connection(tcp_pair) -> None:
    conn, t = tcp_pair
    conn.close()
    with pytest.raises(DeviceUnavailable, match="connection lost"):
        read_until(t, 1)


def test_tcp_refused_is_reported_in_one_line() -> None:
    s = socket.create_server(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    with pytest.raises(DeviceUnavailable) as e:
        SerialTransport(f"socket://127.0.0.1:{port}").open()
    assert str(e.value) == f"socket://127.0.0.1:{port}: connection refused"


def test_an_unknown_url_scheme_is_an_invalid_address() -> None:
    with pytest.raises(DeviceUnavailable, match="^nope://x: invalid address"):
        SerialTransport("nope://x").open()


# --- addresses ------------------------------------------------------------------------------


def test_usb_addresses_parse_with_and_without_a_serial_number() -> None:
    assert parse_usb_address("usb:1209:7ab1") == UsbAddress(0x1209, 0x7AB1, None)
    assert parse_usb_address("usb:1209:7AB1:SN-42") == UsbAddress(0x1209, 0x7AB1, "SN-42")


@pytest.mark.parametrize("bad", ["usb:", "usb:1209", "usb:xyz:7ab1", "usb:12345:1"])
def test_a_malformed_usb_address_is_refused(bad: str) -> None:
    with pytest.raises(DeviceUnavailable, match="invalid USB address"):
        parse_usb_address(bad)


def test_the_address_picks_the_transport() -> None:
    assert isinstance(transport_for("usb:1209:7ab1"), UsbTransport)
    assert isinstance(transport_for("/dev/ttyUSB0"), SerialTransport)
    assert isinstance(transport_for("socket://localhost:7000"), SerialTransport)


def test_a_port_without_a_file_descriptor_reads_through_pyserials_timed_read() -> None:
    t = SerialTransport("loop://")  # like rfc2217://: no fileno, pyserial's own timeouts
    t.open()
    try:
        assert t.read(4096, 0.05) == b""
        t.write(b"\xa5\x5aecho")
        assert read_until(t, 6) == b"\xa5\x5aecho"
    finally:
        t.close()


def test_wakeup_releases_a_read_on_a_port_without_a_file_descriptor() -> None:
    t = SerialTransport("loop://")
    t.open()
    try:
        threading.Timer(0.05, t.wakeup).start()
        t0 = time.monotonic()
        assert t.read(4096, 5.0) == b""
        assert time.monotonic() - t0 < 1.0
    finally:
        t.close()
