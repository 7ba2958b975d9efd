"""Serve a ``SimDevice`` over TCP on loopback: the address is ``socket://127.0.0.1:PORT``
(pyserial's ``serial_for_url`` opens it). Port 0 picks a free port.

One host at a time: while a host is connected, another connection is accepted and closed at
once. Each accepted connection is a new transport session (the device sends SYNC). A
``disconnect`` fault (or ``unplug()``) closes the host's socket and refuses connections for
``unplug_for`` seconds; the host reconnects after that and gets a new session.
"""

from __future__ import annotations

import select
import socket
import time

from tablectl.simulators.device import SimDevice
from tablectl.simulators.serving.server import DEFAULT_UNPLUG, ServerBase


class TcpServer(ServerBase):
    """``TcpServer(device, port=0).start()`` returns ``socket://HOST:PORT``; raises ``OSError`` if
    the port is taken."""

    thread_name = "sim-tcp"

    def __init__(
        self, device: SimDevice, host: str = "127.0.0.1", port: int = 0, *, unplug_for: float = DEFAULT_UNPLUG
    ) -> None:
        super().__init__(device, unplug_for=unplug_for)
        self.host = host
        self.port = port
        self._listener: socket.socket | None = None
        self._client: socket.socket | None = None
        self.connections = 0

    def _open(self) -> str:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind((self.host, self.port))
            listener.listen(4)
        except OSError:
            listener.close()
            raise
        listener.setblocking(False)
        self._listener = listener
        self.port = listener.getsockname()[1]
        return f"socket://{self.host}:{self.port}"

    def _close(self) -> None:
        self._drop_client()
        if self._listener is not None:
            self._listener.close()
            self._listener = None

    def _drop_client(self) -> None:
        if self._client is not None:
            try:
                self._client.close()
            except OSError:
                pass
            self._client = None
            self.device.disconnected()

    def _client_closed(self) -> bool:
        """The connected host has closed its end (its EOF is waiting to be read)."""
        client = self._client
        assert client is not None
        if not select.select([client], [], [], 0)[0]:
            return False
        try:
            return client.recv(1, socket.MSG_PEEK) == b""
        except OSError:
            return True

    def _serve_once(self) -> None:
        assert self._listener is not None
        now = time.monotonic()
        watch: list[socket.socket | int] = [self._listener, self._wake_r]
        if self._client is not None:
            watch.append(self._client)
        ready, _, _ = select.select(watch, [], [], self._timeout(now))
        if self._wake_r in ready:
            self._drain_wake()
        now = time.monotonic()
        if self._unplugged_until:
            if self._client is not None:
                self.unplugs += 1
                self._drop_client()
            if now >= self._unplugged_until:
                self._unplugged_until = 0.0
        if self._listener in ready:
            self._accept(now)
        client = self._client
        if client is None:
            return
        if client in ready:
            try:
                data = client.recv(65536)
            except (BlockingIOError, InterruptedError):
                data = None
            except OSError:
                data = b""
            if data == b"":
                self._drop_client()  # the host went away
                return
            if data:
                self.device.receive(data, now)
        self.device.poll(now)
        out = self.device.outgoing(now)
        if self.device.take_disconnect():
            self._unplugged_until = now + self.unplug_for
            self.unplugs += 1
            self._drop_client()
            return
        if out:
            try:
                client.sendall(out)
            except OSError:
                self._drop_client()

    def _accept(self, now: float) -> None:
        assert self._listener is not None
        try:
            conn, _ = self._listener.accept()
        except (BlockingIOError, InterruptedError):
            return
        if self._client is not None and self._client_closed():
            self._drop_client()  # the host closed and reconnected at once: serve the new connection
        if self._client is not None or self._unplugged_until:
            conn.close()  # one host at a time; none while unplugged
            return
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        conn.settimeout(2.0)  # sendall must not block the loop forever on a stuck host
        self._client = conn
        self.connections += 1
        self.device.connected(now)
