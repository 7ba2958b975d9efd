"""``TableController``: one owner thread, one inbox, for one table.

Device drivers call ``sink(device, event)`` from their reader threads; the display and the
virtual dealer call the dealer-input methods (each returns a ``Future``). Both only enqueue. The
inbox holds at most ``MAX_INBOX_EVENTS`` device events: beyond that ``sink`` waits for room, so a
driver whose device floods the table stops reading and acknowledging and the device keeps its
events until there is room (backpressure; nothing is dropped, memory stays bounded). The
owner thread takes the inbox in batches: it applies every item to the ``TableCore`` in arrival
order, then commits the event log (one write + fsync for the batch), THEN tells each device the
highest event number now durable (``driver.persisted``), then publishes a ``TableView`` to the
view listeners and completes the inputs' futures. A device event is therefore fsynced before its
device may forget it, and an input's future completes only once its effects are durable.

A ``Stop`` ends the owner thread after everything queued before it: the table goes offline
(``table_stopped``) and that is committed; what is queued after it is not taken (a device event
stays with its device, an input is rejected). A stop *at once* (a signal's: ``request_stop(...,
at_once=True)``, or an orderly ``stop`` past its grace) does not wait for the queue: the owner
thread stops before the next item it would take, commits what it applied, and leaves the rest
(device events unacknowledged, so their devices send them again at the next start; inputs
rejected), so a stop takes milliseconds whatever is queued (up to ``MAX_INBOX_EVENTS`` slow events
were minutes). The owner thread is the log's only writer while it runs; ``finished`` says when it
has ended, so whoever closes the log waits for that, never for ``Thread.join`` (on Python 3.11 a
join interrupted by a signal can mark a running thread as ended, CPython gh-90882).
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future
from typing import Any, Protocol

from tablectl.cards import card as parse_card
from tablectl.config import TableConfig
from tablectl.drivers.events import DeviceEvent
from tablectl.table.core import EventLogLike, TableCore
from tablectl.table.inputs import (
    BurnNext,
    DealerChange,
    Decision,
    EndRound,
    ExposedCard,
    IdentifyCard,
    InputRejected,
    OfferBank,
    Resolve,
    SeatPlayer,
    ShoeChange,
    Snapshot,
    StartRound,
    Stop,
)
from tablectl.table.restart.resume import LogState
from tablectl.table.stopping import ORDERLY_GRACE
from tablectl.table.view import TableView

_log = logging.getLogger(__name__)
MAX_BATCH = 4096
MAX_INBOX_EVENTS = 8192  # device events queued for the owner thread; a driver's sink waits beyond it
_ROOM_CHECK = 0.25  # how often a waiting sink checks that the controller is still there
ViewListener = Callable[[TableView], None]


class Persistable(Protocol):
    """What the controller needs of a device driver."""

    def persisted(self, event_no: int) -> None: ...


class TableController:
    """The table's owner thread. Thread-safe entry points: ``sink``, ``submit`` and the input
    methods, ``view``, ``add_view_listener``, ``wait_processed``, ``stop``."""

    def __init__(
        self,
        config: TableConfig,
        log: EventLogLike,
        *,
        first_round: int = 1,
        recent: int = 50,
        thread_name: str | None = None,
        resumed: LogState | None = None,
        demo_supervisor: bool = False,
    ) -> None:
        self.config = config
        self.log = log
        self.core = TableCore(config, log, first_round=first_round, recent=recent, demo_supervisor=demo_supervisor)
        self._resumed = resumed
        self._inbox: queue.SimpleQueue[tuple[Any, Any]] = queue.SimpleQueue()
        self._room = threading.Semaphore(MAX_INBOX_EVENTS)  # free places for device events
        self.sink_waits = 0  # times a driver's sink waited for room (backpressure applied)
        self._drivers: dict[str, Persistable] = {}
        self._persisted: dict[str, int] = {}
        self._view_listeners: list[ViewListener] = []
        self._view: TableView = self.core.view()
        self._progress = threading.Condition()
        self._processed: dict[str, int] = {}
        self._thread: threading.Thread | None = None
        self._thread_name = thread_name or f"tablectl-table:{config.table}"
        self._finished = threading.Event()  # set by the owner thread once it will not write again
        self._halt: Stop | None = None  # a stop at once: the owner thread takes nothing more (set once)
        self.error: BaseException | None = None
        self.batches = 0
        self.left = 0  # device events queued when the table stopped and not taken (their devices keep them)

    @property
    def resumed(self) -> LogState | None:
        """What the log said about the table when it started again on it (None: not read back)."""
        return self._resumed

    # --- wiring -----------------------------------------------------------------------------------

    def attach(self, device: str, driver: Persistable) -> None:
        """Tell ``driver`` what is persisted of ``device`` after each batch (before ``start``)."""
        self._drivers[device] = driver

    def resume_after(self, device: str) -> int:
        """The event number a driver for ``device`` resumes after: the highest already logged."""
        return self.log.last_event_no(device)

    def start(self) -> None:
        """Go online (the devices are connected) and start the owner thread."""
        if self._thread is not None:
            raise RuntimeError("the controller is already running")
        devices = {name: self.log.last_event_no(name) for name in self.config.devices}
        identities = {name: ident for name, d in self._drivers.items() if (ident := getattr(d, "identity", None))}
        self.core.go_online(devices, self._resumed, identities, adopted=lambda name: getattr(self._drivers.get(name), "adopted", None),
                            held=lambda name: getattr(self._drivers.get(name), "held_to", None))
        self._persisted = dict(devices)
        self._finish_batch([])
        self._thread = threading.Thread(target=self._run, name=self._thread_name, daemon=True)
        self._thread.start()

    def stop(self, reason: str = "stop", timeout: float = 10.0, *, grace: float = ORDERLY_GRACE) -> bool:
        """Take what is queued (for at most ``grace`` seconds, then stop at once), go offline,
        commit, and end the owner thread (idempotent); whether it has ended within ``timeout``
        seconds (only then may the log be closed)."""
        if self._thread is None:
            return True
        if not self._finished.is_set():
            self.request_stop(reason)
            if not self._finished.wait(min(grace, timeout)):
                self.request_stop(reason, at_once=True)
        return self._finished.wait(timeout)

    def request_stop(self, reason: str = "stop", *, signal: str | None = None, at_once: bool = False) -> None:
        """Queue a ``Stop`` and return at once; ``at_once``: the owner thread takes nothing more
        of what is queued (device events stay with their devices, inputs are rejected, new ones
        at once). ``reason`` and ``signal`` go on ``table_stopped``. Safe in a signal handler: it
        only sets an attribute and puts on the inbox (a ``SimpleQueue``, whose ``put`` is
        reentrant)."""
        stop = Stop(reason, signal)
        if at_once and self._halt is None:
            self._halt = stop
        self._inbox.put((stop, None))

    @property
    def finished(self) -> bool:
        """The owner thread has ended (stopped, or its log failed: ``error``): it writes no more."""
        return self._finished.is_set()

    @property
    def running(self) -> bool:
        return self._thread is not None and not self._finished.is_set()

    def wait_stopped(self, timeout: float | None = None) -> bool:
        """Block until the owner thread has ended (stopped, or its log failed: ``error``), at most
        ``timeout`` seconds; whether it has. A signal handler that returns does not end the wait."""
        if self._thread is None:
            return True
        return self._finished.wait(timeout)

    # --- entry points -------------------------------------------------------------------------

    def sink(self, device: str, event: DeviceEvent) -> None:
        """A driver's callback (its reader thread): enqueue the event. While ``MAX_INBOX_EVENTS``
        device events are waiting it blocks until the owner thread has taken some (the driver
        stops reading, so its device keeps the event); it returns without enqueueing, and
        without waiting, once the table is stopping at once or its owner thread has ended (the
        event is not logged, so the device still holds it: a driver with a flood in hand gets
        through it at once and can stop)."""
        if not self._room.acquire(blocking=False):
            self.sink_waits += 1
            while self._halt is None and not self._finished.is_set():
                if self._room.acquire(timeout=_ROOM_CHECK):
                    break
            else:
                return
        self._inbox.put((device, event))

    def submit(self, inp: Any) -> Future[Any]:
        """Enqueue a dealer input; the future completes (None, or ``InputRejected``) once applied
        and committed."""
        future: Future[Any] = Future()
        if self._halt is not None:  # stopping at once: the owner thread takes no more inputs
            future.set_exception(InputRejected("the table is stopping"))
            return future
        self._inbox.put((inp, future))
        if self._finished.is_set():  # the owner thread will not take it
            self._reject_pending(InputRejected("the table is stopped"))
        return future

    def start_round(
        self,
        seats: Iterable[int],
        wagers: Mapping[int, Mapping[str, int]] | None = None,
        *,
        banker_stake: int | None = None,
    ) -> Future[Any]:
        """Round start: the player seats in play, their wagers (cents by bet) if known."""
        return self.submit(StartRound(tuple(seats), wagers, banker_stake))

    def decide(self, seat: int, decision: str) -> Future[Any]:
        """A player's (or the banker's) decision, one of the prompt's options."""
        return self.submit(Decision(seat, decision))

    def burn_next(self) -> Future[Any]:
        """The next card is a burn (the shoe's burn button does the same)."""
        return self.submit(BurnNext())

    def exposed_card(self) -> Future[Any]:
        """Correction: the last card dealt was exposed; it becomes a burn."""
        return self.submit(ExposedCard())

    def identify_card(self, card: int | str) -> Future[Any]:
        """Correction: the misread card is ``card`` ("QH" or 0..51)."""
        return self.submit(IdentifyCard(int(parse_card(card)) if isinstance(card, str) else card))

    def end_round(self) -> Future[Any]:
        """The dealer paid and collected the round."""
        return self.submit(EndRound())

    def dealer_change(self, dealer: str) -> Future[Any]:
        """A new dealer takes the table."""
        return self.submit(DealerChange(dealer))

    def shoe_change(self) -> Future[Any]:
        """The shoe comes out to be replaced."""
        return self.submit(ShoeChange())

    def offer_bank(self, seat: int, wants: bool = True) -> Future[Any]:
        """Whether ``seat`` wants the bank when it comes round."""
        return self.submit(OfferBank(seat, wants))

    def seat_player(self, seat: int, player: str | None) -> Future[Any]:
        """The pit enters ``player`` for ``seat`` (None: the seat's player left), from the next round."""
        return self.submit(SeatPlayer(seat, player))

    def resolve(self, supervisor: str, *, note: str = "", void_round: bool = False) -> Future[Any]:
        """A supervisor resolves the open violations and releases the hold."""
        return self.submit(Resolve(supervisor, note, void_round))

    def snapshot(self, timeout: float | None = 5.0) -> TableView:
        """A fresh view, taken after everything queued before this call."""
        return self.submit(Snapshot()).result(timeout)  # type: ignore[no-any-return]

    @property
    def inbox_size(self) -> int:
        """Device events and inputs waiting for the owner thread (approximate)."""
        return self._inbox.qsize()

    @property
    def view(self) -> TableView:
        """The view published after the last batch."""
        return self._view

    def add_view_listener(self, listener: ViewListener) -> None:
        """Call ``listener(view)`` (on the owner thread) after every batch."""
        self._view_listeners.append(listener)

    def remove_view_listener(self, listener: ViewListener) -> None:
        self._view_listeners.remove(listener)

    def processed(self, device: str) -> int:
        """The highest event number of ``device`` taken, logged and committed."""
        return self._processed.get(device, 0)

    def wait_processed(self, device: str, event_no: int, timeout: float = 5.0) -> bool:
        """Wait until ``device``'s event ``event_no`` is taken and committed."""
        with self._progress:
            self._progress.wait_for(lambda: self._processed.get(device, 0) >= event_no or self._finished.is_set(), timeout)
            return self._processed.get(device, 0) >= event_no

    # --- the owner thread ---------------------------------------------------------------------

    def _run(self) -> None:
        try:
            self._serve()
        finally:
            self._finished.set()  # before the inbox is emptied: a later submit sees it and rejects
            failed = self.error
            self.left += self._reject_pending(InputRejected(f"the event log failed: {failed}" if failed else "the table is stopped"))
            with self._progress:
                self._progress.notify_all()
            if self.left and failed is None:
                _log.warning("table %s: stopped with %d device event(s) queued and not taken: their devices keep them "
                             "and send them again at the next start", self.config.table, self.left)

    def _serve(self) -> None:
        inbox = self._inbox
        core = self.core
        stopping = False
        while not stopping:
            batch = [inbox.get()]
            try:
                while len(batch) < MAX_BATCH:
                    batch.append(inbox.get_nowait())
            except queue.Empty:
                pass
            replies: list[tuple[Future[Any], Any, BaseException | None]] = []
            events = 0
            for head, tail in batch:
                if self._halt is not None and not stopping:  # a stop at once: nothing more is taken
                    stopping = True
                    core.go_offline(self._halt.reason, self._halt.signal)
                if isinstance(head, str):
                    events += 1
                    if stopping:
                        self.left += 1
                        continue  # after the stop: not taken, its device keeps it
                    try:
                        core.handle_event(head, tail)
                    except Exception as e:  # noqa: BLE001 - a bug must not stop the table
                        self._internal_error(e, f"device {head}: {tail!r}")
                    continue
                if stopping:
                    if isinstance(tail, Future):
                        replies.append((tail, None, InputRejected("the table is stopped")))
                    continue
                if isinstance(head, Stop):
                    stopping = True
                    core.go_offline(head.reason, head.signal)
                    if isinstance(tail, Future):
                        replies.append((tail, None, None))
                    continue
                if isinstance(head, Snapshot):
                    replies.append((tail, head, None))
                    continue
                try:
                    core.handle_input(head)
                    replies.append((tail, None, None))
                except InputRejected as e:
                    replies.append((tail, None, e))
                except Exception as e:  # noqa: BLE001
                    self._internal_error(e, f"input {head!r}")
                    replies.append((tail, None, InputRejected(f"internal error: {e}")))
            try:
                self._finish_batch(replies)
                if events:
                    self._room.release(events)
            except BaseException as e:  # the log failed: nothing more may be accepted or acknowledged
                self.error = e
                _log.error("table %s: HELD: the event log failed (%s); nothing more is accepted or acknowledged", self.config.table, e)
                for future, _, _ in replies:
                    if not future.done():
                        future.set_exception(InputRejected(f"the event log failed: {e}"))
                return

    def _finish_batch(self, replies: list[tuple[Future[Any], Any, BaseException | None]]) -> None:
        core = self.core
        self.log.commit()
        self.batches += 1
        highest = core.highest
        for device, number in highest.items():
            if number > self._persisted.get(device, 0):
                self._persisted[device] = number
                driver = self._drivers.get(device)
                if driver is not None:
                    driver.persisted(number)
        want_view = bool(self._view_listeners) or any(isinstance(r[1], Snapshot) for r in replies)
        if want_view:
            self._view = view = core.view()
            for listener in self._view_listeners:
                try:
                    listener(view)
                except Exception:  # noqa: BLE001 - a display must not stop the table
                    _log.exception("view listener %r failed", listener)
        with self._progress:
            self._processed = dict(highest)
            self._progress.notify_all()
        for future, value, error in replies:
            if error is not None:
                future.set_exception(error)
            elif isinstance(value, Snapshot):
                future.set_result(self._view)
            else:
                future.set_result(None)

    def _internal_error(self, error: Exception, what: str) -> None:
        _log.exception("table %s: internal error on %s", self.config.table, what)
        self.log.append("internal_error", error=f"{type(error).__name__}: {error}", what=what[:200])

    def _reject_pending(self, rejection: InputRejected) -> int:
        """Empty the inbox once the owner thread has ended: each input's future is rejected;
        returns how many device events were in it (not taken: their devices keep them)."""
        events = 0
        while True:
            try:
                head, tail = self._inbox.get_nowait()
            except queue.Empty:
                return events
            if isinstance(head, str):
                events += 1
            elif isinstance(tail, Future) and not tail.done():
                tail.set_exception(rejection)
