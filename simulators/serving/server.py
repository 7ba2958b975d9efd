"""What the pty and TCP servers share: a serving thread, a wake-up pipe, start/stop, unplugging."""

from __future__ import annotations

import os
import threading
import time

from tablectl.simulators.device import SimDevice

#: How long a ``disconnect`` fault keeps the transport down.
DEFAULT_UNPLUG = 0.3
#: The longest the serving loop sleeps (it re-checks stop and unplug timers this often).
_TICK = 0.2


class ServerBase:
    """A device served by one thread. Subclasses implement ``_open`` and ``_serve_once``."""

    thread_name = "sim-server"

    def __init__(self, device: SimDevice, *, unplug_for: float = DEFAULT_UNPLUG) -> None:
        self.device = device
        self.unplug_for = unplug_for
        self.address = ""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._unplugged_until: float = 0.0
        self.unplugs = 0
        self.error: BaseException | None = None

    # --- lifecycle ----------------------------------------------------------------------------

    def start(self) -> str:
        """Open the transport, start serving in a thread, return the address to connect to."""
        self.address = self._open()
        self.device.add_waker(self.wake)
        self._thread = threading.Thread(target=self._run, name=self.thread_name, daemon=True)
        self._thread.start()
        return self.address

    def stop(self) -> None:
        """Stop serving and release everything (idempotent)."""
        self._stop.set()
        self.wake()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        self.device.remove_waker(self.wake)
        self._close()
        for fd in (self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass
        self._wake_r = self._wake_w = -1

    def __enter__(self) -> ServerBase:
        if not self.address:
            self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def wake(self) -> None:
        """Make the serving thread look at the device now (any thread)."""
        try:
            os.write(self._wake_w, b"\0")
        except OSError:
            pass

    def unplug(self, seconds: float | None = None) -> None:
        """Pull the cable for ``seconds`` (default ``unplug_for``), then plug it back in."""
        self._unplugged_until = time.monotonic() + (self.unplug_for if seconds is None else seconds)
        self.wake()

    def plug_in(self) -> None:
        """End an unplug now: the device comes back and starts a new link session."""
        if self._unplugged_until:
            self._unplugged_until = time.monotonic()
            self.wake()

    # --- the loop -----------------------------------------------------------------------------

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                self._serve_once()
        except BaseException as e:  # noqa: BLE001 - reported to the owner, never silent
            if not self._stop.is_set():
                self.error = e
                raise

    def _drain_wake(self) -> None:
        try:
            while os.read(self._wake_r, 4096):
                pass
        except (BlockingIOError, OSError):
            pass

    def _timeout(self, now: float) -> float:
        deadline = self.device.next_deadline()
        timeout = _TICK if deadline is None else max(0.0, min(_TICK, deadline - now))
        if self._unplugged_until:
            timeout = max(0.0, min(timeout, self._unplugged_until - now))
        return timeout

    def _open(self) -> str:
        raise NotImplementedError

    def _serve_once(self) -> None:
        raise NotImplementedError

    def _close(self) -> None:
        raise NotImplementedError
