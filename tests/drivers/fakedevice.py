"""A minimal device end for driver tests, built from the real ``Link`` and ``messages``.

It misbehaves on purpose where the simulators' ``SimDevice`` would not: it can skip sending an
event (a gap), send events again (duplicates), or go deaf without dropping the transport. It
implements ``SimDevice``'s byte interface, so the simulators' own ``PtyServer`` and ``TcpServer``
serve it over a real pty or a real TCP socket.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable

from tablectl.drivers import events as ev
from tablectl.drivers import messages as msg
from tablectl.drivers.link import Link


class FakeDevice:
    """Protocol behaviour only: events are whatever the test adds."""

    def __init__(
        self,
        kind: ev.DeviceKind = ev.DeviceKind.SHOE,
        *,
        serial: str = "FAKE-1",
        capabilities: Iterable[str] = ("replay",),
    ) -> None:
        self.kind = kind
        self.serial = serial
        self.capabilities = frozenset(capabilities)
        self.silent = False  # answers nothing (the link still acknowledges)
        self.deaf = False  # reads nothing and writes nothing, the transport stays up
        self.store: list[ev.DeviceEvent] = []  # unpersisted, ascending event_no
        self.next_no = 1
        self.persisted_upto = 0
        self.live = False
        self.received: list[object] = []  # every decoded host message, for assertions
        self.link: Link | None = None
        self.lock = threading.RLock()
        self._wakers: list[Callable[[], None]] = []

    # --- what a test does (any thread) -------------------------------------------------------

    def add(self, make: Callable[[int], ev.DeviceEvent], *, send: bool = True) -> ev.DeviceEvent:
        """Issue the next numbered event (``make(event_no)``); sent now if streaming and ``send``."""
        with self.lock:
            event = make(self.next_no)
            self.next_no += 1
            self.store.append(event)
            if send and self.live:
                self._send(event)
        self._wake()
        return event

    def resend_all(self) -> None:
        """Send every stored event again (duplicates, as a confused device would)."""
        with self.lock:
            for e in self.store:
                self._send(e)
        self._wake()

    def restart(self) -> None:
        """Power cycle: a new link session (RAM gone), the event store (NV) kept."""
        with self.lock:
            self.connected(time.monotonic())
        self._wake()

    def of_type(self, cls: type) -> list[object]:
        with self.lock:
            return [m for m in self.received if isinstance(m, cls)]

    # --- SimDevice's byte interface (the serving thread) -------------------------------------

    @property
    def online(self) -> bool:
        return self.link is not None

    def connected(self, now: float) -> None:
        with self.lock:
            self.link = Link()
            self.link.open(now)
            self.live = False

    def disconnected(self) -> None:
        with self.lock:
            self.link = None
            self.live = False

    def receive(self, data: bytes, now: float) -> None:
        with self.lock:
            if self.link is None or self.deaf:
                return
            for msg_type, payload in self.link.receive(data, now):
                if msg_type == msg.SYNC:
                    self.live = False  # a new host session: wait for its REPLAY_FROM
                    continue
                obj = msg.decode(msg_type, payload)
                self.received.append(obj)
                self._serve(obj)

    def outgoing(self, now: float) -> bytes:
        with self.lock:
            return b"" if self.link is None or self.deaf else self.link.outgoing()

    def poll(self, now: float) -> None:
        with self.lock:
            if self.link is not None and not self.deaf:
                self.link.poll(now)

    def next_deadline(self) -> float | None:
        with self.lock:
            return None if self.link is None else self.link.next_deadline()

    def take_disconnect(self) -> bool:
        return False

    def add_waker(self, waker: Callable[[], None]) -> None:
        self._wakers.append(waker)

    def remove_waker(self, waker: Callable[[], None]) -> None:
        if waker in self._wakers:
            self._wakers.remove(waker)

    # --- the protocol ------------------------------------------------------------------------

    def _serve(self, obj: object) -> None:
        if self.silent:
            return
        if isinstance(obj, msg.Hello):
            self._send(self.identify())
        elif isinstance(obj, ev.ReplayFrom):
            for e in self.store:
                if e.event_no >= obj.event_no:
                    self._send(e)
            self.live = True
        elif isinstance(obj, ev.Persisted):
            self.persisted_upto = max(self.persisted_upto, obj.event_no)
            self.store = [e for e in self.store if e.event_no > obj.event_no]
        elif isinstance(obj, ev.RequestStatus):
            self._send(ev.Status(ev.DeviceState.READY, 52))
        elif isinstance(obj, ev.RequestIdentify):
            self._send(self.identify())

    def identify(self) -> ev.Identify:
        return ev.Identify(self.kind, "Fake", self.serial, "0.1", msg.PROTOCOL_VERSION, self.capabilities, self.next_no - 1)

    def _send(self, obj: object) -> None:
        if self.link is not None:
            self.link.send(*msg.encode(obj), time.monotonic())

    def _wake(self) -> None:
        for waker in list(self._wakers):
            waker()
