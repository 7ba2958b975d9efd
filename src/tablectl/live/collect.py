"""Surveillance's collector: every table's log from the stream into verified copies.

One durable pull consumer over ``tablectl.*.log``, the copy folder's own unless named otherwise
(:func:`folder_durable`, kept in ``DIR/.collect/durable``: two folders never share one, which
would split the stream's lines between them). Each
batch of messages: every line is judged by its table's :class:`~tablectl.live.chain.TableChain`
(held in the journal, dropped as a repeat, or refused); the journal is fsynced; every run a
verified signature now covers is appended to ``DIR/<table>/`` and fsynced
(:class:`~tablectl.live.copy.TableCopy`); then the batch is acknowledged. So a collector killed at
any moment loses nothing and doubles nothing: what the stream redelivers is known (a repeat) and
what it held is in the journal. A refusal goes to ``tablectl.<table>.alarm`` (JSON: ``table``,
``kind``, ``seq``, ``file``, ``msg_id``, ``message``, ``ts``) and to the collector's own log,
``DIR/.collect/collector.jsonl`` (and stderr). A table the keyring does not know is refused until
its key is enrolled (its messages stay in the stream: negatively acknowledged, delivered again
later). While the broker does not answer it says so (a warning naming the URL and the error),
when that starts and every :data:`UNREACHABLE_EVERY` seconds, and once when it answers again.

API::

    Collector(url, to, *, keyring, credentials=None, durable=None, settings=StreamSettings(),
              batch=512, ack_wait=10.0, latency_sample=0, gap_after=None)
        await .run(stop: asyncio.Event, until_idle: float | None = None) -> CollectStats
        .outage.reached, .outage.down: whether the broker ever answered, and does not now
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import logging
import os
import re
import resource
import time
from array import array
from collections import Counter
from collections.abc import Coroutine
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

from tablectl.connection import Credentials
from tablectl.eventlog import keyring as keyring_mod
from tablectl.files import atomic_write, open_dir, open_for_append_nofollow, open_lock

from . import stream
from .chain import UNKNOWN_TABLE, Held, Refusal, TableChain, check_message
from .connect import connect, inbox_prefix
from .copy import CopyError, TableCopy
from .journal import Journal
from .publish import _describe
from .status import duration_text

log = logging.getLogger("tablectl.collect")

STATE_DIR = ".collect"
STATE_DIR_MODE = 0o755  # the collector's folder and its state folder, made if missing
COMPACT_AT = 64 << 20  # journal bytes that make it rewritten with only what is still held
UNKNOWN_RETRY = 10.0  # seconds before the keyring is read again for a table it did not know
DEFER = 5.0  # seconds before a refused-for-now message is delivered again
CONNECT_WAIT = 3.0  # seconds a connection is tried before it is given up and tried anew
UNREACHABLE_EVERY = 30.0  # seconds between the warnings that the broker does not answer
DURABLE_FILE = "durable"  # in the state folder: the folder's own durable consumer's name
_DURABLE_RE = re.compile(r"[A-Za-z0-9_-]{1,64}\Z")


class CollectorBusy(RuntimeError):
    """Another collector writes into the same folder."""


@dataclass
class CollectStats:
    """What a run did: messages received, lines written, repeats dropped, refusals by kind, lines
    held now, and (with ``latency_sample``) the latency samples in seconds, line ``ts`` to write."""

    received: int = 0
    written: int = 0
    repeats: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    held: int = 0
    latencies: array[float] = field(default_factory=lambda: array("d"))  # ts -> written into the copy
    arrivals: array[float] = field(default_factory=lambda: array("d"))  # ts -> received (held)

    def to_dict(self) -> dict[str, Any]:
        return {"received": self.received, "written": self.written, "repeats": self.repeats,
                "refused": dict(self.refused), "held": self.held}


@dataclass
class _Table:
    chain: TableChain
    copy: TableCopy


def folder_durable(to: Path) -> str:
    """``collector-<12 hex digits>``: a copy folder's own durable consumer, made from its resolved path."""
    return f"{stream.DURABLE}-{hashlib.blake2b(str(Path(to).resolve()).encode(), digest_size=6).hexdigest()}"


