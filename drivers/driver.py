"""The device driver: one I/O thread per device between a transport and the controller's sink.

The thread owns the transport, the ``Link`` and all protocol state. It reads (a blocking read with
a short timeout), feeds the link, decodes messages, hands numbered events to ``sink(name, event)``
exactly once each and in ``event_no`` order, polls the link's retransmit timers and writes what
the link produced. Other threads talk to it only through ``send`` (a queue the thread drains),
``persisted`` (a number the thread forwards, coalesced) and the request methods (which wait on an
answer the thread fills in). docs/protocol.md, "Session", is the normative flow; in short:

1. transport up -> new link session -> HELLO(min, max) -> IDENTIFY, or ERROR(ERR_VERSION), or
   silence (``answer_timeout``). An IDENTIFY behind the log, or an ERROR, may be a previous
   host's unacknowledged answer sent again in this session: HELLO is repeated and the device
   refused for it only at the answer timeout;
2. REPLAY_FROM(last delivered + 1); events <= last delivered are duplicates and dropped; a gap
   holds later events and asks REPLAY_FROM(last + 1) until it fills, but never skips past the
   device's own counter: a held event beyond it makes the driver ask REQ_IDENTIFY, and one the
   answer shows was never issued is dropped and reported (``Fault(BAD_EVENT)``). A number (an
   event's, or an IDENTIFY's counter) far past anything known of the device is not believed
   (``tablectl.drivers.numbering``): the event is refused at once, the IDENTIFY refuses the device.
   An event whose bytes do not decode is reported at once (``Fault(BAD_EVENT)``: its type, number
   and bytes); its number stays a gap, declared lost as undecodable if no replay fills it.
   With ``adopt``, a device the host knows nothing of (``resume_after`` 0) is adopted where its
   events begin: the first event after REPLAY_FROM(1) is the oldest it holds (protocol section 6),
   so one numbered ``n`` (no further than its IDENTIFY's counter + 1) makes events 1..n-1 belong
   to no log of this host, not a gap (``adopted`` = n - 1), and the events it still holds up to
   that counter were issued before this host's session (``held_to``: its backlog, which the table
   logs but does not judge);
3. ``persisted(n)`` -> PERSISTED(n) (only ever up to what was delivered), coalesced: sent once
   ``PERSIST_EVERY`` events are waiting to be confirmed or ``persist_after`` seconds after the
   first of them was, whichever comes first (the device keeps them in NV memory until then);
4. an IDENTIFY in the middle of a session (asked or not) naming another device (kind, serial
   number, model) is refused as a device swapped in on a reconnect is: link down, reported
   ``detail="refused: <reason>"``; the same identity again is harmless;
5. the peer starts a new session (it restarted) -> HELLO + REPLAY_FROM again; the transport drops
   -> ``Fault(0, DISCONNECTED)`` to the sink, reconnect with exponential backoff forever, then
   HELLO, ``Fault(0, DISCONNECTED, cleared=True)`` before any event of the new connection, and
   REPLAY_FROM. A device refused on a reconnect is reported again, ``detail="refused: <reason>"``,
   whenever the reason is new.

Commands are at most once across a reconnect: each connection gets a fresh link, so what was
unacknowledged when the transport dropped is not sent again (a packet delivered twice is worse
than a button pressed twice); it may or may not have reached the device. Commands still queued
when the link drops are discarded and counted in ``stats.commands_dropped``.
"""

from __future__ import annotations

import enum
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import ClassVar

from tablectl.drivers import events as ev
from tablectl.drivers import messages as msg
from tablectl.drivers.errors import (
    DeviceRefused,
    DeviceUnavailable,
    DriverError,
    NoAnswer,
    VersionMismatch,
    WrongDevice,
)
from tablectl.drivers.link import Link
from tablectl.drivers.numbering import believable, describe, past_reason
from tablectl.drivers.transport import Transport

log = logging.getLogger(__name__)

_REFUSALS = (WrongDevice, VersionMismatch, DeviceRefused)
"""Errors that mean "this device cannot be used" (rather than "cannot be reached")."""

Sink = Callable[[str, ev.DeviceEvent], None]
"""``sink(device_name, event)``: called on the driver's I/O thread, in order. It may block while
the consumer is full (backpressure): the driver then reads and acknowledges nothing, and the device
keeps its events."""

