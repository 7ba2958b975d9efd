"""An RFC 2217 server in front of a serial port: pyserial's own ``serial.rfc2217.PortManager``
bridging a TCP client to a port (a simulator's pty), as a serial device server such as ser2net's
``telnet(rfc2217)`` mode does. A host then reaches the device at ``rfc2217://HOST:PORT``.

One client at a time, as a device server serves a port; a new connection waits until the last
one has gone. Control-line requests (RTS/DTR) that the port cannot carry out — a pty has no
modem lines — are answered as if done, which is what ser2net's ``ign_set_control`` client option
works around on the other side. Used by the tests and ``bench/bench_latency.py`` to put a real
RFC 2217 server between the driver and a simulated device.
"""

from __future__ import annotations

import socket
import threading
from types import TracebackType

import serial
import serial.rfc2217

_RECV = 4096


def _line(name: str) -> property:
    """A modem status line read as False where the port has none (a pty: ENOTTY)."""
    read = getattr(serial.Serial, name).fget

    def get(self: serial.Serial) -> bool:
        try:
            return bool(read(self))
        except OSError:
            return False

    return property(get)


class _Lines(serial.Serial):
    """A serial port whose modem lines are best effort: a pty has none and refuses every modem
    ioctl (ENOTTY); PortManager reads and sets them for every client."""

    cts = _line("cts")
    dsr = _line("dsr")
    ri = _line("ri")
    cd = _line("cd")

    def _update_rts_state(self) -> None:
        try:
            super()._update_rts_state()
        except OSError:
            pass

    def _update_dtr_state(self) -> None:
        try:
            super()._update_dtr_state()
        except OSError:
            pass


class Rfc2217Bridge:
    """``Rfc2217Bridge(port_path).start()`` returns ``rfc2217://127.0.0.1:PORT``; ``stop()``
    closes the listening socket, the client connection and the port."""

    def __init__(self, port_path: str, *, host: str = "127.0.0.1", port: int = 0) -> None:
        self.port_path = port_path
        self._listener = socket.create_server((host, port))
        self._listener.settimeout(0.2)
        self._alive = threading.Event()
        self._thread: threading.Thread | None = None
        self._client: socket.socket | None = None
        self._write_lock = threading.Lock()
        self.connections = 0

    @property
    def address(self) -> str:
        host, port = self._listener.getsockname()[:2]
        return f"rfc2217://{host}:{port}"

    def start(self) -> str:
        self._alive.set()
        self._thread = threading.Thread(target=self._serve, name="rfc2217-bridge", daemon=True)
        self._thread.start()
        return self.address

    def stop(self) -> None:
        self._alive.clear()
        client = self._client
        if client is not None:
            try:
                client.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._listener.close()

    def __enter__(self) -> Rfc2217Bridge:
        self.start()
        return self

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()

    # PortManager's "connection": telnet replies go to the client as they are
    def write(self, data: bytes) -> None:
        client = self._client
        if client is not None:
            with self._write_lock:
                client.sendall(data)

    def _serve(self) -> None:
        while self._alive.is_set():
            try:
                client, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.connections += 1
            client.settimeout(None)  # accept() hands on the listener's polling timeout
            client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            try:
                self._bridge(client)
            except OSError:
                pass  # the client left (even before the telnet negotiation): serve the next one
            finally:
                self._client = None
                client.close()

    def _bridge(self, client: socket.socket) -> None:
        port = _Lines(self.port_path, timeout=0.1)
        self._client = client
        manager = serial.rfc2217.PortManager(port, self)
        done = threading.Event()

        def to_client() -> None:
            while not done.is_set():
                try:
                    data = port.read(port.in_waiting or 1)
                    if data:
                        self.write(b"".join(manager.escape(data)))
                except (OSError, serial.SerialException):
                    break
            done.set()

        reader = threading.Thread(target=to_client, name="rfc2217-bridge-read", daemon=True)
        reader.start()
        try:
            while self._alive.is_set() and not done.is_set():
                data = client.recv(_RECV)
                if not data:
                    break
                port.write(b"".join(manager.filter(data)))
        except OSError:
            pass
        finally:
            done.set()
            reader.join(timeout=5)
            port.close()


__all__ = ["Rfc2217Bridge"]
