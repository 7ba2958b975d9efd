"""The durable, hash-chained, signed card event log writer.

One :class:`EventLog` per table, owned by the table controller's thread. Each ``append`` runs a
structlog processor chain (envelope: ``seq``/``ts``/``table``; chain: ``prev``; orjson
rendering; checkpoint signing) that ends in an in-memory group-commit buffer; ``commit`` writes
the buffer with one ``write`` and one ``os.fsync``. structlog flushes but never fsyncs; durability
is this module's job. The format is described in ``docs/events.md``.

Typical use by the controller::

    log = EventLog(directory, "T1", signing_key=load_private_key(path))
    replay_from = log.last_event_no("shoe-1")      # ask the device to replay after this
    log.append("card_dealt", shoe=3, round=41, card="QH", to="seat:2", device="shoe-1", event_no=812)
    log.commit()                                   # fsynced: now ACK the device
    log.end_shoe(shoe=3)                           # signed checkpoint (+ new file if rotate="shoe")
    log.close()                                    # signed "shutdown" checkpoint
"""

from __future__ import annotations

import fcntl
import hashlib
import logging
import math
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import orjson
import structlog
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tablectl import __version__
from tablectl.files import create_new, link_refused, open_existing, open_lock, private_mkdir

from . import logformat as fmt
from .errors import LogClosedError, LogCorruptError, LogFailedError, LogLockedError
from .keys import key_id as _key_id
from .keys import public_bytes
from .trust import KEY_ROTATION

RotatePolicy = Literal["shoe", "day", "never"]
Listener = Callable[[dict[str, Any]], None]

_log = logging.getLogger(__name__)
# the chain's hash, unkeyed and empty: a copy of it takes a line sooner than a new hasher does
# (the constructor parses all its parameters each time)
_CHAIN_HASH = hashlib.blake2b(digest_size=32)
_dumps = orjson.dumps
_OPEN, _FAILED, _CLOSED = "open", "failed", "closed"
_NO_NAMES: frozenset[str] = frozenset()
_REVERSE_BLOCK = 1 << 16
# the log holds face-down cards as they are dealt: readable by the table's group, nobody else
# (the umask can only take bits away from these)
FILE_MODE = 0o640
DIR_MODE = 0o750
_RESERVED = fmt.RESERVED_FIELDS
# a stamp's microseconds, 6 digits and the Z, from two lookups (``"%06dZ" % us`` is slower)
_MILLIS = tuple(f"{n:03d}" for n in range(1000))
_MICROS_Z = tuple(f"{n:03d}Z" for n in range(1000))
_ENVELOPE_SIZE = 5  # seq, event, ts, table, prev: every reserved field but a checkpoint's sig


@dataclass
class _Tail:
    """What reopening learns from the end of an existing log."""

    last_seq: int = 0
    last_hash: str = fmt.GENESIS
    last_event: str | None = None
    last_reason: str | None = None
    last_file: Path | None = None
    checkpoint_seq: int = 0
    checkpoint_key: str | None = None  # the key id of the last checkpoint
    event_nos: dict[str, int] = field(default_factory=dict)


class _Sink:
    """The wrapped "logger" at the end of the structlog chain.

    Like ``structlog.BytesLogger`` it receives each rendered line as bytes, but instead of
    writing it hands the line to the log's group-commit buffer (``EventLog._emit``).
    """

    __slots__ = ("msg",)

    def __init__(self, emit: Callable[[bytes], None]) -> None:
        self.msg = emit


class _LineLogger(structlog.BoundLoggerBase):
    """A minimal bound-logger class: one method, no level filtering (every line is an event).

    ``structlog.make_filtering_bound_logger`` adds two Python frames per call; this is the
    hot path, so the log runs ``_process_event`` itself (the structlog-documented way to write
    a custom wrapper class).
    """

    def line(self, event: str, fields: dict[str, Any]) -> None:
        args, _ = self._process_event("line", event, fields)
        self._logger.msg(*args)