MIN_VERSION = msg.PROTOCOL_VERSION
MAX_VERSION = msg.PROTOCOL_VERSION
THREAD_PREFIX = "tablectl-driver:"
_READ_SIZE = 4096
_MAX_HELD = 8192  # events held behind a gap; beyond this they are dropped (the replay refills)
_GAP_RETRIES = 3
PERSIST_EVERY = 64  # events durable but not yet confirmed to the device that wake the thread at once
_SHOWN_BYTES = 32  # of an undecodable event's payload, in the fault that reports it


@dataclass(slots=True)
class LinkStats:
    """Counters over the driver's life (all connections)."""

    frames: int = 0
    crc_errors: int = 0
    header_errors: int = 0
    discarded_bytes: int = 0
    retransmits: int = 0
    duplicate_frames: int = 0
    out_of_order_frames: int = 0
    stale_frames: int = 0
    resyncs: int = 0
    peer_sessions: int = 0
    reconnects: int = 0
    events_delivered: int = 0
    duplicate_events: int = 0
    replays_requested: int = 0
    events_lost: int = 0
    bad_events: int = 0
    bad_messages: int = 0
    device_errors: int = 0
    commands_dropped: int = 0

    def as_dict(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


class _State(enum.Enum):
    DOWN = "down"  # no transport; reconnecting
    HANDSHAKE = "handshake"  # HELLO sent, waiting for IDENTIFY
    READY = "ready"
    STOPPED = "stopped"


class _Answer:
    """One caller waiting for a Status or Identify."""

    __slots__ = ("done", "value", "error")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.value: object = None
        self.error: DriverError | None = None


class DeviceDriver:
    """The protocol driver every device family shares. Subclasses set ``kind`` and add typed
    commands; ``kind = None`` accepts any device (diagnostics)."""

    kind: ClassVar[ev.DeviceKind | None] = None

    def __init__(
        self,
        name: str,
        transport: Transport,
        sink: Sink,
        *,
        resume_after: int = 0,
        adopt: bool = False,
        answer_timeout: float = 2.0,
        retransmit_after: float = 0.05,
        reconnect_initial: float = 0.05,
        reconnect_max: float = 2.0,
        keepalive_after: float = 1.0,
        poll_interval: float = 0.05,
        persist_after: float = 0.02,
    ) -> None:
        self.name = name
        self.transport = transport
        self.sink = sink
        self.answer_timeout = answer_timeout
        self.retransmit_after = retransmit_after
        self.reconnect_initial = reconnect_initial
        self.reconnect_max = reconnect_max
        self.keepalive_after = keepalive_after
        self.poll_interval = poll_interval
        self.persist_after = persist_after
        address = getattr(transport, "address", "")
        self.label = name if not address or name == address else f"{name} ({address})"
        self._last = resume_after
        self._adopt = adopt and resume_after == 0
        self._adopted: int | None = None
        self._held_to: int | None = None
        self._device_last = 0  # the device's own last_event_no, from its latest current IDENTIFY
        self._identity: ev.Identify | None = None
        self._refusal: DriverError | None = None  # what this handshake would refuse the device for
        self._identify_asked = False  # a REQ_IDENTIFY is outstanding
        self._state = _State.DOWN
        self._link: Link | None = None
        self._stats = LinkStats()
        self._commands: queue.SimpleQueue[ev.Command] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._status_waiters: list[_Answer] = []
        self._identify_waiters: list[_Answer] = []
        self._persist_target = resume_after  # what it resumes after is logged: persisted
        self._persist_sent = 0
        self._persist_since: float | None = None  # when the target first ran ahead of what was sent
        self._held: dict[int, ev.DeviceEvent] = {}
        self._refused: set[int] = set()  # event numbers refused as unbelievable (reported once each)
        self._undecodable: set[int] = set()  # event numbers that came undecodable (reported once each)
        self._replay_pending = False
        self._gap_since = 0.0
        self._gap_tries = 0
        self._hello_at = 0.0  # when the handshake began
        self._hello_sent = 0.0  # when the last HELLO went out
        self._last_rx = 0.0
        self._keepalive_at: float | None = None
        self._backoff = reconnect_initial
        self._next_attempt = 0.0
        self._down_reported = False
        self._down_detail = ""  # the reason the last DISCONNECTED fault gave
        self._start_deadline = 0.0
        self._stopping = threading.Event()
        self._started = threading.Event()
        self._start_error: DriverError | None = None
        self._thread: threading.Thread | None = None

    # --- public API -----------------------------------------------------------------------

    def start(self) -> ev.Identify:
        """Open the transport, run the handshake and start delivering events. Returns the
        device's Identify; raises a ``DriverError`` (one line) when the device cannot be used."""
        if self._thread is not None:
            raise RuntimeError(f"{self.label}: driver already started")
        self.transport.open()
        now = time.monotonic()
        self._start_deadline = now + self.answer_timeout
        self._begin_connection(now)
        self._thread = threading.Thread(target=self._run, name=THREAD_PREFIX + self.name, daemon=True)
        self._thread.start()
        if not self._started.wait(self.answer_timeout * 2 + 5.0):
            self._start_error = NoAnswer(self.label, "driver did not finish connecting")
        if self._start_error is not None:
            self.stop()
            raise self._start_error
        assert self._identity is not None
        return self._identity

    def stop(self) -> None:
        """Stop the I/O thread, then close the transport. Idempotent."""
        self._stopping.set()
        self.transport.wakeup()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5.0)
        self._state = _State.STOPPED
        self.transport.close()
        self._fail_waiters(DeviceUnavailable(self.label, "driver stopped"))

    def __enter__(self) -> DeviceDriver:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def send(self, command: ev.Command) -> None:
        """Queue a command for the device (thread-safe). Raises ``DeviceUnavailable`` when the
        device is not connected right now."""
        if self._state is not _State.READY:
            raise DeviceUnavailable(self.label, f"not connected ({self._state.value})")
        self._commands.put(command)
        self.transport.wakeup()

    def persisted(self, event_no: int) -> None:
        """Everything up to ``event_no`` is durably logged: the device may forget it (thread-safe;
        coalesced: only the highest number is sent, within ``persist_after`` seconds)."""
        with self._lock:
            if event_no <= self._persist_target:
                return
            first = self._persist_target <= self._persist_sent  # nothing was waiting: start the clock
            self._persist_target = event_no
        if first or event_no - self._persist_sent >= PERSIST_EVERY:
            self.transport.wakeup()

    def request_status(self, timeout: float | None = None) -> ev.Status:
        """Ask the device for its Status and wait for it (``NoAnswer`` after ``timeout``)."""
        answer = self._request(self._status_waiters, ev.RequestStatus(), timeout)
        assert isinstance(answer, ev.Status)
        return answer

    def request_identify(self, timeout: float | None = None) -> ev.Identify:
        """Ask the device to identify itself again and wait for the answer."""
        answer = self._request(self._identify_waiters, ev.RequestIdentify(), timeout)
        assert isinstance(answer, ev.Identify)
        return answer

    @property
    def identity(self) -> ev.Identify | None:
        """The device's Identify from the last handshake (None before ``start``)."""
        return self._identity

    @property
    def last_event_no(self) -> int:
        """The highest event number delivered to the sink (``resume_after`` before any)."""
        return self._last

    @property
    def adopted(self) -> int | None:
        """What the device was adopted after (``adopt``: its first event, less one; nothing up to
        it is expected), or None while it was not (no event yet, or the host knew it)."""
        return self._adopted

    @property
    def held_to(self) -> int | None:
        """For a device new to the host (``adopt``): its event counter at the handshake before
        its first event; every event up to it was issued before this host's session (held for a
        host that never confirmed it, or for none). None until that first event, or when the host
        knew the device."""
        return self._held_to

    @property
    def connected(self) -> bool:
        return self._state is _State.READY

    @property
    def running(self) -> bool:
        t = self._thread
        return t is not None and t.is_alive()

    @property
    def stats(self) -> LinkStats:
        """A snapshot of the link and delivery counters."""
        s = LinkStats(**self._stats.as_dict())
        link = self._link
        if link is not None:
            _add_link_counters(s, link)
        return s

    # --- requests -------------------------------------------------------------------------

    def _request(self, waiters: list[_Answer], command: ev.Command, timeout: float | None) -> object:
        timeout = self.answer_timeout if timeout is None else timeout
        answer = _Answer()
        with self._lock:
            waiters.append(answer)
        try:
            self.send(command)
            if not answer.done.wait(timeout):
                raise NoAnswer(self.label, f"no answer to {type(command).__name__} within {timeout:g} s")
        finally:
            with self._lock:
                if answer in waiters:
                    waiters.remove(answer)
        if answer.error is not None:
            raise answer.error
        return answer.value

    def _answer(self, waiters: list[_Answer], value: object) -> None:
        with self._lock:
            taken = list(waiters)
            waiters.clear()
        for a in taken:
            a.value = value
            a.done.set()

    def _fail_waiters(self, error: DriverError) -> None:
        with self._lock:
            taken = self._status_waiters + self._identify_waiters
            self._status_waiters.clear()
            self._identify_waiters.clear()
        for a in taken:
            a.error = error
            a.done.set()

    # --- the I/O thread -------------------------------------------------------------------

    def _run(self) -> None:
        live = (_State.HANDSHAKE, _State.READY)
        try:
            while not self._stopping.is_set() and self._state is not _State.STOPPED:
                if self._state is _State.DOWN:
                    self._reconnect()
                    continue
                link = self._link
                assert link is not None
                try:
                    data = self.transport.read(_READ_SIZE, self._read_timeout(time.monotonic()))
                except DeviceUnavailable as e:
                    self._drop(e)
                    continue
                now = time.monotonic()
                if data:
                    frames_before, resyncs_before = link.framer.frames, link.resyncs
                    for msg_type, payload in link.receive(data, now):
                        self._on_message(msg_type, payload, now)
                        if self._state not in live:
                            break
                    if link.framer.frames != frames_before:
                        self._last_rx = now
                    if link.resyncs != resyncs_before and self._state is _State.READY:
                        self._send_hello(now)  # our session is new to the device: negotiate again
                if self._state not in live:
                    continue
                self._drain_commands(now)
                self._timers(now)
                if self._state not in live:
                    continue
                link.poll(now)
                out = link.outgoing()
                if out:
                    try:
                        self.transport.write(out)
                    except DeviceUnavailable as e:
                        self._drop(e)
        except Exception as e:  # noqa: BLE001 - a bug must neither hang start() nor die unseen
            log.exception("%s: driver thread failed", self.label)
            error = DriverError(self.label, f"driver failed: {type(e).__name__}: {e}")
            if self._started.is_set() and not self._down_reported:
                self._emit(ev.Fault(0, ev.FaultKind.DISCONNECTED, detail=error.reason))
            self._fail_waiters(error)
            self._fail_start(error)

    def _read_timeout(self, now: float) -> float:
        deadline = now + self.poll_interval
        if self._persist_since is not None:
            deadline = min(deadline, self._persist_since + self.persist_after)
        link = self._link
        if link is not None:
            d = link.next_deadline()
            if d is not None and d < deadline:
                deadline = d
        return max(0.0, deadline - now)

    def _begin_connection(self, now: float) -> None:
        """The transport is open: a fresh link session and a HELLO."""
        if self._link is not None:
            _add_link_counters(self._stats, self._link)
        self._link = Link(retransmit_after=self.retransmit_after)
        self._link.open(now)
        self._last_rx = now
        self._keepalive_at = None
        self._identify_asked = False
        self._send_hello(now)

    def _send_hello(self, now: float, *, retry: bool = False) -> None:
        assert self._link is not None
        if not retry:
            self._state = _State.HANDSHAKE
            self._hello_at = now
            self._refusal = None
        self._hello_sent = now
        self._link.send(*msg.encode(msg.Hello(MIN_VERSION, MAX_VERSION)), now)

    def _reconnect(self) -> None:
        now = time.monotonic()
        if now < self._next_attempt:
            self._stopping.wait(self._next_attempt - now)
            return
        try:
            self.transport.open()
        except DeviceUnavailable as e:
            log.debug("%s: reconnect failed: %s", self.label, e.reason)
            if not self._started.is_set() and time.monotonic() >= self._start_deadline:
                self._fail_start(e)
                return
            self._schedule_reconnect(time.monotonic())
            return
        self._stats.reconnects += 1
        self._begin_connection(time.monotonic())

    def _schedule_reconnect(self, now: float) -> None:
        self._next_attempt = now + self._backoff
        self._backoff = min(self._backoff * 2, self.reconnect_max)

    def _drop(self, error: DriverError) -> None:
        """The transport is gone (or the device went silent): report it and reconnect. While
        ``start`` is still waiting, a drop is retried quietly until ``answer_timeout`` is up."""
        if not self._started.is_set():
            if isinstance(error, NoAnswer) or time.monotonic() >= self._start_deadline:
                self._fail_start(error)
                return
            self.transport.close()
            self._state = _State.DOWN
            self._schedule_reconnect(time.monotonic())
            return
        log.warning("%s: link down: %s", self.label, error.reason)
        self.transport.close()
        while True:  # commands queued for this connection die with it (at most once)
            try:
                self._commands.get_nowait()
                self._stats.commands_dropped += 1
            except queue.Empty:
                break
        self._state = _State.DOWN
        self._fail_waiters(DeviceUnavailable(self.label, f"link down: {error.reason}"))
        refused = isinstance(error, _REFUSALS)
        detail = f"refused: {error.reason}" if refused else error.reason
        if not self._down_reported or (refused and detail != self._down_detail):  # why it stays down
            self._down_reported = True
            self._down_detail = detail
            self._emit(ev.Fault(0, ev.FaultKind.DISCONNECTED, detail=detail))
        self._schedule_reconnect(time.monotonic())

    def _doubt(self, problem: DriverError) -> None:
        """A handshake answer that would refuse the device, but may be stale: an answer a previous
        host left unacknowledged, which the device sent again in this session (protocol 4.2). The
        HELLO retry timer keeps asking; the device is refused for it only if no IDENTIFY that
        passes the checks comes before the answer timeout."""
        log.info("%s: %s (asking again until the answer timeout)", self.label, problem.reason)
        self._refusal = problem

    def _refuse(self, problem: DriverError) -> None:
        """The device cannot be used: fail ``start``, or (later) drop the link and keep trying."""
        if not self._started.is_set():
            self._fail_start(problem)
        else:
            self._drop(problem)

    def _fail_start(self, error: DriverError) -> None:
        self._start_error = error
        self._state = _State.STOPPED
        self._started.set()

    def _drain_commands(self, now: float) -> None:
        link = self._link
        assert link is not None
        while True:
            try:
                command = self._commands.get_nowait()
            except queue.Empty:
                break
            if self._state is not _State.READY:
                self._stats.commands_dropped += 1
                log.warning("%s: %s dropped: not connected", self.label, type(command).__name__)
                continue
            link.send(*msg.encode(command), now)
        if self._state is _State.READY:
            target = min(self._persist_target, self._last)
            if target <= self._persist_sent:
                self._persist_since = None
                return
            if self._persist_since is None:
                self._persist_since = now
            if target - self._persist_sent >= PERSIST_EVERY or now - self._persist_since >= self.persist_after:
                self._persist_sent = target
                self._persist_since = None
                link.send(*msg.encode(ev.Persisted(target)), now)

    def _timers(self, now: float) -> None:
        """Handshake, keepalive and gap timers (a timer may drop the connection)."""
        if self._state is _State.HANDSHAKE:
            if now - self._hello_at > self.answer_timeout:
                self._refuse(self._refusal or NoAnswer(self.label, f"no answer within {self.answer_timeout:g} s"))
            elif now - self._hello_sent > self.answer_timeout / 4:
                self._send_hello(now, retry=True)
            return
        if self._state is _State.READY:
            idle = now - self._last_rx
            if self._keepalive_at is not None and self._last_rx >= self._keepalive_at:
                self._keepalive_at = None
            if self._keepalive_at is None and idle > self.keepalive_after:
                self._keepalive_at = now
                assert self._link is not None
                self._link.send(*msg.encode(ev.RequestStatus()), now)
            elif self._keepalive_at is not None and now - self._keepalive_at > self.answer_timeout:
                self._drop(NoAnswer(self.label, f"device silent for {idle:.1f} s"))
                return
            if self._held and now - self._gap_since > self.answer_timeout:
                self._gap_timeout(now)

    # --- messages -------------------------------------------------------------------------

    def _on_message(self, msg_type: int, payload: bytes, now: float) -> None:
        if msg_type == msg.SYNC:
            # the device opened a new session (it restarted): identify again, then replay. During
            # a handshake the HELLO retry timer covers a HELLO the restart swallowed.
            self._stats.peer_sessions += 1
            if self._state is _State.READY:
                self._send_hello(now)
            return
        try:
            obj = msg.decode(msg_type, payload)
        except msg.MessageError as e:
            if msg_type in msg.NUMBERED_EVENTS:
                self._undecodable_event(msg_type, payload, e)
                return
            self._stats.bad_messages += 1
            log.warning("%s: %s", self.label, e)
            return
        if isinstance(obj, ev.DeviceEvent):
            self._on_event(obj, now)
        elif isinstance(obj, ev.Identify):
            self._on_identify(obj, now)
        elif isinstance(obj, ev.Status):
            self._answer(self._status_waiters, obj)
        elif isinstance(obj, msg.DeviceError):
            self._on_device_error(obj)
        else:
            self._stats.bad_messages += 1
            log.warning("%s: unexpected %r from the device", self.label, obj)

    def _on_identify(self, ident: ev.Identify, now: float) -> None:
        if self._state is _State.HANDSHAKE:
            problem = self._check_identity(ident)
            if problem is not None:
                self._refuse(problem)
                return
            if ident.last_event_no < self._last:  # a reset device, or a stale IDENTIFY
                self._doubt(
                    WrongDevice(
                        self.label,
                        f"device event counter is at {ident.last_event_no}, behind event {self._last} already "
                        "logged for it (a different or reset device?)",
                    )
                )
                return
            if self._known() and not believable(ident.last_event_no, self._known()):
                self._doubt(self._counter_problem(ident))
                return
            self._identity = ident
            self._device_last = max(self._device_last, ident.last_event_no)
            self._become_ready(now)
        else:
            problem = self._check_identity(ident)
            if problem is not None:  # another device mid-session: refused as a swap on a reconnect is
                log.error("%s: %s", self.label, problem.reason)
                self._refuse(problem)
                return
            if not believable(ident.last_event_no, self._known()):
                problem = self._counter_problem(ident)
                log.error("%s: %s", self.label, problem.reason)
                self._refuse(problem)
                return
            self._identify_asked = False
            if ident.last_event_no >= self._last:  # current (a stale one is behind what was delivered)
                self._identity = ident
                self._device_last = max(self._device_last, ident.last_event_no)
                self._drop_unissued(ident.last_event_no)
        self._answer(self._identify_waiters, ident)

    def _check_identity(self, ident: ev.Identify) -> DriverError | None:
        if not MIN_VERSION <= ident.protocol_version <= MAX_VERSION:
            return VersionMismatch(
                self.label,
                f"protocol version mismatch: device speaks v{ident.protocol_version}, "
                f"host speaks v{MIN_VERSION}..v{MAX_VERSION}",
            )
        if self.kind is not None and ident.kind != self.kind:
            return WrongDevice(
                self.label, f"is a {ident.kind.name.lower()} ({ident.model}), not a {self.kind.name.lower()}"
            )
        first = self._identity
        if first is not None and (first.kind, first.serial) != (ident.kind, ident.serial):
            return WrongDevice(
                self.label, f"a different device answered (serial {ident.serial!r}, expected {first.serial!r})"
            )
        if first is not None and first.model != ident.model:
            return WrongDevice(
                self.label,
                f"a different device answered (model {ident.model!r}, serial {ident.serial!r}, "
                f"expected model {first.model!r})",
            )
        return None

    def _known(self) -> int:
        """The most the host knows of the device's counter: the last event delivered, or the
        counter of its last believed IDENTIFY."""
        return max(self._last, self._device_last)

    def _counter_problem(self, ident: ev.Identify) -> WrongDevice:
        """An IDENTIFY whose counter jumped past anything believable (protocol section 6)."""
        return WrongDevice(
            self.label,
            f"device event counter is at {ident.last_event_no}, {past_reason(ident.last_event_no, self._known())}",
        )

    def _become_ready(self, now: float) -> None:
        assert self._link is not None
        self._state = _State.READY
        self._backoff = self.reconnect_initial
        self._persist_sent = 0
        self._persist_since = None
        if self._down_reported:
            # before the events held in the handshake: a device that kept its link session (only
            # the host's side dropped) sends its in-flight events again ahead of its IDENTIFY
            self._down_reported = False
            self._down_detail = ""
            self._emit(ev.Fault(0, ev.FaultKind.DISCONNECTED, cleared=True))
        for n in sorted(n for n in self._held if not believable(n, self._known())):
            self._refuse_event(self._held.pop(n))  # held while the handshake had not said where it stands
        self._request_replay(now)
        self._flush_held(now)
        if not self._started.is_set():
            self._started.set()

    def _on_device_error(self, err: msg.DeviceError) -> None:
        self._stats.device_errors += 1
        # Before start() returns only HELLO was sent, so any ERROR of this host's answers it. Later,
        # in a new session, commands re-sent ahead of the HELLO may be refused ("HELLO first"): only
        # a version error is about the handshake then. Either may also be a stale answer to a
        # previous host (protocol 4.2), so it refuses the device only at the answer timeout.
        if self._state is _State.HANDSHAKE and (not self._started.is_set() or err.code == msg.ERR_VERSION):
            if err.code == msg.ERR_VERSION:
                problem: DriverError = VersionMismatch(
                    self.label,
                    f"protocol version mismatch: host speaks v{MIN_VERSION}..v{MAX_VERSION}"
                    + (f", device says: {err.detail}" if err.detail else ""),
                )
            else:
                problem = DeviceRefused(self.label, f"refused the handshake (error {err.code}: {err.detail})")
            self._doubt(problem)
            return
        log.warning("%s: device error %d: %s", self.label, err.code, err.detail)

    # --- numbered events: exactly once, in order ------------------------------------------

    def _on_event(self, event: ev.DeviceEvent, now: float) -> None:
        n = event.event_no
        if self._adopt and self._last == 0 and self._state is _State.READY and 1 <= n <= self._device_last + 1:
            self._adopt = False
            self._held_to = self._device_last
            if n > 1:
                self._adopted = self._last = n - 1
        if n <= self._last:
            self._stats.duplicate_events += 1
            return
        if self._state is _State.READY and not believable(n, self._known()):
            self._refuse_event(event)
            return
        if n == self._last + 1 and self._state is _State.READY:
            self._deliver(event)
            if self._held:
                self._gap_since = now  # progress: the gap timer starts again
                self._gap_tries = 0
                self._flush_held(now)
            return
        if n in self._held:
            self._stats.duplicate_events += 1
            return
        if len(self._held) < _MAX_HELD:
            self._held[n] = event
        if self._state is _State.READY:
            if not self._replay_pending:
                self._request_replay(now)
            if n > self._device_last:
                self._ask_identify(now)  # beyond what the device said it has: real, or a bad frame?

    def _ask_identify(self, now: float) -> None:
        """Ask the device where its event counter stands (once while an answer is outstanding)."""
        if not self._identify_asked:
            assert self._link is not None
            self._identify_asked = True
            self._link.send(*msg.encode(ev.RequestIdentify()), now)

    def _refuse_event(self, event: ev.DeviceEvent) -> None:
        """An event numbered past anything believable (protocol section 6): never held, delivered,
        confirmed with PERSISTED or taken as a reason to skip the device's real events after it.
        Counted and reported as ``Fault(BAD_EVENT)`` naming the frame and its cards, so that a card
        it carried is in the table's log as a suspect; the same number again (the device keeps it
        and replays it after every reconnect) is only counted."""
        self._stats.bad_events += 1
        if event.event_no in self._refused:
            return
        if len(self._refused) >= _MAX_HELD:
            self._refused.clear()
        self._refused.add(event.event_no)
        detail = f"{describe(event)} refused: event {event.event_no} is {past_reason(event.event_no, self._known())}"
        log.error("%s: %s", self.label, detail)
        self._emit(ev.Fault(0, ev.FaultKind.BAD_EVENT, detail=detail))

    def _undecodable_event(self, msg_type: int, payload: bytes, error: msg.MessageError) -> None:
        """A numbered event whose payload does not decode (a card byte that is no card, a wrong
        length): what the device sent, as its CRC says. Never delivered; counted and reported at
        once as ``Fault(BAD_EVENT)`` naming its type, number and bytes, so the table logs it and
        raises its alarm (once per number: the device sends it again in every replay). Its number
        stays a gap that a replay may fill, or that is declared lost saying why (``_gap_timeout``)."""
        n = int.from_bytes(payload[:4], "little") if len(payload) >= 4 else None
        if n is not None and n <= self._last:
            self._stats.duplicate_events += 1
            return
        self._stats.bad_events += 1
        if n is not None:
            if n in self._undecodable:
                return
            if len(self._undecodable) >= _MAX_HELD:
                self._undecodable.clear()
            self._undecodable.add(n)
        name = msg.EVENT_NAMES[msg_type] + (f" #{n}" if n is not None else " without an event number")
        shown = payload[:_SHOWN_BYTES].hex(" ")
        if len(payload) > _SHOWN_BYTES:
            shown += f" ... ({len(payload)} bytes)"
        detail = f"{name} undecodable, dropped: {error} (payload {shown})"
        log.error("%s: %s", self.label, detail)
        self._emit(ev.Fault(0, ev.FaultKind.BAD_EVENT, detail=detail))

    def _drop_unissued(self, device_last: int) -> None:
        """An IDENTIFY arrived: every held event numbered beyond its counter was never issued (the
        link is in order, so the device's real events up to now all came before it). Such an event
        is a bad frame (a corruption the CRC missed, a confused device): dropped, counted, reported
        as ``Fault(BAD_EVENT)`` - never a reason to skip ahead and lose the real events."""
        bad = sorted(n for n in self._held if n > device_last)
        if not bad:
            return
        frames = "; ".join(describe(self._held[n]) for n in bad[:5])
        for n in bad:
            del self._held[n]
        self._stats.bad_events += len(bad)
        numbers = ", ".join(map(str, bad[:5])) + (f" and {len(bad) - 5} more" if len(bad) > 5 else "")
        detail = (
            f"event{'s' if len(bad) > 1 else ''} {numbers} beyond the device's own counter ({device_last}) "
            f"dropped: a corrupted frame? ({frames})"
        )
        log.error("%s: %s", self.label, detail)
        self._emit(ev.Fault(0, ev.FaultKind.BAD_EVENT, detail=detail))
        if not self._held:
            self._replay_pending = False
            self._gap_tries = 0

    def _flush_held(self, now: float) -> None:
        held = self._held
        for n in [n for n in held if n <= self._last]:
            del held[n]
            self._stats.duplicate_events += 1
        while self._last + 1 in held:
            self._deliver(held.pop(self._last + 1))
        if not held:
            self._replay_pending = False

    def _request_replay(self, now: float) -> None:
        """Ask for every event after the last delivered. Outstanding until the gap fills; the
        gap timer asks again if it stops filling."""
        assert self._link is not None
        self._replay_pending = True
        self._gap_since = now
        self._stats.replays_requested += 1
        self._link.send(*msg.encode(ev.ReplayFrom(self._last + 1)), now)

    def _gap_timeout(self, now: float) -> None:
        """A gap that no replay has filled for ``answer_timeout``: ask again, and after
        ``_GAP_RETRIES`` asks give the missing numbers up as lost (reported, never silent)."""
        first_held = min(self._held)
        if first_held > self._device_last:
            # never skip past the device's own counter: ask where it stands (the answer drops the
            # held events it never issued); REQ_IDENTIFY again after each timeout
            self._identify_asked = False
            self._ask_identify(now)
            self._gap_since = now
            return
        self._gap_tries += 1
        if self._gap_tries <= _GAP_RETRIES:
            self._request_replay(now)
            return
        lost_from = self._last + 1
        self._stats.events_lost += first_held - lost_from
        detail = f"events {lost_from}..{first_held - 1} lost: {self._why_lost(lost_from, first_held - 1)}"
        log.error("%s: %s", self.label, detail)
        self._emit(ev.Fault(0, ev.FaultKind.EVENTS_LOST, detail=detail))
        self._last = first_held - 1
        self._undecodable = {n for n in self._undecodable if n > self._last}
        self._gap_tries = 0
        self._flush_held(now)

    def _why_lost(self, first: int, last: int) -> str:
        """Why events ``first..last`` never arrived: sent undecodable (reported when they came),
        or not replayed."""
        bad = sorted(n for n in self._undecodable if first <= n <= last)
        if not bad:
            return "the device could not replay them"
        numbers = ", ".join(map(str, bad[:5])) + (f" and {len(bad) - 5} more" if len(bad) > 5 else "")
        why = f"the device sent event{'s' if len(bad) > 1 else ''} {numbers} undecodable (reported as a bad event)"
        return why if len(bad) == last - first + 1 else why + " and could not replay the others"

    def _deliver(self, event: ev.DeviceEvent) -> None:
        self._last = event.event_no
        self._stats.events_delivered += 1
        self._emit(event)

    def _emit(self, event: ev.DeviceEvent) -> None:
        try:
            self.sink(self.name, event)
        except Exception:  # noqa: BLE001 - a sink bug must not kill the device's thread
            log.exception("%s: sink failed on %r", self.label, event)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, {self.transport!r}, {self._state.value})"


def _add_link_counters(s: LinkStats, link: Link) -> None:
    f = link.framer
    s.frames += f.frames
    s.crc_errors += f.crc_errors
    s.header_errors += f.header_errors
    s.discarded_bytes += f.discarded
    s.retransmits += link.retransmits
    s.duplicate_frames += link.duplicates
    s.out_of_order_frames += link.out_of_order
    s.stale_frames += link.stale
    s.resyncs += link.resyncs
