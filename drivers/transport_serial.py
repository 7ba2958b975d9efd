"""The serial transport: every pyserial address (tty, pty, ``socket://``, ``rfc2217://``).

Local ports are opened with ``exclusive=True`` (a POSIX ``flock``): a second program opening the
same shoe fails at once with "port already in use" instead of both reading half the bytes.
Network URLs have no such lock (``exclusive`` means nothing to them), so it is not asked for.

Reads wait with ``select`` on the port's file descriptor and a private wake-up pipe, then take
whatever is there in one non-blocking read: a byte is handed on the moment it arrives, and
``wakeup()`` releases a blocked read at once. Ports without a descriptor (rfc2217) fall back to
pyserial's own timed read.

A local tty is opened and configured by pyserial (``exclusive``, raw mode, baud rate); its bytes
then move with ``os.read``/``os.write`` on pyserial's own descriptor, which is what pyserial's
POSIX ``read``/``write`` do underneath, less a second ``select`` and its timeout objects per call
(a third of the driver thread's time at full speed).
"""

from __future__ import annotations

import errno
import os
import select
import socket
import time
from collections.abc import Iterable
from typing import Any

import serial

from tablectl.drivers.errors import DeviceUnavailable

_REASONS = {
    errno.ENOENT: "does not exist",
    errno.ENODEV: "does not exist",
    errno.ENXIO: "does not exist (no device behind it)",
    errno.EACCES: "permission denied (is the user in the dialout group? see config/udev)",
    errno.EPERM: "permission denied",
    errno.EBUSY: "port already in use",
    errno.EAGAIN: "port already in use (locked by another program)",
    errno.ECONNREFUSED: "connection refused",
    errno.EHOSTUNREACH: "host unreachable",
    errno.ENETUNREACH: "network unreachable",
    errno.ETIMEDOUT: "connection timed out",
    errno.EIO: "connection lost (I/O error)",
}


def _reason(exc: BaseException, default: str) -> str:
    """A few words for why pyserial failed, from the errno it carries or the OSError behind it."""
    for e in (exc, exc.__context__, exc.__cause__):
        if isinstance(e, socket.gaierror):
            return "unknown host"
        if isinstance(e, socket.timeout):
            return "connection timed out"
        code = getattr(e, "errno", None)
        if isinstance(code, int) and code in _REASONS:
            return _REASONS[code]
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return f"{default} ({text})"


_TICK = 0.01  # read timeout of ports without a file descriptor (rfc2217): wakeup() latency


def _is_local(url: str) -> bool:
    return "://" not in url


def _close_socket_now(port: serial.SerialBase) -> None:
    """pyserial's ``socket://`` close sleeps 0.3 s after closing ("give the server time"), which
    would add 0.3 s to every reconnect and every stop. Close its socket here, the same way but
    without the sleep; ``port.close()`` then has nothing left to do."""
    sock = getattr(port, "_socket", None)
    if isinstance(sock, socket.socket):
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        sock.close()
        port._socket = None  # type: ignore[attr-defined]
        port.is_open = False


# options a URL scheme's pyserial class refuses at open (rfc2217: "write_timeout is currently not
# supported"); without them a write waits as long as that class's own socket timeout
_UNSUPPORTED_OPTIONS: dict[str, frozenset[str]] = {"rfc2217": frozenset({"write_timeout"})}


def _scheme(url: str) -> str:
    return url.split("://", 1)[0].lower() if "://" in url else ""


def _open_url(url: str, kwargs: dict[str, Any]) -> serial.SerialBase:
    """``serial_for_url``, tried once more when an RFC 2217 server stops answering its option
    negotiation part way (a device server still tearing down the last client's session drops the
    new one): a second refusal is the server's answer. A server that never answers the control
    option (a pty behind ser2net) is a configuration problem, not retried."""
    try:
        return serial.serial_for_url(url, **kwargs)
    except serial.SerialException as e:
        text = str(e)
        if _scheme(url) != "rfc2217" or "timeout while waiting for option" not in text or "'control'" in text:
            raise
    return serial.serial_for_url(url, **kwargs)


