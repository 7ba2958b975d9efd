"""The live feed: the stream's log lines into the floor state, and the state's changes out to every
open page.

:class:`Feed` subscribes to every table's log subject (an ordered JetStream consumer from the
start of the stream, then from the last message it took) and to the collector's alarm and the publishers' status subjects;
each line is read with the log's typed schema (``tablectl.eventlog.records.read_line``) and goes
to the floor state (``state.Floor``) and to review's rounds (``rounds.RoundBook``); a line that is
not a record of the log (a field of another type than the table writes) is refused and counted.
The broker going away is survived: the connection reconnects by itself, and on reconnecting (or
when the stream is found ahead of what was delivered) the consumer is made again from the next
stream sequence, so nothing is missed or taken twice (the state ignores a line it already has); a
stream made anew (a broker back with an empty store: created at another time, or ending below what
was taken) is read from its start.

:class:`Hub` fans out: every ``interval`` it renders each changed table's fragments once and
queues them to every page that shows them (Server-Sent Events, ``app.py``), and once a second it
looks for tiles that the passing of time changed (a table fell silent; how long it has been silent). A page too slow to keep up is dropped; its browser reconnects
and gets every fragment again. A fragment that fails to render is logged (once, with its traceback)
and left as the pages last had it; the others go on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

import orjson

from tablectl.eventlog.records import read_line
from tablectl.pit import nats as pn
from tablectl.pit.rounds import RoundBook, RoundSummary
from tablectl.pit.state import Floor
from tablectl.pit.views import Views, rounds_count

#: events queued to one page before it counts as too slow and is dropped
CLIENT_QUEUE = 2000

log = logging.getLogger("tablectl.pit")
T = TypeVar("T")


@dataclass(eq=False)
class Client:
    """One open page: the table it shows (None: the floor) and its queue of SSE events."""

    table: str | None
    queue: asyncio.Queue[tuple[str, bytes] | None] = field(default_factory=lambda: asyncio.Queue(CLIENT_QUEUE))
    dropped: bool = False
    #: the table's rounds the page was sent: (the day, the book's version, how many are listed)
    rounds: tuple[str, int, int] | None = None

    def put(self, event: str, data: bytes) -> None:
        if self.dropped:
            return
        try:
            self.queue.put_nowait((event, data))
        except asyncio.QueueFull:
            self.dropped = True
            with contextlib.suppress(asyncio.QueueEmpty):
                self.queue.get_nowait()
            self.queue.put_nowait(None)  # the page's stream ends; its browser reconnects


def _event(**data: Any) -> bytes:
    return orjson.dumps(data)


class Hub:
    """The open pages, and what changed since they were last told."""

    def __init__(self, views: Views, interval: float = 0.1) -> None:
        self.views, self.interval = views, interval
        self.clients: set[Client] = set()
        self.dirty: set[str] = set()
        self.alarms_version = -1
        self.feed_text = "connecting to the stream"
        self._feed_changed = False
        self._shown: dict[str, tuple[str, str]] = {}  # table -> its tile's kind and status line, as last rendered
        self._failing: set[tuple[str, str | None]] = set()  # fragments that failed to render (logged once)
        self.sent = 0

    def changed(self, table: str) -> None:
        self.dirty.add(table)

    def feed_status(self, text: str) -> None:
        if text != self.feed_text:
            self.feed_text, self._feed_changed = text, True

    def _render(self, part: str, fn: Callable[..., T], table: str | None = None) -> T | None:
        """``fn(table)`` (``fn()`` without a table), or None if it fails: logged with its traceback
        the first time, and until it renders again the pages keep what they last had of it."""
        what = (part, table)
        try:
            out = fn() if table is None else fn(table)
        except Exception:  # one fragment that cannot be rendered must not stop the others
            if what not in self._failing:
                self._failing.add(what)
                log.exception("pit: the %s of %s failed to render; the pages keep its last version", part,
                              table or "the floor")
            return None
        self._failing.discard(what)
        return out

    def _shows(self, table: str) -> tuple[str, str]:
        """A table's tile kind (silent, dealing, ...) and status line (``silent for 12 s``)."""
        t = self.views.tile_of(table)
        return t.kind, t.status

    def _tile(self, table: str) -> tuple[tuple[str, str], str]:
        """A table's tile kind and status line, and its HTML."""
        return self._shows(table), self.views.tile(table)

    def join(self, table: str | None) -> Client:
        """A new page: queued every fragment it shows, then each change."""
        c = Client(table)
        c.put("feed", _event(text=self.feed_text))
        if table is None:
            rendered = [(name, self._render("tile", self.views.tile, name)) for name in sorted(self.views.floor.tables)]
            c.put("tiles", _event(tiles=[(name, html) for name, html in rendered if html is not None]))
            alarms = self._render("alarms", self.views.alarms)
            if alarms is not None:
                c.put("alarms", _event(html=alarms))
        else:
            self._table_events(c, table)
        self.clients.add(c)
        return c

    def leave(self, c: Client) -> None:
        self.clients.discard(c)

    def _table_events(self, c: Client, table: str) -> None:
        v = self.views
        for event, fn in (("tile", v.tile), ("layout", v.layout)):
            html = self._render(event, fn, table)
            if html is not None:
                c.put(event, _event(table=table, html=html) if event == "tile" else _event(html=html))
        self._rounds_to(table, [c])

    def _rounds_to(self, table: str, watchers: list[Client]) -> None:
        """Tell each page of ``table`` what its rounds list lacks: the rounds listed since it was
        last told, one ``round`` event each (its row, ``id="round-<id>"``, to put first in
        ``#rounds-list``, and the line above the list); the whole list (``rounds``) to a page that
        has none yet, or of another day, or that missed rounds no longer kept. Nothing when nothing
        was listed: a row opened to read stays open, and an update's size does not grow with the day."""
        date, version, listed = self.views.rounds_today(table)
        now = (date, version, len(listed))
        made: dict[tuple[str, int, int] | None, list[tuple[str, bytes]] | None] = {}
        for c in watchers:
            if c.rounds == now:
                continue
            if c.rounds not in made:
                made[c.rounds] = self._rounds_update(table, c.rounds, now, listed)
            update = made[c.rounds]
            if update is None:
                continue  # failed to render (logged): the page keeps what it has, and is told again
            for event, data in update:
                c.put(event, data)
            c.rounds = now

    def _rounds_update(self, table: str, had: tuple[str, int, int] | None, now: tuple[str, int, int],
                       listed: list[RoundSummary]) -> list[tuple[str, bytes]] | None:
        """The events that bring a page's rounds list from ``had`` to ``now`` (None: failed to render)."""
        book = self.views.rounds.of(table)
        new = book.since(had[1]) if book is not None and had is not None and had[0] == now[0] and had[2] else None
        if new is None:
            html = self._render("rounds", self.views.rounds_of, table)
            return None if html is None else [("rounds", _event(html=html))]
        count = rounds_count(now[2], now[0])
        out = []
        for r in new:
            if r.date == now[0]:
                row = self._render(f"round {r.id}", lambda _table, r=r: self.views.round_row(r), table)
                if row is None:
                    return None
                out.append(("round", _event(html=row, count=count)))
        return out

    def flush(self) -> None:
        """Tell every page what changed since the last flush (each fragment rendered once)."""
        dirty, self.dirty = self.dirty, set()
        if not self.clients:  # nobody to tell (a page that joins is sent all as it is then): only
            self._feed_changed = False  # what the silence watch compares with
            self.alarms_version = self.views.floor.alarms_version
            for table in dirty:
                shows = self._render("tile", self._shows, table)
                if shows is not None:
                    self._shown[table] = shows
            return
        floor_clients = [c for c in self.clients if c.table is None]
        if self._feed_changed:
            self._feed_changed = False
            data = _event(text=self.feed_text)
            for c in self.clients:
                c.put("feed", data)
        if dirty:
            rendered = []
            for table in sorted(dirty):
                tile = self._render("tile", self._tile, table)
                if tile is not None:
                    self._shown[table] = tile[0]
                    rendered.append((table, tile[1]))
            if floor_clients:  # every changed tile in one event: one message for the browser to handle
                batch = _event(tiles=rendered)
                for c in floor_clients:
                    c.put("tiles", batch)
            for table, html in rendered:
                watchers = [c for c in self.clients if c.table == table]
                if watchers:
                    out = [("tile", _event(table=table, html=html))]
                    part = self._render("layout", self.views.layout, table)
                    if part is not None:
                        out.append(("layout", _event(html=part)))
                    for c in watchers:
                        for event, data in out:
                            c.put(event, data)
                    self._rounds_to(table, watchers)
            self.sent += len(rendered)
        if self.alarms_version != self.views.floor.alarms_version:
            self.alarms_version = self.views.floor.alarms_version
            html = self._render("alarms", self.views.alarms)
            if html is not None:
                alarms = _event(html=html)
                for c in floor_clients:
                    c.put("alarms", alarms)

    def look_for_silence(self) -> None:
        """Mark the tables whose tile the passing of time changed: fell silent, or a silence (or a
        table's time without a line) that has lasted on, so an open page's durations stay true."""
        for table in list(self.views.floor.tables):
            shows = self._render("tile", self._shows, table)
            if shows is not None and self._shown.get(table) != shows:
                self._shown[table] = shows
                self.dirty.add(table)

    async def run(self, stop: asyncio.Event) -> None:
        """Flush every ``interval``; look for silence every second."""
        last_look = 0.0
        while not stop.is_set():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), self.interval)
            now = time.monotonic()
            if now - last_look >= 1.0:
                last_look = now
                self.look_for_silence()
            self.flush()


