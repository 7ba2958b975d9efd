"""Serve a ``SimDevice`` on a pseudo-terminal: the address is the slave's path (``/dev/pts/N``),
which a driver opens like any serial port (``serial.serial_for_url(path)``).

The master side is served by one thread; the slave is set raw (``tty.setraw``) so bytes pass
untouched, and kept open by the server so the pty lives across host reconnects. Writes are
non-blocking: with no host reading, what does not fit in the pty's buffer is lost, like bytes on
a serial line nobody listens to. A pty cannot be unplugged, so "unplug" (a ``disconnect`` fault or
``unplug()``) drops all I/O for a while and discards what the host had not read yet; on "replug"
the device starts a new link session.
"""

from __future__ import annotations

import os
import select
import termios
import time
import tty

from tablectl.simulators.device import SimDevice
from tablectl.simulators.serving.server import DEFAULT_UNPLUG, ServerBase


class PtyServer(ServerBase):
    """``PtyServer(device).start()`` returns the slave path; ``stop()`` closes the pty."""

    thread_name = "sim-pty"

    def __init__(self, device: SimDevice, *, unplug_for: float = DEFAULT_UNPLUG) -> None:
        super().__init__(device, unplug_for=unplug_for)
        self._master = -1
        self._slave = -1

    def _open(self) -> str:
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        os.set_blocking(self._master, False)
        self.device.connected(time.monotonic())
        return os.ttyname(self._slave)

    def _close(self) -> None:
        for fd in (self._master, self._slave):
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._master = self._slave = -1
        if self.device.online:
            self.device.disconnected()

    def _serve_once(self) -> None:
        now = time.monotonic()
        ready, _, _ = select.select([self._master, self._wake_r], [], [], self._timeout(now))
        if self._wake_r in ready:
            self._drain_wake()
        now = time.monotonic()
        data = self._read_master() if self._master in ready else b""
        if self._unplugged_until:
            if self.device.online:
                self._pull_plug()
            if now < self._unplugged_until:
                return  # unplugged: what the host writes is lost
            self._unplugged_until = 0.0
            self.device.connected(now)  # replugged: a new session
        if data:
            self.device.receive(data, now)
        self.device.poll(now)
        out = self.device.outgoing(now)
        if self.device.take_disconnect():
            self._unplugged_until = now + self.unplug_for
            self._pull_plug()
            return
        if out:
            self._write_master(out)

    def _pull_plug(self) -> None:
        self.unplugs += 1
        self.device.disconnected()
        try:
            termios.tcflush(self._slave, termios.TCIFLUSH)  # what the host had not read is gone
        except termios.error:
            pass

    def _read_master(self) -> bytes:
        try:
            return os.read(self._master, 65536)
        except (BlockingIOError, InterruptedError):
            return b""
        except OSError:  # EIO: no slave open (cannot happen while we hold it)
            return b""

    def _write_master(self, data: bytes) -> None:
        try:
            os.write(self._master, data)  # a partial write loses the rest: a noisy line
        except (BlockingIOError, InterruptedError):
            pass  # nobody reading and the buffer is full: the bytes are lost
        except OSError:
            pass