class SerialTransport:
    """A device on a serial line or anything ``serial.serial_for_url`` opens."""

    def __init__(self, address: str, *, baudrate: int = 115200, write_timeout: float = 1.0) -> None:
        self.address = address
        self.baudrate = baudrate
        self.write_timeout = write_timeout
        self._port: serial.SerialBase | None = None
        self._fd: int | None = None
        self._raw = False  # a local tty: os.read / os.write on the descriptor
        self._wake_r: int | None = None
        self._wake_w: int | None = None

    def open(self) -> None:
        url = resolve_usb_serial(self.address) if is_usb_serial_address(self.address) else self.address
        # an RFC 2217 port has no descriptor to wait on: it reads with _TICK from the start (set
        # later, the timeout is a reconfiguration on the wire, which a server may drop)
        timeout = _TICK if _scheme(url) == "rfc2217" else 0
        kwargs: dict = {"baudrate": self.baudrate, "timeout": timeout, "write_timeout": self.write_timeout}
        for option in _UNSUPPORTED_OPTIONS.get(_scheme(url), ()):
            del kwargs[option]
        if _is_local(url):
            kwargs["exclusive"] = True
        try:
            port = _open_url(url, kwargs)
        except ValueError as e:
            raise DeviceUnavailable(self.address, f"invalid address ({e})") from None
        except NotImplementedError as e:
            raise DeviceUnavailable(self.address, f"not supported by this kind of address ({e})") from None
        except (serial.SerialException, OSError) as e:
            reason = _reason(e, "cannot open")
            if "waiting for option 'control'" in reason:  # ser2net in front of a pty (no modem lines)
                reason += "; a server whose port cannot set control lines needs ?ign_set_control on the address"
            elif "timeout while waiting for option" in reason and "timeout=" not in url:
                reason += "; a slow server needs longer to negotiate: ?timeout=10 on the address (default 3 s)"
            raise DeviceUnavailable(self.address, reason) from None
        self._port = port
        try:
            self._fd = port.fileno()
        except (AttributeError, NotImplementedError, OSError, ValueError):  # io.UnsupportedOperation
            self._fd = None
            if port.timeout != _TICK:
                try:
                    port.timeout = _TICK
                except (serial.SerialException, OSError) as e:  # the server hung up
                    self._port = None
                    port.close()
                    raise DeviceUnavailable(self.address, _reason(e, "cannot set the read timeout")) from None
        self._raw = self._fd is not None and _is_local(url)
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)

    def read(self, max_bytes: int, timeout: float) -> bytes:
        port = self._port
        if port is None:
            raise DeviceUnavailable(self.address, "not open")
        try:
            if self._fd is not None:
                ready, _, _ = select.select([self._fd, self._wake_r], [], [], timeout)
                if self._wake_r in ready:
                    try:
                        os.read(self._wake_r, 512)
                    except BlockingIOError:
                        pass
                if self._fd not in ready:
                    return b""
                if not self._raw:
                    return port.read(max_bytes)
                try:
                    data = os.read(self._fd, max_bytes)
                except BlockingIOError:
                    return b""
                if not data:  # readable yet nothing: the other end is gone
                    raise DeviceUnavailable(self.address, "connection lost (readable, but no data)")
                return data
            deadline = time.monotonic() + timeout
            data = port.read(1)
            while not data and time.monotonic() < deadline and not self._woken():
                data = port.read(1)
            if data and max_bytes > 1:
                waiting = port.in_waiting
                if waiting:
                    data += port.read(min(waiting, max_bytes - 1))
            return data
        except (serial.SerialException, OSError, ValueError, TypeError) as e:
            raise DeviceUnavailable(self.address, _reason(e, "connection lost")) from None

    def _woken(self) -> bool:
        try:
            return bool(os.read(self._wake_r, 512)) if self._wake_r is not None else False
        except BlockingIOError:
            return False

    def write(self, data: bytes) -> None:
        port = self._port
        if port is None:
            raise DeviceUnavailable(self.address, "not open")
        try:
            if self._raw and self._fd is not None:
                self._write_fd(self._fd, data)
            else:
                port.write(data)
        except (serial.SerialException, OSError, ValueError, TypeError) as e:
            raise DeviceUnavailable(self.address, _reason(e, "write failed")) from None

    def _write_fd(self, fd: int, data: bytes) -> None:
        """All of *data*, waiting for room at most ``write_timeout`` seconds in all."""
        view = memoryview(data)
        deadline: float | None = None
        while True:
            try:
                view = view[os.write(fd, view) :]
            except BlockingIOError:
                pass
            if not view:
                return
            now = time.monotonic()
            if deadline is None:
                deadline = now + self.write_timeout
            if now >= deadline:
                raise DeviceUnavailable(self.address, f"write failed (timed out after {self.write_timeout:g} s)")
            select.select([], [fd], [], deadline - now)

    def wakeup(self) -> None:
        w = self._wake_w
        if w is not None:
            try:
                os.write(w, b"\0")
            except (BlockingIOError, OSError):
                pass

    def close(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            try:
                _close_socket_now(port)
                port.close()
            except Exception:  # noqa: BLE001 - closing a dead port must not raise
                pass
        # forget the pipe before closing it: a wakeup() racing this must not write to a closed
        # (and maybe already reused) descriptor
        fds, self._wake_r, self._wake_w, self._fd = (self._wake_r, self._wake_w), None, None, None
        self._raw = False
        for fd in fds:
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass

    def __repr__(self) -> str:
        return f"SerialTransport({self.address!r})"


def is_usb_serial_address(address: str) -> bool:
    return address.lower().startswith("usbserial:")


def resolve_usb_serial(address: str, ports: Iterable[Any] | None = None) -> str:
    """The tty of the USB-serial adapter named by ``usbserial:VID:PID[:SERIAL]`` (hex ids), looked
    up in ``serial.tools.list_ports`` at every open: an adapter unplugged and plugged back may come
    back under another tty name. ``DeviceUnavailable`` if no port, or more than one, matches."""
    from serial.tools import list_ports

    parts = address.split(":", 3)
    try:
        vid, pid = int(parts[1], 16), int(parts[2], 16)
    except (IndexError, ValueError):
        raise DeviceUnavailable(address, "invalid address (expected usbserial:VID:PID[:SERIAL], ids in hex)") from None
    serial_no = parts[3] if len(parts) == 4 and parts[3] else None
    found = [
        p.device for p in (list_ports.comports() if ports is None else ports)
        if p.vid == vid and p.pid == pid and (serial_no is None or p.serial_number == serial_no)
    ]
    if not found:
        raise DeviceUnavailable(address, "no USB-serial port with that VID/PID/serial number is plugged in")
    if len(found) > 1:
        raise DeviceUnavailable(address, f"{len(found)} ports match ({', '.join(found)}): add the serial number")
    return found[0]
