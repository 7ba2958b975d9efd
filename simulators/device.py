"""``SimDevice``: a device model behind the device end of the tablectl link, with fault injection.

Byte interface (the serving thread: pty, TCP or USB) — ``connected(now)`` when a transport comes
up (a fresh link session: the device sends SYNC), ``receive(data, now)`` for bytes read,
``outgoing(now)`` for bytes to write, ``poll(now)`` / ``next_deadline()`` for retransmits,
``take_disconnect()`` when a line fault asks the transport to drop, ``disconnected()``.

Control interface (any other thread: a test, the virtual dealer, the control channel) — ``draw``,
``return_cards``, ``press_button``, ``load``, ``start_shuffle``, ``deliver_packet``,
``discard_rest``, ``clear_fault``, ``restart``, ``inject``, ``status``. Each returns the numbered
events it caused (the dealer sees the card anyway) or raises ``DeviceRefused``. One lock guards
everything; wakers registered with ``add_waker`` are called after each control action so a
server blocked in ``select`` writes the new frames at once.

The device end of the protocol (docs/simulators.md, "Protocol"):

- Every new host session (a SYNC from the host) starts unnegotiated. HELLO(min, max): IDENTIFY if
  the device's protocol version is in range, else ERROR(ERR_VERSION, "device speaks protocol V").
  REQ_IDENTIFY, REQ_STATUS and PERSISTED are taken any time; every other command before a
  successful HELLO gets ERROR(ERR_NOT_NOW, "HELLO first").
- Numbered events are stored (``NvStore``) and sent only while *streaming*: REPLAY_FROM(n) sends
  every stored event numbered n or more, in order, then streams live. A new host session, a
  restart or a transport drop stops streaming until the next REPLAY_FROM. PERSISTED(n) forgets
  events up to n.
- Memory is finite, as a real device's: events go from the store into the link only while the
  link's window has room (the store is the only queue of events), answers beyond a second
  window's worth of unacknowledged frames are dropped (``answers_dropped``), and a full store
  refuses new actions. A host that never acknowledges stops the device; it cannot grow it.
- SHUFFLE, DELIVER_PACKET, DISCARD_REST, RESET as the model allows; anything else: ERROR.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable

from tablectl.cards import card as parse_card
from tablectl.drivers import messages as msg
from tablectl.drivers import events as ev
from tablectl.drivers.events import DeviceEvent, DeviceKind, FaultKind, Identify, Status
from tablectl.drivers.link import Link
from tablectl.simulators.faults import DEVICE_FAULTS, LINE_FAULTS, FaultSpecError
from tablectl.simulators.linefaults import LineFaults
from tablectl.simulators.model import DeviceModel, DeviceRefused
from tablectl.simulators.nvstore import NvStore

FIRMWARE = "tablectl-sim 1.0"
#: Commands a device accepts (type code -> name for error texts).
_COMMANDS = {
    msg.HELLO: "HELLO",
    msg.REQ_IDENTIFY: "REQ_IDENTIFY",
    msg.REQ_STATUS: "REQ_STATUS",
    msg.SHUFFLE: "SHUFFLE",
    msg.DELIVER_PACKET: "DELIVER_PACKET",
    msg.DISCARD_REST: "DISCARD_REST",
    msg.RESET: "RESET",
    msg.PERSISTED: "PERSISTED",
    msg.REPLAY_FROM: "REPLAY_FROM",
}

CardLike = int | str


class SimDevice:
    """A simulated device: ``model`` + device-end ``Link`` + NV store + line faults."""

    def __init__(
        self,
        model: DeviceModel,
        *,
        serial: str | None = None,
        model_name: str | None = None,
        firmware: str = FIRMWARE,
        protocol_version: int = msg.PROTOCOL_VERSION,
        mute: bool = False,
        line: LineFaults | None = None,
        retransmit_after: float = 0.05,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.model = model
        self.serial = serial or f"SIM-{model.kind.name}-{model.seed}"
        self.model_name = model_name or f"tablectl-sim-{model.kind.name.lower()}"
        self.firmware = firmware
        self.protocol_version = protocol_version
        self.mute = mute
        self.line = line if line is not None else LineFaults()
        self.retransmit_after = retransmit_after
        self._clock = clock
        self._lock = threading.RLock()
        self._wakers: list[Callable[[], None]] = []
        self._link: Link | None = None
        self._online = False
        self._hello_ok = False
        self._streaming = False
        self._cursor = 0  # while streaming: the next event number to put into the link
        self.answers_dropped = 0  # answers not sent: the link was full of unacknowledged frames
        self.restarts = 0
        self.sessions = 0  # link sessions opened by the device (connects, replugs, restarts)
        self.host_sessions = 0  # host sessions seen (SYNCs from a host)

    # --- identity -----------------------------------------------------------------------------

    @property
    def kind(self) -> DeviceKind:
        return self.model.kind

    @property
    def store(self) -> NvStore:
        """The model's NV store (event counter and unpersisted events)."""
        return self.model.store

    def identify(self) -> Identify:
        with self._lock:
            return Identify(
                kind=self.model.kind,
                model=self.model_name,
                serial=self.serial,
                firmware=self.firmware,
                protocol_version=self.protocol_version,
                capabilities=self.model.capabilities,
                last_event_no=self.model.store.last_no,
            )

    # --- byte interface (the serving thread) --------------------------------------------------

    @property
    def online(self) -> bool:
        return self._online

    @property
    def streaming(self) -> bool:
        """Whether live events go to the host now (after a REPLAY_FROM in this session)."""
        return self._streaming

    def connected(self, now: float | None = None) -> None:
        """A transport came up: a fresh link session (the device sends SYNC)."""
        with self._lock:
            self._online = True
            self.line.reset()
            self._new_session(self._now(now))

    def disconnected(self) -> None:
        """The transport went down: the session and anything unsent are gone (events stay stored)."""
        with self._lock:
            self._online = False
            self._link = None
            self._hello_ok = False
            self._streaming = False
            self.line.reset()

    def receive(self, data: bytes, now: float | None = None) -> None:
        """Bytes read from the transport."""
        with self._lock:
            if not self._online or self.mute or self._link is None or not data:
                return
            t = self._now(now)
            for msg_type, payload in self._link.receive(self.line.inbound(data), t):
                self._handle(msg_type, payload, t)
            self._pump_events(t)  # acknowledgements may have made room in the window
            self._after_action(t)

    def outgoing(self, now: float | None = None) -> bytes:
        """Bytes to write to the transport now (after line faults)."""
        with self._lock:
            if self._link is None:
                return b""
            return self.line.outbound(self._link.outgoing())

    def poll(self, now: float | None = None) -> None:
        """Retransmit what timed out."""
        with self._lock:
            if self._link is not None:
                self._link.poll(self._now(now))

    @property
    def unacked(self) -> int:
        """Frames of this link session the host has not acknowledged (sent or waiting to be)."""
        with self._lock:
            return 0 if self._link is None else self._link.unacked

    def next_deadline(self) -> float | None:
        with self._lock:
            return None if self._link is None else self._link.next_deadline()

    def take_disconnect(self) -> bool:
        """Whether a ``disconnect`` line fault fired (the server should unplug for a moment)."""
        with self._lock:
            return self.line.take_disconnect()

    def add_waker(self, waker: Callable[[], None]) -> None:
        """Call ``waker`` (from the control thread) whenever a control action may have output."""
        with self._lock:
            self._wakers.append(waker)

    def remove_waker(self, waker: Callable[[], None]) -> None:
        with self._lock:
            if waker in self._wakers:
                self._wakers.remove(waker)

    # --- control interface (any thread) -------------------------------------------------------

    def draw(self) -> list[DeviceEvent]:
        """The dealer draws a card (shoe) or takes the dispensed card (CSM)."""
        return self._control(self.model.draw)

    def return_cards(self, cards: Iterable[CardLike]) -> list[DeviceEvent]:
        """Cards into a CSM's in-feed (ints or texts like ``"QH"``)."""
        parsed = [c if isinstance(c, int) else int(parse_card(c)) for c in cards]
        return self._control(lambda: self.model.return_cards(parsed))

    def faces(self, event_no: int) -> tuple[int, ...]:
        """The faces of the cards event ``event_no`` reported as misreads (a dealer turning them over)."""
        with self._lock:
            return self.model.faces(event_no)

    def cards_out(self) -> list[int]:
        """A CSM's cards dispensed and not returned yet (what a dealer finds on the table)."""
        with self._lock:
            return self.model.cards_out()  # type: ignore[attr-defined,no-any-return]

    def press_button(self, button: int = 0) -> list[DeviceEvent]:
        return self._control(lambda: self.model.press_button(button))

    def load(self) -> list[DeviceEvent]:
        """Load a fresh shoe / fresh decks into a CSM / a fresh deck into a batch shuffler."""
        return self._control(self.model.load)

    load_shoe = load
    load_deck = load

    def start_shuffle(self) -> list[DeviceEvent]:
        return self._control(self.model.start_shuffle)

    def deliver_packet(self, count: int) -> list[DeviceEvent]:
        return self._control(lambda: self.model.deliver_packet(count))

    def discard_rest(self) -> list[DeviceEvent]:
        return self._control(self.model.discard_rest)

    def clear_fault(self) -> list[DeviceEvent]:
        """An attendant clears every active fault (jam removed, door shut)."""
        return self._control(self.model.clear_fault)

    def restart(self) -> list[DeviceEvent]:
        """Power-cycle: link session and RAM dropped; NV counter, store and cards kept;
        ``Fault(POWER_UP)`` issued (and sent on the host's next replay)."""
        with self._lock:
            events = self._restart(self._now(None))
        self._wake()
        return events

    def announce(self) -> None:
        """Send an IDENTIFY now, unasked (a device may identify itself again at any time): what
        ``identify`` says at this moment, serial number and counter included."""
        with self._lock:
            self._send(self.identify(), self._now(None))
        self._wake()

    def inject(self, fault: str) -> list[DeviceEvent]:
        """Make one fault happen: ``jam``/``door``/``restart``/``disconnect`` at once; ``misread``,
        ``foreign``, ``extra``, ``missing`` at the next card; ``noise``/``crc``/``drop``/``dup``/
        ``reorder`` on the next frame the device writes."""
        kind = fault.strip().lower()
        if kind == "jam":
            return self._control(lambda: self.model.raise_fault(FaultKind.JAM, "card jam"))
        if kind == "door":
            return self._control(lambda: self.model.raise_fault(FaultKind.DOOR_OPEN, "door opened"))
        if kind == "restart":
            return self.restart()
        with self._lock:
            if kind == "disconnect":
                self.line.disconnect_requested = True
            elif kind in DEVICE_FAULTS:
                self.model.faults.arm(kind)
            elif kind in LINE_FAULTS:
                self.line.plan.arm(kind)
            else:
                raise FaultSpecError(f"unknown fault kind {fault!r}")
        self._wake()
        return []

    def status(self) -> Status:
        with self._lock:
            return self.model.status()

    # --- internals ----------------------------------------------------------------------------

    def _now(self, now: float | None) -> float:
        return self._clock() if now is None else now

    def _new_session(self, now: float) -> None:
        self._hello_ok = False
        self._streaming = False
        if self.mute:
            self._link = None
            return
        self._link = Link(retransmit_after=self.retransmit_after)
        self._link.open(now)
        self.sessions += 1

    def _restart(self, now: float) -> list[DeviceEvent]:
        self.restarts += 1
        events = self.model.power_up()
        if self._online:
            self.line.reset()
            self._new_session(now)
        else:
            self._link = None
        return events

    def _control(self, action: Callable[[], list[DeviceEvent]]) -> list[DeviceEvent]:
        with self._lock:
            now = self._now(None)
            events = action()
            self._pump_events(now)
            events = events + self._after_action(now)
        self._wake()
        return events

    def _after_action(self, now: float) -> list[DeviceEvent]:
        if self.model.restart_requested:
            return self._restart(now)
        return []

    def _wake(self) -> None:
        for waker in list(self._wakers):
            waker()

    def _send(self, obj: object, now: float) -> None:
        """Send an answer (IDENTIFY, STATUS, ERROR); dropped while the link holds two windows of
        unacknowledged frames (a device's output buffer is finite; the host asks again)."""
        link = self._link
        if link is None:
            return
        if link.unacked >= 2 * link.window:
            self.answers_dropped += 1
            return
        link.send(*msg.encode(obj), now)

    def _pump_events(self, now: float) -> None:
        """While streaming, move stored events from the cursor into the link, in order, as long
        as its window has room (the rest stay in the store until acknowledgements make room)."""
        link = self._link
        if link is None or not self._streaming:
            return
        store = self.model.store
        cursor = max(self._cursor, store.first_no)
        while cursor < store.next_no and link.unacked < link.window:
            event = store.get(cursor)
            assert event is not None
            link.send(*msg.encode(event), now)
            cursor += 1
        self._cursor = cursor

    def _error(self, code: int, detail: str, now: float) -> None:
        self._send(msg.DeviceError(code, detail), now)

    def _handle(self, msg_type: int, payload: bytes, now: float) -> None:
        if msg_type == msg.SYNC:  # a new host session: it starts unnegotiated
            self.host_sessions += 1
            self._hello_ok = False
            self._streaming = False
            return
        name = _COMMANDS.get(msg_type)
        if name is None:
            self._error(msg.ERR_UNKNOWN_COMMAND, f"unknown command 0x{msg_type:02x}", now)
            return
        try:
            command = msg.decode(msg_type, payload)
        except msg.MessageError as e:
            self._error(msg.ERR_BAD_PAYLOAD, str(e), now)
            return
        if msg_type == msg.HELLO:
            assert isinstance(command, msg.Hello)
            if command.min_version <= self.protocol_version <= command.max_version:
                self._hello_ok = True
                self._send(self.identify(), now)
            else:
                self._hello_ok = False
                self._streaming = False
                self._error(msg.ERR_VERSION, f"device speaks protocol {self.protocol_version}", now)
            return
        if msg_type == msg.REQ_IDENTIFY:
            self._send(self.identify(), now)
            return
        if msg_type == msg.REQ_STATUS:
            self._send(self.model.status(), now)
            return
        if isinstance(command, ev.Persisted):  # idempotent and safe in any session state
            self.model.store.persisted(command.event_no)
            return
        if not self._hello_ok:
            self._error(msg.ERR_NOT_NOW, f"{name}: HELLO first", now)
            return
        if isinstance(command, ev.ReplayFrom):
            self._cursor = command.event_no
            self._streaming = True
            self._pump_events(now)
            return
        count = command.count if isinstance(command, ev.DeliverPacket) else 0
        actions: dict[int, Callable[[], list[DeviceEvent]]] = {
            msg.SHUFFLE: self.model.start_shuffle,
            msg.DELIVER_PACKET: lambda: self.model.deliver_packet(count),
            msg.DISCARD_REST: self.model.discard_rest,
            msg.RESET: self.model.reset,
        }
        try:
            actions[msg_type]()
        except DeviceRefused as e:
            self._error(e.code, e.detail, now)
            return
        self._pump_events(now)
