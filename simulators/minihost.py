"""A minimal host end of the tablectl protocol, for testing the simulators over real transports.

It is deliberately small (one ``Link`` plus ``messages``; no reconnects, no persistence): the real
host end is ``tablectl.drivers``. ``MiniHost`` takes two callables — ``read(timeout) -> bytes``
and ``write(bytes)`` — so it runs over a pyserial port (``serial_io``), a socket
(``socket_io``) or a pyusb device (``usb_io``).
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
from typing import Any

from tablectl.drivers import messages as msg
from tablectl.drivers.link import Link

Reader = Callable[[float], bytes]
Writer = Callable[[bytes], None]


class MiniHost:
    """Sends commands, collects everything the device says (decoded) in ``inbox``."""

    def __init__(self, read: Reader, write: Writer, *, retransmit_after: float = 0.05) -> None:
        self._read = read
        self._write = write
        self.link = Link(retransmit_after=retransmit_after)
        self.inbox: list[object] = []
        self.device_sessions = 0  # SYNCs seen from the device

    def open(self) -> None:
        self.link.open(time.monotonic())
        self._flush()

    def send(self, obj: object) -> None:
        self.link.send(*msg.encode(obj), time.monotonic())
        self._flush()

    def hello(self, min_version: int = msg.PROTOCOL_VERSION, max_version: int = msg.PROTOCOL_VERSION) -> None:
        self.send(msg.Hello(min_version, max_version))

    def pump(self, timeout: float = 0.02) -> None:
        """One read (up to ``timeout``), deliver, acknowledge, retransmit."""
        data = self._read(timeout)
        now = time.monotonic()
        if data:
            for msg_type, payload in self.link.receive(data, now):
                if msg_type == msg.SYNC:
                    self.device_sessions += 1
                    self.inbox.append(msg.SYNC)
                else:
                    self.inbox.append(msg.decode(msg_type, payload))
        self.link.poll(now)
        self._flush()

    def wait_for(self, predicate: Callable[[object], bool], timeout: float = 3.0) -> Any:
        """Pump until a message matching ``predicate`` is in the inbox; take and return it."""
        deadline = time.monotonic() + timeout
        while True:
            for i, m in enumerate(self.inbox):
                if predicate(m):
                    return self.inbox.pop(i)
            if time.monotonic() >= deadline:
                raise TimeoutError(f"no matching message within {timeout}s; inbox {self.inbox!r}")
            self.pump()

    def wait_type(self, cls: type, timeout: float = 3.0) -> Any:
        return self.wait_for(lambda m: isinstance(m, cls), timeout)

    def collect(self, cls: type, count: int, timeout: float = 3.0) -> list[Any]:
        return [self.wait_type(cls, timeout) for _ in range(count)]

    def _flush(self) -> None:
        out = self.link.outgoing()
        if out:
            self._write(out)


def serial_io(port: Any) -> tuple[Reader, Writer]:
    """Read/write callables over an open pyserial port."""
    def read(timeout: float) -> bytes:
        port.timeout = timeout
        first = port.read(1)
        if not first:
            return b""
        return first + port.read(port.in_waiting) if port.in_waiting else first
    return read, port.write


def socket_io(sock: socket.socket) -> tuple[Reader, Writer]:
    """Read/write callables over a connected socket."""
    def read(timeout: float) -> bytes:
        sock.settimeout(timeout)
        try:
            data = sock.recv(65536)
        except (TimeoutError, socket.timeout):
            return b""
        if not data:
            raise ConnectionError("the device closed the connection")
        return data
    return read, sock.sendall


def usb_io(dev: Any, ep_out: int = 0x01, ep_in: int = 0x81) -> tuple[Reader, Writer]:
    """Read/write callables over a pyusb device (bulk endpoints)."""
    import usb.core

    def read(timeout: float) -> bytes:
        try:
            return bytes(dev.read(ep_in, 4096, max(1, int(timeout * 1000))))
        except usb.core.USBTimeoutError:
            return b""

    def write(data: bytes) -> None:
        dev.write(ep_out, data, 1000)

    return read, write