class Outage:
    """When to say that the broker does not answer (pure: times in, lines out): at the first
    failure, every ``every`` seconds while it lasts, and once when it answers again."""

    def __init__(self, url: str, every: float = UNREACHABLE_EVERY) -> None:
        self.url, self.every = url, every
        self.reached = False  # the broker answered at least once
        self.since: float | None = None  # when it stopped answering (None: it answers)
        self._said: float | None = None  # when that was last said

    @property
    def down(self) -> bool:
        """The broker does not answer now (or never did)."""
        return self.since is not None or not self.reached

    def failed(self, now: float, error: str) -> str | None:
        """The warning to log now that a try failed with ``error``, or None (said lately)."""
        if self.since is None:
            self.since = now
        if self._said is not None and now - self._said < self.every:
            return None
        self._said = now
        lasting = f" for {duration_text(now - self.since)}" if now > self.since else ""
        return f"broker unreachable at {self.url}{lasting}: {error}; trying again"

    def answered(self, now: float) -> str | None:
        """The line to log now that the broker answers, or None (nothing was said)."""
        self.reached = True
        since, said = self.since, self._said
        self.since = self._said = None
        if since is None or said is None:
            return None
        return f"broker at {self.url} answers again (after {duration_text(now - since)})"


class Collector:
    """Collects every table's log at ``url`` into ``to`` (see the module docstring)."""

    def __init__(self, url: str, to: Path, *, keyring: Path, credentials: Credentials | None = None,
                 durable: str | None = None, settings: stream.StreamSettings | None = None, batch: int = 512,
                 ack_wait: float = 10.0, latency_sample: int = 0, gap_after: float | None = None) -> None:
        self.url, self.to, self.keyring = url, Path(to), Path(keyring)
        self.credentials = credentials
        # None: the folder's own (read or made at open); the replies' inbox is the one the floor's
        # permissions give the collector's user unless the name is given
        self.durable: str = durable or ""
        self.inbox = inbox_prefix(durable or stream.DURABLE)
        self.settings = settings or stream.StreamSettings()
        self.batch, self.ack_wait = batch, ack_wait
        self.latency_sample = latency_sample  # every Nth line written gives a latency sample (0: none)
        # a missing seq is reported once it is this late (a restart's redeliveries come after ack_wait)
        self.gap_after = gap_after if gap_after is not None else max(30.0, 3 * ack_wait)
        self.stats = CollectStats()
        self.tables: dict[str, _Table] = {}
        self.unknown: dict[str, float] = {}  # table -> when the keyring last did not know it
        self.broken: dict[str, str] = {}  # table -> why its copy cannot be gone on from
        self.state_dir = self.to / STATE_DIR
        self._lock_fd: int | None = None
        self._journal: Journal | None = None
        self._log_file: Any = None
        self._nc: Any = None
        self._sample = 0
        self._alarms: list[tuple[str, bytes]] = []  # (table, JSON) to publish after the batch
        self.outage = Outage(url)
        self._error: BaseException | None = None  # the client's last connection error

    # ------------------------------------------------------------------ setup

    def open(self) -> None:
        """Lock the folder, open the collector's log and journal, take back what it held."""
        os.close(open_dir(self.state_dir, within=self.to, mode=STATE_DIR_MODE))  # never a link
        collected_before = (self.state_dir / "lock").exists()
        fd = open_lock(self.state_dir / "lock", 0o600, "collector's lock")  # never truncated
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise CollectorBusy(f"{self.to}: another collector is writing here") from None
        self._lock_fd = fd
        try:
            if not self.durable:
                self.durable = self._folder_durable(collected_before)
            log_fd = open_for_append_nofollow(self.state_dir / "collector.jsonl", 0o644, "collector's log")[0]
            self._log_file = os.fdopen(log_fd, "ab")
            self._journal = Journal(self.state_dir / "held.journal")
        except BaseException:
            self.close()  # the lock too: a refused file leaves nothing open
            raise
        for table, file, line, stream_seq in list(self._journal.records()):
            t = self._table(table)
            held = Held.of(file, line, stream_seq)
            if t is not None and held is not None:
                t.chain.add(held)
        for table in list(self.tables):
            self._settle(table)
        self._compact()

    def _folder_durable(self, collected_before: bool) -> str:
        """The name kept in the state folder; else, made now and kept: :func:`folder_durable`, or
        ``collector`` for a folder an earlier tablectl collected into (the consumer it used)."""
        path = self.state_dir / DURABLE_FILE
        try:
            name = path.read_text().strip()
        except FileNotFoundError:
            name = stream.DURABLE if collected_before else folder_durable(self.to)
            atomic_write(path, name.encode() + b"\n", 0o644, what="collector's consumer name")
        except (OSError, UnicodeDecodeError) as e:
            raise CopyError(f"{path}: cannot read the consumer's name: {e}") from None
        if not _DURABLE_RE.match(name):
            raise CopyError(f"{path}: {name[:70]!r} is not a consumer name (letters, digits, '_', '-')")
        return name

    def close(self) -> None:
        if self._journal is not None:
            self._journal.close()
            self._journal = None
        for t in self.tables.values():
            t.copy.close()
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def _table(self, table: str) -> _Table | None:
        """The table's chain and copy, made at its first line; None while it cannot be collected
        (the keyring does not know it, or its copy does not verify)."""
        t = self.tables.get(table)
        if t is not None or table in self.broken:
            return t
        seen = self.unknown.get(table)
        if seen is not None and time.monotonic() - seen < UNKNOWN_RETRY:
            return None
        try:
            trust = keyring_mod.trust(self.keyring, table)
        except keyring_mod.KeyringError as e:
            self._note("error", table, UNKNOWN_TABLE, str(e))
            trust = None
        if trust is None:
            if seen is None:
                self._report(Refusal(table, UNKNOWN_TABLE, f"the keyring {self.keyring} holds no key for table "
                                     f"{table!r}: its lines are refused until one is enrolled"))
            self.unknown[table] = time.monotonic()
            return None
        self.unknown.pop(table, None)
        copy = TableCopy(self.to, table)
        try:
            verifier, head = copy.open(trust)
        except (CopyError, OSError) as e:
            self.broken[table] = str(e)
            self._note("error", table, "copy", str(e))
            return None
        t = self.tables[table] = _Table(TableChain(table, verifier, head, copy.digest_at,
                                                   gap_after=self.gap_after), copy)
        return t

    # ------------------------------------------------------------------ run

    async def run(self, stop: asyncio.Event, until_idle: float | None = None) -> CollectStats:
        """Collect until ``stop`` is set, or (``until_idle``) no message came for that many seconds."""
        if self._journal is None:
            self.open()
        last_message = time.monotonic()
        sub: Any = None
        try:
            while not stop.is_set():
                if sub is None:
                    try:
                        sub = await _unless_stopped(stop, self._subscribe())
                    except Exception as e:  # noqa: BLE001 - broker unreachable or not ready: try again
                        self._unreachable(e)
                        if until_idle is not None and time.monotonic() - last_message >= until_idle:
                            break
                        await _wait(stop, 0.5)
                        continue
                    if sub is None:  # stopped while connecting
                        break
                    self._answered()
                try:
                    msgs = await sub.fetch(self.batch, timeout=0.5)
                except Exception as e:  # noqa: BLE001 - nothing came (timeout), or the connection is down
                    import nats.errors

                    if not isinstance(e, nats.errors.TimeoutError):
                        self._unreachable(e)
                        if self._nc is not None and self._nc.is_closed:  # the client gave it up: a new one
                            self._nc, sub = None, None
                        await _wait(stop, 0.2)
                    elif self._nc is not None and not self._nc.is_connected:  # reconnecting
                        self._unreachable(ConnectionError("the connection was lost"))
                    else:
                        self._answered()
                    if until_idle is not None and time.monotonic() - last_message >= until_idle:
                        break
                    for table, t in list(self.tables.items()):  # a gap is reported even when nothing comes
                        if t.chain.held:
                            self._settle(table)
                    await self._flush_alarms()
                    continue
                self._answered()
                if msgs:
                    last_message = time.monotonic()
                    await self.handle(msgs)
        finally:
            if self._nc is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self._nc.close(), 3.0)
                self._nc = None
            self.stats.held = sum(t.chain.held_lines for t in self.tables.values())
            self.close()
        return self.stats

    def _unreachable(self, e: BaseException) -> None:
        """Note a failed try (the client's own last error says more than a timeout)."""
        error = self._error or e
        text = (f"no answer in {CONNECT_WAIT:.0f} s" if isinstance(error, asyncio.TimeoutError) and not str(error)
                else _describe(error))
        line = self.outage.failed(time.monotonic(), text)
        if line is not None:
            self._broker_note(line)

    def _answered(self) -> None:
        self._error = None
        line = self.outage.answered(time.monotonic())
        if line is not None:
            self._broker_note(line)

    def _broker_note(self, message: str) -> None:
        self._write_log({"level": "warning", "kind": "broker", "message": message, "ts": _now()})
        log.warning("collect: %s", message)

    async def _on_error(self, e: Exception) -> None:
        self._error = e

    async def _subscribe(self) -> Any:
        if self._nc is None:
            # nats-py retries a first connection for ever: give up now and then
            self._nc = await asyncio.wait_for(connect(self.url, self.credentials, name="tablectl-collect",
                                                      inbox=self.inbox, error_cb=self._on_error), CONNECT_WAIT)
        js = self._nc.jetstream(timeout=5.0)
        await stream.ensure_stream(js, self.settings)
        with contextlib.suppress(Exception):
            await stream.ensure_alarm_stream(js, self.settings.replicas)
        return await js.pull_subscribe(stream.LOG_SUBJECTS, durable=self.durable, stream=self.settings.name,
                                       config=stream.consumer_config(self.durable, self.ack_wait))

    async def handle(self, msgs: list[Any]) -> None:
        """One batch: judge every line, journal what is held, write what is signed, then ack."""
        assert self._journal is not None
        acks, later, touched = [], [], set()
        for m in msgs:
            self.stats.received += 1
            mid = m.headers.get(stream.MSG_ID_HEADER) if m.headers else None
            msg = check_message(m.subject, mid, m.data, m.metadata.sequence.stream)
            if isinstance(msg, Refusal):
                self._report(msg)
                acks.append(m)
                continue
            t = self._table(msg.table)
            if t is None:
                later.append(m)
                continue
            redelivered = m.metadata.num_delivered > 1
            offer = t.chain.offer(msg, redelivered)
            for note in offer.notes:
                self._report(note)
            if offer.outcome == "held":
                self._journal.add(msg.table, msg.file, msg.line, msg.stream_seq)
                touched.add(msg.table)
                if self.latency_sample:
                    self._latency([(msg.file, msg.line)], self.stats.arrivals)
            elif offer.outcome == "refused":
                assert offer.refusal is not None
                self._report(offer.refusal)
            else:
                self.stats.repeats += 1
            acks.append(m)
        self._journal.sync()
        for table in touched:
            self._settle(table)
        for m in acks:
            await m.ack()
        for m in later:
            await m.nak(delay=DEFER)
        if self._journal.size > COMPACT_AT:
            self._compact()
        await self._flush_alarms()

    def _settle(self, table: str) -> None:
        t = self.tables[table]
        settled = t.chain.settle(time.monotonic())
        for refusal in settled.refusals:
            self._report(refusal)
        for warning in settled.warnings:
            self._note("warning", table, warning.kind, warning.message)
        if settled.lines:
            t.copy.append(settled.lines, t.chain.verifier.head, t.chain.top_stream)
            self.stats.written += len(settled.lines)
            if self.latency_sample:
                self._latency(settled.lines, self.stats.latencies)

    def _latency(self, lines: list[tuple[str, bytes]], into: array[float]) -> None:
        now = time.time()
        for _, line in lines:
            self._sample += 1
            if self._sample % self.latency_sample:
                continue
            at = line.find(b'"ts":"')
            if at >= 0:
                with contextlib.suppress(ValueError):
                    ts = datetime.fromisoformat(line[at + 6:at + 32].decode() + "+00:00").timestamp()
                    into.append(now - ts)

    def _compact(self) -> None:
        assert self._journal is not None
        self._journal.compact((table, h.file, h.line, h.stream_seq) for table, t in self.tables.items()
                              for h in t.chain.all_held())

    # ------------------------------------------------------------------ reporting

    def _report(self, refusal: Refusal) -> None:
        self.stats.refused[refusal.kind] += 1
        record = {**refusal.to_dict(), "ts": _now()}
        self._write_log({"level": "refused", **record})
        log.warning("%s: refused %s%s: %s", refusal.table, refusal.kind,
                    f" seq {refusal.seq}" if refusal.seq is not None else "", refusal.message)
        self._alarms.append((refusal.table, orjson.dumps(record)))

    def _note(self, level: str, table: str, kind: str, message: str) -> None:
        self._write_log({"level": level, "table": table, "kind": kind, "message": message, "ts": _now()})
        (log.error if level == "error" else log.info)("%s: %s: %s", table, kind, message)

    def _write_log(self, record: dict[str, Any]) -> None:
        if self._log_file is not None:
            self._log_file.write(orjson.dumps(record) + b"\n")
            self._log_file.flush()

    async def _flush_alarms(self) -> None:
        alarms, self._alarms = self._alarms, []
        if self._nc is None:
            return
        for table, data in alarms:
            try:
                subject = stream.alarm_subject(table)
            except ValueError:
                subject = f"{stream.PREFIX}._.alarm"
            with contextlib.suppress(Exception):
                await self._nc.publish(subject, data)

    def cpu_seconds(self) -> float:
        """This process's CPU time (user + system)."""
        r = resource.getrusage(resource.RUSAGE_SELF)
        return r.ru_utime + r.ru_stime


async def _unless_stopped(stop: asyncio.Event, work: Coroutine[Any, Any, Any]) -> Any:
    """``work``'s result, or None when ``stop`` is set first (``work`` is then cancelled)."""
    task = asyncio.ensure_future(work)
    stopped = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({task, stopped}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopped.cancel()
    if not task.done():
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
        return None
    return task.result()


async def _wait(stop: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


__all__ = ["CollectStats", "Collector", "CollectorBusy", "Outage", "folder_durable"]