class EventLog:
    """An append-only, fsynced, hash-chained and periodically signed JSON-lines event log.

    Opening a directory that already holds this table's log resumes its chain in a new file: after
    a clean shutdown the first line is ``log_opened``; otherwise it is ``recovery`` (last seq and
    hash found, unsigned line count, any torn partial line moved aside), followed at once by a
    signed ``checkpoint`` with reason ``recovery``.

    Not thread-safe by design: one owner thread (the table controller) calls every method.
    """

    def __init__(
        self,
        directory: Path,
        table: str,
        *,
        signing_key: Ed25519PrivateKey | None,
        previous_key: Ed25519PrivateKey | None = None,
        checkpoint_every: int = 1000,
        rotate: RotatePolicy = "shoe",
        fsync: bool = True,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """Open (create or resume) the log of *table* in *directory*.

        ``signing_key`` None writes unsigned checkpoints (development only: such a log never
        verifies as signed). ``previous_key``: the key this one replaces; if the log's last
        checkpoint was signed by it, the first thing written is a ``key_rotation`` checkpoint
        signed by it that names ``signing_key`` as its successor (``tablectl.eventlog.trust``);
        ignored once the log is signed by ``signing_key``. ``checkpoint_every`` N writes a signed checkpoint after every N lines
        (0: only at shoe ends, rotations and shutdown). ``rotate``: "shoe" starts a new file at
        every :meth:`end_shoe`, "day" at the first line of each UTC day, "never" only at each
        start. ``fsync`` False skips ``os.fsync`` (benchmarks, throwaway logs). ``clock`` returns
        UTC epoch seconds (``time.time``).
        """
        if not fmt.TABLE_NAME_RE.match(table):
            raise ValueError(f"table name {table!r}: use letters, digits, '.', '_', '-' (max 64)")
        if rotate not in ("shoe", "day", "never"):
            raise ValueError(f"rotate must be 'shoe', 'day' or 'never', not {rotate!r}")
        if checkpoint_every < 0:
            raise ValueError("checkpoint_every must be >= 0")
        self._dir = Path(directory)
        self._table = table
        self._key = signing_key
        self._key_id = _key_id(signing_key) if signing_key is not None else None
        self._previous_key = previous_key
        self._checkpoint_every = checkpoint_every or math.inf
        self._rotate = rotate
        self._fsync = fsync
        self._clock = clock

        self._seq = 0
        self._head = fmt.GENESIS
        self._durable_seq = 0
        self._checkpoint_seq = 0
        self._next_checkpoint: float = self._checkpoint_every  # the seq at which a periodic checkpoint is due
        self._buffer: list[bytes] = []
        self._pending: list[dict[str, Any]] = []
        self._listeners: list[Listener] = []
        self._event_nos: dict[str, int] = {}
        self._durable_event_nos: dict[str, int] = {}
        self._event_nos_dirty = False
        self._event_names: set[str] = set()
        self._writable: set[str] | frozenset[str] = _NO_NAMES  # the admitted names while open
        self._now = 0.0
        # the second of the last line appended and its stamp's date and time (every time in it is
        # before ``_day_end``: ``_enter_second``)
        self._ts_second: float = math.inf
        self._ts_end: float = -math.inf
        self._ts_prefix = ""
        self._day_end: float = math.inf
        self._line_dict: dict[str, Any] = {}
        self._state = _CLOSED
        self._fd = -1
        self._file_number = 0
        self._path = self._dir
        self._recovery: dict[str, Any] | None = None
        self._failure: OSError | None = None

        # The bound context fixes the envelope's member order: seq, event, ts, table, then the
        # fields in the order given (dicts keep insertion order; re-set keys keep their place).
        sink = _Sink(self._emit)
        render = structlog.processors.JSONRenderer(serializer=_dumps, default=None)
        envelope = {"seq": 0, "event": "", "ts": "", "table": table}
        self._bound: _LineLogger = structlog.wrap_logger(
            sink, processors=[self._stamp, render], wrapper_class=_LineLogger
        ).bind(**envelope)
        self._bound_signed: _LineLogger = structlog.wrap_logger(
            sink, processors=[self._stamp, render, self._sign_checkpoint], wrapper_class=_LineLogger
        ).bind(**envelope)

        private_mkdir(self._dir, DIR_MODE)  # every folder made: DIR_MODE whatever the umask
        self._lock_fd = self._lock()
        try:
            self._open_log()
        except BaseException:
            if self._fd >= 0:
                os.close(self._fd)
                self._fd = -1
            self._release()
            raise

    # ------------------------------------------------------------------ public API

    def append(self, event: str, /, **fields: Any) -> int:
        """Log one event; returns its ``seq``. Buffered: durable only after :meth:`commit`.

        *fields* are written after the envelope in the order given; values must be JSON types
        (orjson also takes enums, dataclasses, datetimes). ``device`` + ``event_no`` feed
        :meth:`last_event_no`.
        """
        return self.append_dict(event, fields)

    def append_dict(self, event: str, fields: dict[str, Any], /) -> int:
        """:meth:`append` with the fields in one dict (read, not kept): a caller that has its
        fields in a dict spares the keyword unpacking, twice per line (every card's path)."""
        if event not in self._writable:  # not yet admitted, or the log is not open
            self._admit_event_name(event)
        number = fields.get("event_no")
        if number is not None:
            device = fields.get("device")
            if type(number) is not int or type(device) is not str:
                self._refuse_event_no(fields)
        now = self._clock()
        second = self._ts_second
        if not second <= now < self._ts_end:
            second = self._enter_second(now)
        # == self._bound.line(event, fields): the same envelope and member order, the same stamp
        # (``_stamp``), orjson render and sink (``_emit``), inline: this is every card's path
        seq = self._seq + 1
        us = int((now - second) * 1_000_000)
        ts = self._ts_prefix + _MILLIS[us // 1000] + _MICROS_Z[us % 1000]  # 0 <= us < 10**6: _enter_second
        line_dict = {"seq": seq, "event": event, "ts": ts, "table": self._table, **fields, "prev": self._head}
        if len(line_dict) != len(fields) + _ENVELOPE_SIZE or "sig" in fields:  # a field named like the envelope
            raise ValueError(f"fields {sorted(_RESERVED.intersection(fields))} are written by the log itself")
        line = _dumps(line_dict)
        self._seq = seq
        chain = _CHAIN_HASH.copy()
        chain.update(line)
        self._head = chain.hexdigest()
        self._buffer.append(line)
        self._pending.append(line_dict)
        if number is not None and number > self._event_nos.get(device, -1):
            self._event_nos[device] = number
            self._event_nos_dirty = True
        if seq >= self._next_checkpoint:
            self.checkpoint("periodic")
        return seq

    def commit(self) -> int:
        """Write everything appended since the last commit, then one ``os.fsync`` (group commit).

        Returns the highest durable seq. Listeners run afterwards, once per committed line.
        """
        if self._state is not _OPEN:
            self._raise_not_open()
        if not self._buffer:
            return self._durable_seq
        self._buffer.append(b"")
        data = b"\n".join(self._buffer)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(self._fd, view) :]
            if self._fsync:
                os.fsync(self._fd)
        except OSError as exc:
            self._set_state(_FAILED)
            self._failure = exc
            raise LogFailedError(f"{self._path}: write failed: {exc}") from exc
        self._buffer = []
        self._durable_seq = self._seq
        if self._event_nos_dirty:
            self._durable_event_nos = dict(self._event_nos)
            self._event_nos_dirty = False
        records, self._pending = self._pending, []
        for listener in self._listeners:
            for record in records:
                try:
                    listener(record)
                except Exception:  # a display must not take the log down
                    _log.exception("event log listener %r failed", listener)
        return self._durable_seq

    def checkpoint(self, reason: str = "periodic", **fields: Any) -> int:
        """Append a signed ``checkpoint`` line over the chain head; returns its seq (not committed)."""
        if self._state is not _OPEN:
            self._raise_not_open()
        if not fmt.RESERVED_FIELDS.isdisjoint(fields) or {"reason", "key", "event_nos"} & set(fields):
            raise ValueError("checkpoint fields may not replace the envelope, reason, key or event_nos")
        self._write_log_event(
            fmt.CHECKPOINT, sign=True, reason=reason, key=self._key_id, **fields, event_nos=dict(self._event_nos)
        )
        self._checkpoint_seq = self._seq
        self._next_checkpoint = self._seq + self._checkpoint_every
        return self._seq

    def rotate(self, reason: str = "rotate", **fields: Any) -> Path:
        """Checkpoint and commit this file, then continue the chain in a new file; returns its path.

        The new file's first line is ``rotated`` (its ``prev`` is the hash of the old file's last
        line, the checkpoint). Extra *fields* go on the checkpoint.
        """
        self.checkpoint(reason, **fields)
        self.commit()
        previous = self._path
        try:
            os.close(self._fd)
            self._fd = -1
            self._open_file(self._file_number + 1, reuse=False)
        except OSError as exc:
            self._set_state(_FAILED)
            self._failure = exc
            raise LogFailedError(f"{self._dir}: cannot start a new log file: {exc}") from exc
        self._write_log_event(fmt.ROTATED, reason=reason, previous=previous.name, event_nos=dict(self._event_nos))
        self.commit()
        return self._path

    def end_shoe(self, shoe: int | str | None = None) -> int:
        """The shoe is finished: signed checkpoint (reason ``shoe_end``). With ``rotate="shoe"``
        the file is committed and the log continues in a new file (``rotate``); otherwise the
        checkpoint joins the group commit in progress: it is durable with the caller's next
        :meth:`commit`, like every other line (a table ends a shoe in the middle of an inbox
        batch and commits once at the batch's end). Returns the seq of the last line written."""
        fields = {} if shoe is None else {"shoe": shoe}
        if self._rotate == "shoe":
            self.rotate("shoe_end", **fields)
            return self._seq
        return self.checkpoint("shoe_end", **fields)

    def close(self, clean: bool = True) -> None:
        """Close the log. *clean*: a signed checkpoint with reason ``shutdown``, then commit.

        ``clean=False`` commits what is buffered but leaves no shutdown checkpoint, so the next
        open records a recovery. After a write failure, closes without writing. Idempotent.
        """
        if self._state is _CLOSED:
            return
        try:
            if self._state is _OPEN:
                if clean:
                    self.checkpoint(fmt.SHUTDOWN)
                self.commit()
        finally:
            if self._fd >= 0:
                try:
                    os.close(self._fd)
                except OSError:
                    pass
                self._fd = -1
            self._set_state(_CLOSED)
            self._release()

    def add_listener(self, listener: Listener) -> None:
        """Call *listener(record)* with each line's dict once it is durable (after its commit)."""
        self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        """Stop calling *listener*."""
        self._listeners.remove(listener)

    def last_event_no(self, device: str) -> int:
        """The highest ``event_no`` of *device* durably in the log (0 if none): replay after it."""
        return self._durable_event_nos.get(device, 0)

    @property
    def durable_seq(self) -> int:
        """The highest seq written and fsynced."""
        return self._durable_seq

    @property
    def seq(self) -> int:
        """The highest seq appended (durable or not)."""
        return self._seq

    @property
    def event_nos(self) -> dict[str, int]:
        """Every device's highest durable ``event_no`` (a copy)."""
        return dict(self._durable_event_nos)

    @property
    def path(self) -> Path:
        """The file being written."""
        return self._path

    @property
    def table(self) -> str:
        return self._table

    @property
    def key_id(self) -> str | None:
        """The signing key's id, or None for an unsigned log."""
        return self._key_id

    @property
    def recovery(self) -> dict[str, Any] | None:
        """The ``recovery`` record written at open after an unclean shutdown, else None."""
        return self._recovery

    @property
    def closed(self) -> bool:
        return self._state is _CLOSED

    def __enter__(self) -> EventLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ structlog processors

    def _stamp(self, logger: Any, method_name: str, event_dict: dict[str, Any]) -> dict[str, Any]:
        """The envelope and the chain link: ``seq``, ``ts`` (``table`` and the member order come
        from the bound context), and ``prev`` = digest of the previous line, always last."""
        t = self._now
        second = int(t)
        prefix = self._ts_prefix if second == self._ts_second else _second_prefix(second)
        event_dict["seq"] = self._seq + 1
        us = int((t - second) * 1_000_000)
        event_dict["ts"] = prefix + _MILLIS[us // 1000] + _MICROS_Z[us % 1000]
        event_dict["prev"] = self._head
        self._line_dict = event_dict
        return event_dict

    def _sign_checkpoint(self, logger: Any, method_name: str, rendered: bytes) -> bytes:
        """After rendering (checkpoints only): ``sig`` over the line's own bytes, spliced in
        directly before ``prev``."""
        if self._key is None:
            return rendered
        sig = self._key.sign(rendered).hex()
        self._line_dict["sig"] = sig
        return fmt.insert_signature(rendered, sig)

    def _emit(self, line: bytes) -> None:
        """The sink: the rendered line joins the group-commit buffer and becomes the chain head."""
        self._seq += 1
        chain = _CHAIN_HASH.copy()
        chain.update(line)
        self._head = chain.hexdigest()
        self._buffer.append(line)
        self._pending.append(self._line_dict)

    # ------------------------------------------------------------------ internals

    def _write_log_event(self, event: str, *, sign: bool = False, **fields: Any) -> None:
        self._now = self._clock()
        (self._bound_signed if sign else self._bound).line(event, fields)

    def _enter_second(self, now: float) -> int:
        """A line at ``now``, in another second than the last line appended: a new file first if
        its day has ended (``rotate="day"``); that second's date and time formatted once for the
        lines in it. Returns the second."""
        if now >= self._day_end:
            self.rotate("day")
        second = int(now)
        self._ts_second, self._ts_end = second, second + 1
        self._ts_prefix = _second_prefix(second)
        return second

    def _set_state(self, state: str) -> None:
        self._state = state
        self._writable = self._event_names if state is _OPEN else _NO_NAMES

    @staticmethod
    def _refuse_event_no(fields: dict[str, Any]) -> None:
        if type(fields["event_no"]) is not int or not isinstance(fields.get("device"), str):
            raise TypeError("event_no must be an int and come with a device name (str)")

    def _admit_event_name(self, event: str) -> None:
        if self._state is not _OPEN:
            self._raise_not_open()
        if not isinstance(event, str) or not fmt.EVENT_NAME_RE.match(event):
            raise ValueError(f"event name {event!r}: lower-case letters, digits and '_' (max 64)")
        if event in fmt.LOG_EVENTS:
            raise ValueError(f"{event!r} is written by the log itself")
        self._event_names.add(event)

    def _raise_not_open(self) -> None:
        if self._state is _FAILED:
            raise LogFailedError(f"{self._path}: the log failed earlier ({self._failure}) and accepts no more writes")
        raise LogClosedError(f"{self._dir}: the log of table {self._table} is closed")

    def _lock(self) -> int:
        path = self._dir / f".tablectl-{self._table}.lock"
        fd = open_lock(path, FILE_MODE, "log's lock file")  # never through a planted link, never truncated
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise LogLockedError(f"{self._dir}: the log of table {self._table} is open elsewhere") from None
        return fd

    def _release(self) -> None:
        if self._lock_fd >= 0:
            os.close(self._lock_fd)  # closing drops the flock
            self._lock_fd = -1

    def _fsync_dir(self) -> None:
        if not self._fsync:
            return
        fd = os.open(self._dir, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def _open_file(self, number: int, *, reuse: bool) -> None:
        path = self._dir / fmt.file_name(self._table, number)
        flags = os.O_WRONLY | os.O_APPEND  # never through a planted link
        self._fd = open_existing(path, flags, "log") if reuse else create_new(path, FILE_MODE, "log", flags)
        self._path = path
        self._file_number = number
        self._fsync_dir()
        if self._rotate == "day":
            self._day_end = (math.floor(self._clock()) // 86400 + 1) * 86400
            self._ts_second, self._ts_end = math.inf, -math.inf  # the next line looks at the day again

    def _open_log(self) -> None:
        files = fmt.log_files(self._dir, self._table).get(self._table, [])
        for path in files:
            if path.is_symlink():  # written, cut or read back through: never
                raise link_refused(path, "log")
        torn = None
        nonempty = [p for p in files if p.stat().st_size > 0]
        if nonempty:
            torn = self._set_aside_torn_tail(nonempty[-1])
        tail = self._scan_tail(files)
        if files and files[-1].stat().st_size == 0:
            self._open_file(parse_number(files[-1]), reuse=True)
        else:
            self._open_file(parse_number(files[-1]) + 1 if files else 1, reuse=False)
        self._set_state(_OPEN)
        self._seq = tail.last_seq
        self._head = tail.last_hash
        self._durable_seq = tail.last_seq
        self._checkpoint_seq = tail.checkpoint_seq
        self._next_checkpoint = tail.checkpoint_seq + self._checkpoint_every
        self._event_nos = dict(tail.event_nos)
        self._durable_event_nos = dict(tail.event_nos)
        opening: dict[str, Any] = {
            "format": fmt.FORMAT_VERSION,
            "hash": fmt.HASH_NAME,
            "key": self._key_id,
            "software": f"tablectl {__version__}",
            "rotate": self._rotate,
            "previous": tail.last_file.name if tail.last_file is not None else None,
        }
        clean = tail.last_event == fmt.CHECKPOINT and tail.last_reason == fmt.SHUTDOWN
        if (tail.last_seq == 0 and torn is None) or (tail.last_seq > 0 and clean):
            self._write_log_event(fmt.LOG_OPENED, **opening, event_nos=dict(self._event_nos))
        else:
            self._recovery = {
                **opening,
                "last_seq": tail.last_seq,
                "last_hash": tail.last_hash,
                "last_event": tail.last_event,
                "last_checkpoint_seq": tail.checkpoint_seq,
                "unsigned": tail.last_seq - tail.checkpoint_seq,
                "torn": torn,
                "event_nos": dict(self._event_nos),
            }
            _log.warning(
                "%s: unclean shutdown of table %s's log detected after seq %d (%d unsigned line(s)%s); recorded",
                self._dir, self._table, tail.last_seq, tail.last_seq - tail.checkpoint_seq,
                f", torn line of {torn['bytes']} bytes moved to {torn['moved_to']}" if torn else "",
            )
            self._write_log_event(fmt.RECOVERY, **self._recovery)
            self._hand_over_key(tail)
            self.checkpoint(fmt.RECOVERY)
        if self._recovery is None:
            self._hand_over_key(tail)
        self.commit()

    def _hand_over_key(self, tail: _Tail) -> None:
        """Introduce the signing key in a log last signed by another: a ``key_rotation`` checkpoint
        signed by the previous key naming this one, or, without it, a warning (the log then
        verifies only where surveillance enrolled this key from the seq it took over at)."""
        old = tail.checkpoint_key
        if self._key is None or old is None or old == self._key_id:
            return
        previous = self._previous_key
        if previous is not None and _key_id(previous) == old:
            new, new_id = self._key, self._key_id
            self._key, self._key_id = previous, old
            try:
                self.checkpoint(KEY_ROTATION, next_key=public_bytes(new).hex())
            finally:
                self._key, self._key_id = new, new_id
            return
        _log.warning(
            "%s: table %s's log was last signed by key %s; key %s was not introduced by it (give the previous key "
            "to sign the hand-over): its checkpoints verify only where the keyring enrols it from seq %d",
            self._dir, self._table, old, self._key_id, tail.last_seq + 1,
        )

    def _set_aside_torn_tail(self, path: Path) -> dict[str, Any] | None:
        """Move a partial last line (no newline: the write was cut) to ``<file>.torn[.N]``."""
        with os.fdopen(open_existing(path, os.O_RDWR, "log"), "r+b") as f:
            size = f.seek(0, os.SEEK_END)
            keep = size
            while keep > 0:
                start = max(0, keep - _REVERSE_BLOCK)
                f.seek(start)
                at = f.read(keep - start).rfind(b"\n")
                if at >= 0:
                    keep = start + at + 1
                    break
                keep = start
            if keep == size:
                return None
            f.seek(keep)
            torn = f.read()
            aside = path.with_name(path.name + ".torn")
            n = 1
            while aside.exists():
                aside = path.with_name(f"{path.name}.torn.{n}")
                n += 1
            fd = create_new(aside, FILE_MODE, "log's torn tail")
            try:
                view = memoryview(torn)
                while view:
                    view = view[os.write(fd, view) :]
                os.fsync(fd)
            except OSError as exc:  # no room for the copy: leave the tail where it is, and no empty copy
                os.close(fd)
                os.unlink(aside)
                raise LogFailedError(f"{aside}: cannot set the torn tail of {path.name} aside: {exc}") from exc
            else:
                os.close(fd)
            f.truncate(keep)
            f.flush()
            os.fsync(f.fileno())
        self._fsync_dir()
        return {"file": path.name, "offset": keep, "bytes": len(torn), "hash": fmt.digest(torn), "moved_to": aside.name}

    def _scan_tail(self, files: list[Path]) -> _Tail:
        """Read back from the end to the last checkpoint; check that stretch of chain; replay
        the device event numbers from the latest snapshot (checkpoint and file-opening lines)."""
        collected: list[tuple[Path, bytes, tuple[int, str, str]]] = []
        anchored = False  # found a checkpoint: its snapshot anchors the scan
        for path in reversed(files):
            for line in _reverse_lines(path):
                head = fmt.split_head(line)
                if head is None:
                    raise LogCorruptError(f"{path}: not a log line near the end: {line[:80]!r}")
                collected.append((path, line, head))
                if head[1] == fmt.CHECKPOINT:
                    anchored = True
                    break
            if anchored:
                break
        collected.reverse()
        tail = _Tail()
        expected_prev = None if anchored else fmt.GENESIS
        for path, line, (seq, event, prev) in collected:
            if expected_prev is not None and prev != expected_prev:
                raise LogCorruptError(f"{path}: seq {seq}: prev does not match the line before it")
            if seq != tail.last_seq + 1 and (tail.last_seq or not anchored):
                raise LogCorruptError(f"{path}: seq {seq} follows seq {tail.last_seq}")
            try:
                record = orjson.loads(line)
            except orjson.JSONDecodeError:
                raise LogCorruptError(f"{path}: seq {seq}: not valid JSON") from None
            snapshot = record.get("event_nos") if event in fmt.LOG_EVENTS else None
            if isinstance(snapshot, dict):
                tail.event_nos = {str(k): int(v) for k, v in snapshot.items()}
            else:
                number, device = record.get("event_no"), record.get("device")
                if type(number) is int and isinstance(device, str) and number > tail.event_nos.get(device, -1):
                    tail.event_nos[device] = number
            if event == fmt.CHECKPOINT:
                tail.checkpoint_seq = seq
                tail.checkpoint_key = record.get("key")
                tail.last_reason = record.get("reason")
            else:
                tail.last_reason = None
            tail.last_seq, tail.last_event, tail.last_file = seq, event, path
            expected_prev = fmt.digest(line)
        if expected_prev is not None and collected:
            tail.last_hash = expected_prev
        return tail


def _second_prefix(second: int) -> str:
    """A stamp's date and time up to the second, UTC, with the dot before its microseconds."""
    return time.strftime("%Y-%m-%dT%H:%M:%S.", time.gmtime(second))


def parse_number(path: Path) -> int:
    """The file number in a log file's name."""
    parsed = fmt.parse_file_name(path.name)
    assert parsed is not None
    return parsed[1]


def _reverse_lines(path: Path) -> Iterator[bytes]:
    """The complete lines of *path*, last first, without newlines (the file ends with one)."""
    with open(path, "rb") as f:
        position = f.seek(0, os.SEEK_END)
        rest = b""
        while position > 0:
            size = min(_REVERSE_BLOCK, position)
            position -= size
            f.seek(position)
            parts = (f.read(size) + rest).split(b"\n")
            rest = parts[0]
            for line in reversed(parts[1:]):
                if line:
                    yield line
        if rest:
            yield rest
