"""The out-of-process control channel: a harness acts as the dealer over a tiny line protocol.

``ControlServer(device, host, port).start()`` listens on TCP (loopback by default) and returns
``HOST:PORT``. Each line is one command; each answer is one line: ``ok`` followed by the events
the action caused, or ``err <reason>``. Any number of clients may connect. Given the transport's
server as ``plug`` (anything with ``unplug(seconds)`` and ``plug_in()``), it can pull the cable.

Commands (case-insensitive)::

    draw [N]             draw N cards (default 1)           -> ok CardDrawn#12=QH ...
    return QH 7C ...     cards into a CSM's in-feed         -> ok CardReturned#13=QH ...
    button               press the device's button
    load                 load a shoe / fresh decks / a fresh deck
    shuffle              start a shuffle (CSM, batch shuffler)
    deliver N            deliver a packet of N cards
    discard              discard the rest of the deck
    clear                clear every active fault
    restart              power-cycle the device
    unplug               pull the cable until replug (the transport drops; events are kept)
    replug               plug the cable back in
    fault KIND           inject one fault (jam, door, misread, foreign, extra, missing,
                         restart, noise, crc, drop, dup, reorder, disconnect)
    status               -> ok state=READY cards=287 door=0 faults=
    info                 -> ok kind=SHOE serial=... last_event=41 unpersisted=3
    help                 the command list

Events are written ``Name#event_no`` plus ``=value`` where there is one: a card's text (``?``
for a misread), ``PacketDelivered#7=0:AS,KD,?``, ``Fault#9=JAM``/``JAM-cleared``,
``ShuffleDone#4=ok`` or ``=missing:AS;extra:;foreign:1``, ``ShoeLoaded#1=312``.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from typing import Protocol

from tablectl.cards import CardError, text
from tablectl.drivers import events as ev
from tablectl.simulators.device import SimDevice
from tablectl.simulators.faults import FaultSpecError
from tablectl.simulators.model import DeviceRefused

HELP = (
    "draw [N] | return CARD... | button | load | shuffle | deliver N | discard | clear | restart | "
    "unplug | replug | fault KIND | status | info | help"
)
#: How long ``unplug`` keeps the cable out when no ``replug`` comes (a forgotten harness).
UNPLUG_LIMIT = 3600.0


class Plug(Protocol):
    """The cable between a served device and its host (``ServerBase`` is one)."""

    def unplug(self, seconds: float | None = None) -> None: ...

    def plug_in(self) -> None: ...


def _card(c: int | None) -> str:
    return "?" if c is None else text(c)


def describe(event: ev.DeviceEvent) -> str:
    """One event as a control-channel token."""
    name = f"{type(event).__name__}#{event.event_no}"
    if isinstance(event, (ev.CardDrawn, ev.CardReturned)):
        return f"{name}={_card(event.card)}"
    if isinstance(event, ev.PacketDelivered):
        return f"{name}={event.packet}:{','.join(_card(c) for c in event.cards)}"
    if isinstance(event, ev.Fault):
        return f"{name}={event.kind.name}{'-cleared' if event.cleared else ''}"
    if isinstance(event, ev.ShuffleDone):
        if event.deck_ok:
            return f"{name}=ok"
        missing = ",".join(f"{text(c)}x{n}" if n > 1 else text(c) for c, n in sorted(event.missing.items()))
        extra = ",".join(f"{text(c)}x{n}" if n > 1 else text(c) for c, n in sorted(event.extra.items()))
        return f"{name}=missing:{missing};extra:{extra};foreign:{event.foreign}"
    if isinstance(event, ev.ShoeLoaded):
        return f"{name}={event.cards}"
    if isinstance(event, ev.CardsDiscarded):
        return f"{name}={event.count}"
    if isinstance(event, ev.ShuffleStarted):
        return f"{name}={event.shoe_id}"
    return name


def execute(device: SimDevice, line: str, plug: Plug | None = None) -> str:
    """Run one control line against ``device`` (served through ``plug``); the answer line
    (without newline)."""
    words = line.split()
    if not words:
        return "err empty command"
    cmd, args = words[0].lower(), words[1:]
    try:
        if cmd == "help":
            return "ok " + HELP
        if cmd == "status":
            s = device.status()
            faults = ",".join(sorted(f.name for f in s.faults))
            return f"ok state={s.state.name} cards={s.cards_in_device} door={int(s.door_open)} faults={faults}"
        if cmd == "info":
            store = device.store
            return (
                f"ok kind={device.kind.name} serial={device.serial} seed={device.model.seed} "
                f"last_event={store.last_no} unpersisted={len(store)} online={int(device.online)}"
            )
        if cmd in ("unplug", "replug"):
            if plug is None:
                return f"err {cmd}: this device is served without a cable to pull"
            if cmd == "unplug":
                plug.unplug(UNPLUG_LIMIT)
            else:
                plug.plug_in()
            return "ok"
        events = _ACTIONS[cmd](device, args) if cmd in _ACTIONS else None
        if events is None:
            return f"err unknown command {cmd!r} ({HELP})"
        return " ".join(["ok"] + [describe(e) for e in events])
    except DeviceRefused as e:
        return f"err {e.detail}"
    except (CardError, FaultSpecError, ValueError) as e:
        return f"err {e}"


def _count(args: list[str], default: int | None) -> int:
    if not args:
        if default is None:
            raise ValueError("a count is needed")
        return default
    return int(args[0])


def _draw(device: SimDevice, args: list[str]) -> list[ev.DeviceEvent]:
    out: list[ev.DeviceEvent] = []
    for _ in range(_count(args, 1)):
        out += device.draw()
    return out


def _fault(device: SimDevice, args: list[str]) -> list[ev.DeviceEvent]:
    if len(args) != 1:
        raise ValueError("fault takes one kind")
    return device.inject(args[0])


_ACTIONS: dict[str, Callable[[SimDevice, list[str]], list[ev.DeviceEvent]]] = {
    "draw": _draw,
    "return": lambda d, a: d.return_cards(a),
    "button": lambda d, a: d.press_button(_count(a, 0)),
    "load": lambda d, a: d.load(),
    "shuffle": lambda d, a: d.start_shuffle(),
    "deliver": lambda d, a: d.deliver_packet(_count(a, None)),
    "discard": lambda d, a: d.discard_rest(),
    "clear": lambda d, a: d.clear_fault(),
    "restart": lambda d, a: d.restart(),
    "fault": _fault,
}


class ControlServer:
    """Serves the control line protocol for one device (a thread per client)."""

    def __init__(self, device: SimDevice, host: str = "127.0.0.1", port: int = 0, *, plug: Plug | None = None) -> None:
        self.device = device
        self.plug = plug
        self.host = host
        self.port = port
        self.address = ""
        self._listener: socket.socket | None = None
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._clients: set[socket.socket] = set()
        self._lock = threading.Lock()

    def start(self) -> str:
        """Listen; returns ``HOST:PORT``. ``OSError`` if the port is taken."""
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind((self.host, self.port))
            listener.listen(8)
        except OSError:
            listener.close()
            raise
        listener.settimeout(0.2)
        self._listener = listener
        self.port = listener.getsockname()[1]
        self.address = f"{self.host}:{self.port}"
        t = threading.Thread(target=self._accept_loop, name="sim-control", daemon=True)
        t.start()
        self._threads.append(t)
        return self.address

    def stop(self) -> None:
        self._stop.set()
        if self._listener is not None:
            try:
                self._listener.shutdown(socket.SHUT_RDWR)  # wakes the blocked accept at once (Linux)
            except OSError:
                pass
        with self._lock:
            for c in list(self._clients):
                try:
                    c.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        for t in list(self._threads):
            t.join(timeout=5)
        if self._listener is not None:
            self._listener.close()
            self._listener = None

    def __enter__(self) -> ControlServer:
        if not self.address:
            self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _accept_loop(self) -> None:
        assert self._listener is not None
        while not self._stop.is_set():
            try:
                conn, _ = self._listener.accept()
            except (TimeoutError, socket.timeout):
                continue
            except OSError:
                return
            t = threading.Thread(target=self._serve, args=(conn,), name="sim-control-client", daemon=True)
            with self._lock:
                self._clients.add(conn)
                self._threads.append(t)
            t.start()

    def _serve(self, conn: socket.socket) -> None:
        try:
            with conn, conn.makefile("rwb", buffering=0) as f:
                for raw in f:
                    if self._stop.is_set():
                        break
                    line = raw.decode("utf-8", "replace").strip()
                    if line.lower() in ("quit", "exit"):
                        break
                    conn.sendall((execute(self.device, line, self.plug) + "\n").encode())
        except OSError:
            pass
        finally:
            with self._lock:
                self._clients.discard(conn)