def another_stream(created: datetime | None, taken: int, info: Any) -> bool:
    """Whether the log stream ``info`` describes (``js.stream_info``) is not the one the lines taken
    so far came from: created at another time than ``created`` (None: not known yet), or ending
    below ``taken``, the last stream sequence taken from it."""
    return (created is not None and info.created is not None and info.created != created) or info.state.last_seq < taken


class Feed:
    """The stream's log lines and alarms into the floor state (see the module's docstring)."""

    def __init__(self, url: str, floor: Floor, rounds: RoundBook, on_change: Callable[[str], None],
                 on_status: Callable[[str], None] = lambda s: None, credentials: Any = None) -> None:
        self.url, self.floor, self.rounds, self.credentials = url, floor, rounds, credentials
        self.on_change, self.on_status = on_change, on_status
        self.last_stream_seq = 0
        self._created: datetime | None = None  # when the stream read from was created
        self.lines = 0
        self.refused = 0  # lines that are not records of the log, or that name another table than their subject
        self._resubscribe = asyncio.Event()
        self._sub: Any = None
        self.connected = False

    # ------------------------------------------------------------------ the lines

    def take(self, subject: str, data: bytes, stream_seq: int = 0) -> None:
        """One message of a log subject (also what tests and the load bench call directly). A line
        that is not a record of the log as its typed schema reads it, or that names another table
        than its subject does, is refused: counted, and nothing of it shown."""
        if stream_seq:
            if stream_seq <= self.last_stream_seq:
                return
            self.last_stream_seq = stream_seq
        rec = read_line(data)
        if isinstance(rec, str) or rec.table != pn.table_of(subject):
            self.refused += 1
            return
        self.lines += 1
        taken = self.floor.apply(rec, time.time())
        for r in taken:  # a line held aside comes with the one that followed it
            self.rounds.feed(r.table, r)
        if taken:
            self.on_change(rec.table)

    def take_alarm(self, subject: str, data: bytes) -> None:
        """One message of an alarm subject (the collector's: a line refused, a gap, a fork)."""
        table = pn.table_of(subject) or "?"
        try:
            msg = orjson.loads(data)
        except orjson.JSONDecodeError:
            msg = {"detail": data[:200].decode("utf-8", "replace")}
        if not isinstance(msg, dict):
            msg = {"detail": str(msg)}
        kind = str(msg.get("kind") or msg.get("reason") or "collector")
        what = str(msg.get("detail") or msg.get("message") or kind)
        todo = str(msg.get("what_to_do") or "Surveillance: review the table's log (tablectl review) before trusting its copy.")
        ts = str(msg.get("ts") or time.strftime("%Y-%m-%dT%H:%M:%S.000000Z", time.gmtime()))
        self.floor.external_alarm(table, ts, kind, what, todo)
        self.on_change(table)

    def take_status(self, subject: str, data: bytes) -> None:
        """One message of a status subject (a table's publisher: lines behind, broker unreachable)."""
        table = pn.table_of(subject)
        try:
            status = orjson.loads(data)
        except orjson.JSONDecodeError:
            return
        if table is not None and isinstance(status, dict) and self.floor.publisher(table, status, time.time()):
            self.on_change(table)

    # ------------------------------------------------------------------ the subscription

    async def run(self, stop: asyncio.Event) -> None:
        """Subscribe, and subscribe again whenever the broker comes back, until ``stop``."""
        from nats.js import api

        from tablectl.live.connect import connect

        async def disconnected() -> None:
            self.connected = False
            self.on_status("broker unreachable: reconnecting")

        async def reconnected() -> None:
            self.connected = True
            self.on_status("broker back: catching up")
            self._resubscribe.set()

        async def on_log(msg: Any) -> None:
            seq = 0
            with contextlib.suppress(Exception):
                seq = msg.metadata.sequence.stream
            self.take(msg.subject, msg.data, seq)

        async def on_alarm(msg: Any) -> None:
            self.take_alarm(msg.subject, msg.data)

        async def on_status(msg: Any) -> None:
            self.take_status(msg.subject, msg.data)

        async def stream_info(js: Any) -> Any:
            return await js.stream_info(await js.find_stream_name_by_subject(pn.log_subject("any")))

        nc = None
        while nc is None and not stop.is_set():
            try:
                # nats-py retries a first connection for ever: give up now and then to say so (and to see a stop)
                nc = await asyncio.wait_for(connect(self.url, self.credentials, name="tablectl-pit",
                                                    disconnected_cb=disconnected, reconnected_cb=reconnected), 3.0)
            except Exception:  # noqa: BLE001 - no broker answers yet (refused, timeout, TLS): tried again
                self.on_status(f"broker unreachable at {self.url}: retrying")
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(stop.wait(), 1.0)
        if nc is None:
            return
        self.connected = True
        try:
            with contextlib.suppress(Exception):
                await nc.subscribe(pn.ALARM_SUBJECTS, cb=on_alarm)
                await nc.subscribe(pn.STATUS_SUBJECTS, cb=on_status)
            js = nc.jetstream(timeout=2.0)
            idle_checks = 0
            while not stop.is_set():
                if self._resubscribe.is_set():
                    self._resubscribe.clear()
                    await self._drop()
                if self._sub is None and nc.is_connected:
                    try:
                        info = await stream_info(js)
                        if another_stream(self._created, self.last_stream_seq, info):
                            self.last_stream_seq = 0  # a stream made anew: its first message is new
                        self._created = info.created
                        start = self.last_stream_seq + 1
                        config = api.ConsumerConfig(deliver_policy=api.DeliverPolicy.BY_START_SEQUENCE, opt_start_seq=start)
                        self._sub = await js.subscribe(pn.LOG_SUBJECTS, cb=on_log, ordered_consumer=True, config=config,
                                                       idle_heartbeat=2.0)
                        self.on_status("live from the stream")
                    except Exception as e:  # noqa: BLE001 - no stream yet, or the broker went away: tried again
                        self._sub = None
                        self.on_status(f"waiting for the stream ({type(e).__name__})")
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(stop.wait(), 1.0)
                # a consumer lost with a restarted broker, or left on a stream made anew, delivers
                # nothing: compare with the stream
                if self._sub is not None and nc.is_connected:
                    idle_checks += 1
                    if idle_checks >= 3:
                        idle_checks = 0
                        before = self.last_stream_seq
                        try:
                            info = await stream_info(js)
                            anew, behind = another_stream(self._created, before, info), info.state.last_seq > before
                        except Exception:  # noqa: BLE001 - a check only: the next one may answer
                            anew = behind = False
                        if anew:
                            self._resubscribe.set()
                        elif behind:
                            await asyncio.sleep(1.0)
                            if self.last_stream_seq == before:
                                self._resubscribe.set()
        finally:
            await self._drop()
            with contextlib.suppress(Exception):
                await nc.close()

    async def _drop(self) -> None:
        sub, self._sub = self._sub, None
        if sub is not None:
            with contextlib.suppress(Exception):
                await sub.unsubscribe()


__all__ = ["CLIENT_QUEUE", "Client", "Feed", "Hub", "another_stream"]
