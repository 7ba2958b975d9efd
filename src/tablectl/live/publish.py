"""A table's publisher: the log is the outbox.

It follows the table's fsynced log files (:class:`~tablectl.live.cursor.LogFollower`) and
publishes every complete line, in order, to ``tablectl.<table>.log`` with the message id
``<table>:<log>:<seq>:<digest>`` (the line's own, so the same place in another log of the table
is another message); the cursor moves only on the stream's acknowledgement, and is kept beside
the log. Dealing never waits for it: it only reads the files the controller writes, on its own
thread with its own event loop. A broker that is down, slow or unreachable for hours costs
nothing but a backlog, which drains when it is back; a line sent twice (an acknowledgement lost)
is dropped by the stream within its duplicate window and known to the collector after it.

It does not make the stream (the broker or the collector does: ``tablectl broker``,
``tablectl collect``); until there is one, lines wait in the log.

Its state (:mod:`tablectl.live.status`: the log's last seq, read every second whether the broker
answers or not, and the last one acknowledged) goes to ``tablectl.<table>.status`` every
``status_every`` seconds while the broker answers, and once more as it stops.

API::

    Publisher(url, log_dir, table, credentials=None, *, batch=256, ack_timeout=5.0, poll=0.05,
              status_every=5.0)
        .start() -> Publisher          # its own thread
        .stop(drain=0.0) -> None       # waits up to drain seconds for the backlog while the broker answers
        .status() -> PublisherStatus   # tablectl.live.status: status_text(p.status(), time.time())
        await .run(stop: asyncio.Event)  # the loop itself, in a caller's event loop
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import orjson

from tablectl.connection import Credentials
from tablectl.eventlog import logformat as fmt

from . import stream
from .connect import connect, inbox_prefix
from .cursor import Line, LogFollower, cursor_path, load_cursor, save_cursor
from .status import PublisherStatus, status_text

log = logging.getLogger("tablectl.publish")

CONNECT_WAIT = 3.0  # seconds a connection is tried before it is tried anew (nats-py would for ever)
ANSWER_GRACE = 1.0  # seconds stop() waits for a broker that never answered this run to answer


class Publisher:
    """Publishes ``table``'s log in ``log_dir`` to the broker at ``url`` (see the module docstring)."""

    def __init__(self, url: str, log_dir: Path, table: str, credentials: Credentials | None = None, *,
                 batch: int = 256, ack_timeout: float = 5.0, poll: float = 0.05, status_every: float = 5.0) -> None:
        stream.subject_token(table)  # a table name a subject can carry
        self.url, self.log_dir, self.table = url, Path(log_dir), table
        self.credentials = credentials
        self.batch, self.ack_timeout, self.poll, self.status_every = batch, ack_timeout, poll, status_every
        self.subject = stream.log_subject(table)
        self.cursor_file = cursor_path(self.log_dir, table)
        self._status = PublisherStatus(table, unreachable_since=time.time())
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._failure: BaseException | None = None
        self._dropped: asyncio.Event | None = None  # set when the link drops: its acknowledgements are lost
        self._answered = False  # the broker answered once in this run

    # ------------------------------------------------------------------ state

    def status(self) -> PublisherStatus:
        with self._lock:
            return self._status

    def _set(self, **changes: Any) -> None:
        with self._lock:
            self._status = replace(self._status, **changes)

    def _reachable(self) -> None:
        if not self._status.connected or self._status.error is not None:
            self._set(connected=True, unreachable_since=None, error=None)
        self._answered = True

    def _unreachable(self, error: str) -> None:
        s = self._status
        self._set(connected=False, error=error, unreachable_since=s.unreachable_since or time.time())

    async def _on_error(self, e: Exception) -> None:
        """nats-py's report of a failed try: while the broker is not answering, it says why at once."""
        if not self._status.connected:
            self._unreachable(_describe(e))

    async def _on_disconnected(self) -> None:
        """nats-py lost the link: what was sent on it and not yet acknowledged never will be."""
        self._unreachable("disconnected")
        if self._dropped is not None:
            self._dropped.set()

    # ------------------------------------------------------------------ thread

    def start(self) -> Publisher:
        """Run :meth:`run` on a thread of its own (a daemon: it never keeps a process alive)."""
        ready = threading.Event()

        def main() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            self._stop = asyncio.Event()
            ready.set()
            try:
                loop.run_until_complete(self.run(self._stop))
            except BaseException as e:  # noqa: BLE001 - kept for stop() to report
                self._failure = e
            finally:
                loop.close()

        self._thread = threading.Thread(target=main, name=f"tablectl-publish-{self.table}", daemon=True)
        self._thread.start()
        ready.wait(5)
        return self

    def stop(self, drain: float = 0.0, timeout: float = 5.0) -> None:
        """Stop, first waiting up to ``drain`` seconds until every line written is acknowledged,
        while the broker can take them: a broker that has not answered for ``drain`` seconds is not
        waited for, nor one that never answered in this run once ``ANSWER_GRACE`` seconds have
        passed; one that dropped the link a moment ago (a restart, a cluster's new leader) is.
        What is left is sent by the next run: the cursor is kept beside the log. A connection
        being tried, or an acknowledgement waited for, is given up."""
        began = time.monotonic()
        last = self._follower_last_seq()
        while time.monotonic() < began + drain and self._thread is not None and self._thread.is_alive():
            s = self.status()
            if s.published_seq >= last:
                break
            if not s.connected or s.error is not None:
                silent = time.time() - (s.unreachable_since or time.time())
                if silent >= drain or (not self._answered and time.monotonic() >= began + ANSWER_GRACE):
                    break  # nothing will be sent: the broker is down, or keeps no stream for the log
            time.sleep(0.02)
        if self._loop is not None and self._stop is not None:
            with contextlib.suppress(RuntimeError):  # the loop already ended
                self._loop.call_soon_threadsafe(self._stop.set)
        if self._thread is not None:
            self._thread.join(timeout)

    def _follower_last_seq(self) -> int:
        return LogFollower(self.log_dir, self.table).last_seq()

    # ------------------------------------------------------------------ loop

    async def run(self, stop: asyncio.Event) -> None:
        """Publish until ``stop`` is set; never raises for the broker's sake (it retries). Its
        state is sent every ``status_every`` seconds while the broker answers, and once more as
        it stops."""
        try:
            cursor = load_cursor(self.cursor_file)
        except ValueError as e:
            log.warning("%s: %s; publishing the log from its start (the stream drops what it has)", self.cursor_file, e)
            from .cursor import Cursor
            cursor = Cursor()
        follower = LogFollower(self.log_dir, self.table, cursor)
        self._set(published_seq=cursor.seq, log_seq=follower.last_seq())
        nc: Any = None
        js: Any = None
        connecting: asyncio.Future[Any] | None = None
        last_status = last_seen = 0.0
        backoff = 0.25
        warned: float | None = None  # when the last warning about its state was logged
        failed = ""  # the last unexpected error reported
        try:
            while not stop.is_set():
                try:
                    now = time.monotonic()
                    if now - last_seen >= min(1.0, self.status_every):  # the log grows whether the broker answers or not
                        last_seen = now
                        self._look(follower)
                        warned = self._report(warned, now)
                    if nc is None:
                        if connecting is None:  # tried beside the loop, which goes on looking at the log
                            connecting = asyncio.ensure_future(asyncio.wait_for(connect(
                                self.url, self.credentials, inbox=inbox_prefix(self.table),
                                name=f"tablectl-publish-{self.table}", error_cb=self._on_error,
                                disconnected_cb=self._on_disconnected), CONNECT_WAIT))
                        await _wait_for_either(stop, connecting, 1.0)
                        if not connecting.done():
                            continue
                        tried, connecting = connecting, None
                        try:
                            nc = tried.result()
                        except Exception as e:  # noqa: BLE001 - no server answered: try again
                            why = _describe(e)
                            if isinstance(e, TimeoutError):  # nats-py's own tries said why, when they failed
                                why = self._status.error or f"no answer in {CONNECT_WAIT:g} s"
                            self._unreachable(why)
                            warned = self._report(warned, time.monotonic())
                            await _wait(stop, backoff)
                            backoff = min(backoff * 2, 5.0)
                            continue
                        js = nc.jetstream(timeout=self.ack_timeout)
                        backoff = 0.25
                        self._reachable()
                    if nc.is_closed:  # the client gave the connection up: a new one
                        nc = None
                        continue
                    if not nc.is_connected:
                        self._unreachable("disconnected")
                        await _wait(stop, self.poll * 4)
                        continue
                    if now - last_status >= self.status_every:
                        last_status = now
                        await self._send_status(nc)
                    lines = follower.pending(self.batch)
                    if not lines:
                        self._reachable()
                        await _wait(stop, self.poll)
                        continue
                    sent = await self._publish(js, follower, lines, stop)
                    if sent:
                        save_cursor(self.cursor_file, follower.cursor)
                        self._set(published_seq=follower.cursor.seq,
                                  log_seq=max(self._status.log_seq, follower.cursor.seq))
                    if sent < len(lines):
                        await _wait(stop, 0.25)
                except Exception as e:  # noqa: BLE001 - a file it could not read, say: never give up the log
                    if str(e) != failed:
                        failed = str(e)
                        log.warning("publishing %s: %s; trying again", self.table, _describe(e))
                    await _wait(stop, 1.0)
        finally:
            if connecting is not None:  # stopped while connecting: given up
                connecting.cancel()
                with contextlib.suppress(BaseException):
                    await connecting
            if nc is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self._last_word(nc, follower), 1.0)
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(nc.close(), 2.0)

    def _look(self, follower: LogFollower) -> None:
        """The log's last seq, as the table has written it by now."""
        self._set(log_seq=max(follower.last_seq(), follower.cursor.seq))

    async def _last_word(self, nc: Any, follower: LogFollower) -> None:
        """The state it stops in, sent while the broker answers (the pit keeps a table's last one)."""
        self._look(follower)
        if nc.is_connected:
            await self._send_status(nc)
            await nc.flush(1.0)

    def _report(self, warned: float | None, now: float) -> float | None:
        """Log the state as a warning (the dealer's display shows it) while the broker does not
        answer, every ``status_every`` seconds; once more when it is back and caught up."""
        s = self.status()
        if not s.connected and (s.unreachable_since is None or time.time() - s.unreachable_since >= 2.0):
            if warned is None or now - warned >= max(self.status_every, 5.0):
                log.warning("%s", status_text(s, time.time()))
                return now
            return warned
        if warned is not None and s.ok:
            log.warning("publishing: caught up")
            return None
        return warned

    async def _publish(self, js: Any, follower: LogFollower, lines: list[Line], stop: asyncio.Event) -> int:
        """Publish ``lines`` pipelined; move the cursor over each one acknowledged, in order, up to
        the first that is not (or until ``stop``). Returns how many were."""
        futures = []
        done = 0
        self._dropped = dropped = asyncio.Event()
        stopping = asyncio.ensure_future(stop.wait())
        lost = asyncio.ensure_future(dropped.wait())
        try:
            for line in lines:
                headers = {stream.MSG_ID_HEADER: stream.msg_id(self.table, line.file, line.seq, fmt.digest(line.data))}
                futures.append(await js.publish_async(self.subject, line.data, headers=headers))
            for line, future in zip(lines, futures):
                if not future.done():
                    await asyncio.wait({future, stopping, lost}, timeout=self.ack_timeout, return_when=asyncio.FIRST_COMPLETED)
                if not future.done():
                    if stop.is_set():
                        break
                    raise ConnectionError("disconnected") if dropped.is_set() else TimeoutError
                future.result()
                follower.advance(line)
                done += 1
            else:
                self._reachable()
        except Exception as e:  # noqa: BLE001 - not acknowledged: sent again from the cursor
            from nats.js.errors import NoStreamResponseError

            if isinstance(e, NoStreamResponseError):  # the broker answers, but keeps no stream for the logs
                self._set(connected=True, unreachable_since=None, error="no stream keeps tablectl.*.log on the broker")
            else:
                self._unreachable(_describe(e))
        finally:
            stopping.cancel()
            lost.cancel()
        for future in futures[done:]:
            future.cancel()
        return done

    async def _send_status(self, nc: Any) -> None:
        with contextlib.suppress(Exception):
            await nc.publish(stream.status_subject(self.table), orjson.dumps(self.status().to_dict(time.time())))


async def _wait_for_either(stop: asyncio.Event, work: asyncio.Future[Any], seconds: float) -> None:
    """Wait until ``work`` is done, ``stop`` is set, or ``seconds`` pass (``work`` goes on)."""
    stopping = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({work, stopping}, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopping.cancel()


async def _wait(stop: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)


def _describe(e: BaseException) -> str:
    text = str(e).strip()
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


__all__ = ["Publisher"]
