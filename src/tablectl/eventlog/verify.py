"""Verify a card event log with only the table's public key; read its events back in order.

:func:`verify` streams the files once. For every line it hashes the raw bytes as read (BLAKE2b,
never re-serializing JSON) and checks the fixed layout, ``seq`` contiguity and the ``prev``
link by slicing bytes; only the log's own events (``log_opened``, ``recovery``, ``checkpoint``,
``rotated``, about one line in a thousand) are parsed as JSON. Checkpoint signatures are checked
with Ed25519. At the end it checks that the log ends with a signed clean-shutdown checkpoint.

The files are read in large chunks and worked a block of whole lines (about 64 KiB) at a time,
so that a line's bytes are still in the CPU cache when they are hashed, checked and — through
:func:`scan`, which ``tablectl review`` uses to verify and read the log in one pass — parsed.

Findings name file and line. Integrity findings (anything tampered, missing or unsigned) make
``report.ok`` false; an unclean shutdown that the next start recorded (a ``recovery`` later
covered by a signature) is reported as a warning, distinct from tampering.
"""

from __future__ import annotations

import hashlib
import io
import operator
import struct
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import repeat
from pathlib import Path
from typing import Any, BinaryIO, Protocol

import orjson
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from . import logformat as fmt
from .errors import LogCorruptError, LogInputError
from .trust import BAD_HANDOVER, KEY_ROTATION, RETIRED_KEY, UNANNOUNCED_KEY, WRONG_KEY, KeySchedule, Refusal, Trust

# Integrity findings: the log cannot be trusted as it stands.
MALFORMED = "malformed"  # a line without the log layout (or not JSON where it must be)
ALTERED = "altered"  # a line's hash does not match the next line's prev
SEQUENCE = "sequence"  # seq not contiguous: lines missing, duplicated or reordered
BAD_START = "bad_start"  # the log does not begin at seq 1 with the genesis prev
BAD_SIGNATURE = "bad_signature"
# WRONG_KEY, RETIRED_KEY, UNANNOUNCED_KEY, BAD_HANDOVER (tablectl.eventlog.trust): a checkpoint
# signed by a key not trusted, outside its span or retired, or that took over without an
# introduction; a key_rotation to a key other than the successor the keyring (or --key) names
TABLE_MISMATCH = "table_mismatch"  # a file named for another table, or lines of another table
UNSIGNED_CHECKPOINT = "unsigned_checkpoint"
BAD_RECOVERY = "bad_recovery"  # a recovery line that does not describe the line before it
BAD_OPEN = "bad_open"  # log_opened (a clean resume) not preceded by a shutdown checkpoint
TORN_TAIL = "torn_tail"  # the last file ends inside a line
UNSIGNED_TAIL = "unsigned_tail"  # lines at the end not covered by any signed checkpoint
NOT_CLOSED = "not_closed"  # ends at a signed checkpoint that is not a clean shutdown
# Warnings: worth knowing, not tampering.
UNCLEAN_SHUTDOWN = "unclean_shutdown"
PARTIAL = "partial"  # verify(..., allow_partial=True) of a log slice not starting at seq 1

WARNING_KINDS = frozenset({UNCLEAN_SHUTDOWN, PARTIAL})
MAX_FINDINGS_PER_KIND = 20
_CHUNK = 4 << 20  # bytes per read
_BLOCK = 64 << 10  # bytes of whole lines handled together (kept small enough to stay in the CPU cache)
_LOG_EVENT_BYTES = frozenset(e.encode("ascii") for e in fmt.LOG_EVENTS)
_LOG_EVENT_PREFIXES = frozenset(e[:4] for e in _LOG_EVENT_BYTES)
# Every line's hasher is a copy of an empty BLAKE2b-256 state, fed the line: cheaper than building
# one from keyword arguments (the hash itself is ~0.4 us of a line's ~0.75 us).
_EMPTY_BLAKE2B_256 = hashlib.blake2b(digest_size=32)
_COPY = hashlib.blake2b.copy
_UPDATE = hashlib.blake2b.update
_HEXDIGEST = hashlib.blake2b.hexdigest
_TAIL = slice(-fmt.SUFFIX_LEN, None)
_HEAD = b'{"seq":%d,"event":"'  # every line starts so
# a head's last three digits of seq and what follows them: see _heads
_HEAD_ENDS = [b'%03d,"event":"' % i for i in range(1000)]
_LINE_TAIL = operator.itemgetter(_TAIL)  # map(_LINE_TAIL, lines): cheaper than map(getitem, lines, repeat(_TAIL))
_NAME_PREFIX = 4  # bytes of an event name enough to tell the log's own events from game events


@dataclass(frozen=True)
class Finding:
    """One verification result, located at ``file:line`` (1-based; the line where it shows)."""

    kind: str
    file: str
    line: int
    seq: int | None
    message: str

    @property
    def integrity(self) -> bool:
        """True for integrity failures, False for warnings (unclean shutdown, partial log)."""
        return self.kind not in WARNING_KINDS

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "file": self.file, "line": self.line, "seq": self.seq,
                "integrity": self.integrity, "message": self.message}


@dataclass
class Signer:
    """A key and the lines its verified checkpoints cover, ``from_seq`` .. ``to_seq``: who signed what."""

    key: str
    from_seq: int
    to_seq: int
    checkpoints: int = 1

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "from_seq": self.from_seq, "to_seq": self.to_seq, "checkpoints": self.checkpoints}


@dataclass
class VerifyReport:
    """The outcome of :func:`verify`."""

    files: list[str]
    table: str | None = None
    lines: int = 0
    first_seq: int | None = None
    last_seq: int | None = None
    last_digest: str = fmt.GENESIS  # digest of the last complete line: the head of the chain as read
    signed_seq: int = 0  # every line up to here is covered by a verified signature
    checkpoints: int = 0  # checkpoints whose signature verified (or were accepted unchecked)
    signatures_checked: bool = True
    key_ids: list[str] = field(default_factory=list)  # the keys trusted
    signers: list[Signer] = field(default_factory=list)  # the keys that signed, each with its lines, in log order
    findings: list[Finding] = field(default_factory=list)
    suppressed: int = 0  # findings beyond MAX_FINDINGS_PER_KIND, counted only
    #: seq -> digest (hex) of every accepted checkpoint line: the heads an anchor may name
    heads: dict[int, str] = field(default_factory=dict)
    #: the last of them: (seq, head, key id, reason, ts), what ``tablectl anchor`` records
    last_head: tuple[int, str, str | None, str | None, str | None] | None = None
    #: the key schedule as the last line left it, plain values (``KeySchedule.state``): what an
    #: export going on from here starts from
    key_state: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        """No integrity finding."""
        return not any(f.integrity for f in self.findings)

    @property
    def clean(self) -> bool:
        """No finding at all."""
        return not self.findings

    @property
    def integrity_failures(self) -> list[Finding]:
        return [f for f in self.findings if f.integrity]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if not f.integrity]

    def kinds(self) -> set[str]:
        """The kinds of finding present."""
        return {f.kind for f in self.findings}

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok, "clean": self.clean, "files": self.files, "table": self.table,
            "lines": self.lines, "first_seq": self.first_seq, "last_seq": self.last_seq,
            "signed_seq": self.signed_seq, "checkpoints": self.checkpoints,
            "signatures_checked": self.signatures_checked, "key_ids": self.key_ids,
            "signers": [signer.to_dict() for signer in self.signers],
            "findings": [f.to_dict() for f in self.findings], "suppressed": self.suppressed,
        }


def resolve_paths(paths: Iterable[Path | str]) -> list[Path]:
    """Expand directories into their log files (in number order); check files look like logs. A
    file named again (the same file by its resolved path: a folder and one of its files, a path
    given twice) is kept once, where it came first.

    Raises :class:`LogInputError` for a missing path, a directory without log files (or with
    the logs of several tables), or a file that is not a log.
    """
    out: list[Path] = []
    for item in paths:
        path = Path(item)
        try:
            if path.is_dir():
                odd = next((e for e in sorted(path.iterdir()) if fmt.parse_file_name(e.name) and not e.is_file()), None)
                if odd is not None:  # a log's file replaced with a FIFO, a folder, a broken link: not skipped unsaid
                    raise LogInputError(f"{odd}: named as a log file, but not a regular file: not read")
                groups = fmt.log_files(path)
                if not groups:
                    raise LogInputError(f"{path}: no tablectl log files in this directory")
                if len(groups) > 1:
                    raise LogInputError(
                        f"{path}: holds the logs of several tables ({', '.join(sorted(groups))}); name one table's files"
                    )
                out.extend(next(iter(groups.values())))
            elif path.is_file():
                if fmt.parse_file_name(path.name) is None:
                    with open(path, "rb") as f:
                        if not f.read(len(fmt.LINE_PREFIX)) == fmt.LINE_PREFIX:
                            raise LogInputError(f"{path}: not a tablectl event log")
                out.append(path)
            elif path.exists():
                raise LogInputError(f"{path}: not a regular file or directory")
            else:
                raise LogInputError(f"{path}: no such file or directory")
        except OSError as exc:
            raise LogInputError(f"{path}: {exc.strerror}") from None
    if not out:
        raise LogInputError("no log files given")
    kept: dict[Path, Path] = {}
    for f in out:
        kept.setdefault(f.resolve(), f)
    return list(kept.values())


def log_table(files: Sequence[Path]) -> str | None:
    """The table the log's first line names (its lines are signed; its file names are not), or
    None if the first file's first line is not a log line."""
    for path in files:
        try:
            with open(path, "rb") as f:
                line = f.readline(1 << 16)
        except OSError as exc:
            raise LogInputError(f"{path}: {exc.strerror}") from None
        if not line:
            continue
        try:
            table = orjson.loads(line).get("table")
        except (orjson.JSONDecodeError, AttributeError):
            return None
        return table if isinstance(table, str) else None
    return None


def verify(
    paths: Iterable[Path | str],
    public_key: Trust | Ed25519PublicKey | Iterable[Ed25519PublicKey] | None,
    *,
    allow_partial: bool = False,
) -> VerifyReport:
    """Verify the log in *paths* (files in order, or directories) against *public_key*.

    *public_key*: the keys to trust (``tablectl.eventlog.trust``): a :class:`Trust` (the keyring's
    keys of the table, with their spans), or keys named by hand (the first checkpoint may be
    signed by any of them, later ones only by the key in force until the log rotates it). A
    checkpoint must verify under the key its ``key`` id names, and that key must be valid at its
    seq. None checks the chain only: ``signatures_checked`` is False and nothing is proven about
    who wrote the lines. Every file named for a table must hold that table's log, and so must a
    :class:`Trust` bound to a table. *allow_partial* accepts a slice of a
    log that does not start at seq 1 (reported as a ``partial`` warning instead of ``bad_start``).

    Raises :class:`LogInputError` for bad input (see :func:`resolve_paths`) or an empty log.
    """
    return scan(paths, public_key, None, allow_partial=allow_partial)


class LineSink(Protocol):
    """What :func:`scan` hands every line to, a block at a time, after verifying it."""

    def block(self, file_index: int, lineno: int, count: int | None, data: bytes, lines: list[bytes] | None) -> int:
        """Complete lines of file *file_index*, lines ``lineno + 1`` ... (1-based): ``data`` in one
        piece, without the last newline; ``lines`` the same lines split (``data.split(b"\\n")``)
        and *count* their number, when the caller has them (:func:`scan` does), else None
        (:func:`read_blocks` neither splits nor counts: a sink that needs them splits ``data``).
        Returns the number of lines (*count*, or ``data.count(b"\\n") + 1`` when *count* is None)."""

    def end_file(self, file_index: int, lines: int, torn: int) -> None:
        """File *file_index* is read: ``lines`` complete lines, and ``torn`` bytes after the last
        newline (0: it ends with a newline). The torn piece is not handed over."""


def scan(
    paths: Iterable[Path | str],
    public_key: Trust | Ed25519PublicKey | Iterable[Ed25519PublicKey] | None,
    sink: LineSink | None,
    *,
    allow_partial: bool = False,
    start: Callable[[Any], None] | None = None,
) -> VerifyReport:
    """:func:`verify`, handing every complete line to *sink* as it goes: one pass over the files
    for a reader that needs the lines too (``tablectl review`` parses and reconstructs them).

    Blocks reach the sink in log order, each after it was verified; the sink sees every complete
    line whatever verification finds (a damaged log is still read as far as it goes).
    *start*: sets the verifier's chain state before the first line (``tablectl.review.state``: an
    export going on from the chain head it verified before, the files it read then not given).
    """
    files = resolve_paths(paths)
    verifier = _Verifier(files, Trust.of(public_key), allow_partial, sink)
    if start is not None:
        start(verifier)
    return verifier.run()


def read_blocks(paths: Iterable[Path | str], sink: LineSink) -> None:
    """Hand every complete line of the log to *sink*, as :func:`scan` does, without verifying,
    and without splitting the blocks into lines or counting them (``count`` and ``lines`` are
    None): the sink counts them, which costs it nothing when it looks at every newline anyway."""
    for index, path in enumerate(resolve_paths(paths)):
        lineno = 0
        tail: list[bytes] = []
        try:
            with open(path, "rb") as f:
                for data in _blocks(f, tail):
                    lineno += sink.block(index, lineno, None, data, None)
        except OSError as exc:
            raise LogInputError(f"{path}: {exc.strerror}") from None
        sink.end_file(index, lineno, len(tail[0]) if tail else 0)


_NO_NEWLINE = operator.itemgetter(slice(None, -1))


def _split_lines(data: bytes) -> list[bytes]:
    """``data.split(b"\\n")``, in less than three quarters of its time: ``bytes.split`` looks at
    every byte for the newline, a ``BytesIO``'s ``readlines`` finds them with ``memchr``; cutting
    the newline off the lines it gives costs less than the difference."""
    lines = io.BytesIO(data).readlines()
    if not lines or lines[-1].endswith(b"\n"):  # data ends with a newline (or is empty): an empty last line
        lines.append(b"")
    last = lines.pop()
    lines = list(map(_NO_NEWLINE, lines))
    lines.append(last)
    return lines


def _blocks(f: BinaryIO, tail: list[bytes]) -> Iterator[bytes]:
    """Runs of complete lines of *f*, about :data:`_BLOCK` bytes each (read :data:`_CHUNK` bytes at a
    time), each without its last newline; bytes after the file's last newline go to *tail*."""
    rest = b""
    read = f.read
    while chunk := read(_CHUNK):
        n = len(chunk)
        pos = 0
        if rest:  # the line that straddles two reads
            end = chunk.find(b"\n")
            if end < 0:
                rest += chunk
                continue
            yield rest + chunk[:end]
            rest = b""
            pos = end + 1
        while pos < n:
            stop = pos + _BLOCK
            end = chunk.find(b"\n", stop) if stop < n else -1
            if end < 0:
                end = chunk.rfind(b"\n", pos)
                if end < 0:
                    break
            yield chunk[pos:end]
            pos = end + 1
        rest = chunk[pos:]
    if rest:
        tail.append(rest)


class _Verifier:
    """One verification run: the chain state carried from line to line and file to file."""

    def __init__(self, files: list[Path], trust: Trust | None, allow_partial: bool,
                 sink: LineSink | None = None) -> None:
        self.files = files
        self.sink = sink
        self.trust = trust
        self.schedule = KeySchedule(trust) if trust is not None else None
        self.allow_partial = allow_partial
        self.report = VerifyReport(files=[str(p) for p in files], signatures_checked=trust is not None,
                                   key_ids=trust.key_ids if trust is not None else [])
        self.counts: dict[str, int] = {}
        self.file_lines: list[int] = []
        self.lines_before = 0  # lines in files already read
        self.exp = 1  # the seq the next line must carry
        self.prev = fmt.GENESIS_BYTES  # digest (hex bytes) of the last line read
        self.covered_seq = 0  # last seq covered by an accepted checkpoint
        self.covered_at: tuple[int, int] | None = None  # (file index, line) of that checkpoint
        self.covered_reason: str | None = None
        self.shutdown_seq = -1
        self.pending_unclean: tuple[int, int, int, str] | None = None  # awaiting a signature
        self.wrong_keys: set[tuple[str, str]] = set()  # (key id, finding kind) already reported
        self.torn: tuple[int, int, int] | None = None  # (file index, line, bytes)
        self.resumed = False  # the chain state was set from an earlier verification: no line is the log's first

    # -------------------------------------------------------------- findings

    def add(self, kind: str, file_index: int, line: int, seq: int | None, message: str) -> None:
        n = self.counts.get(kind, 0)
        self.counts[kind] = n + 1
        if n >= MAX_FINDINGS_PER_KIND:
            self.report.suppressed += 1
            return
        self.report.findings.append(Finding(kind, str(self.files[file_index]), line, seq, message))

    def where(self, file_index: int, line: int) -> str:
        return f"{self.files[file_index]}:{line}"

    def previous_line(self, file_index: int, line: int) -> tuple[int, int]:
        """The location of the line before (file_index, line), across files."""
        if line > 1:
            return file_index, line - 1
        i = file_index - 1
        while i >= 0 and self.file_lines[i] == 0:
            i -= 1
        return (i, self.file_lines[i]) if i >= 0 else (file_index, 0)

    # -------------------------------------------------------------- reading

    def run(self) -> VerifyReport:
        last = len(self.files) - 1
        for index, path in enumerate(self.files):
            try:
                self.read_file(index, path, index == last)
            except OSError as exc:
                raise LogInputError(f"{path}: {exc.strerror}") from None
        if self.lines_before == 0 and self.torn is None:
            raise LogInputError(f"{', '.join(self.report.files)}: the log is empty")
        self.finish()
        return self.report

    def read_file(self, index: int, path: Path, is_last: bool) -> None:
        self.file_lines.append(0)
        lineno = 0
        sink = self.sink
        tail: list[bytes] = []
        with open(path, "rb") as f:
            for data in _blocks(f, tail):
                parts = _split_lines(data)
                if not self.batch(index, lineno, parts):
                    self.lines(index, lineno, parts)
                if sink is not None:
                    sink.block(index, lineno, len(parts), data, parts)
                lineno += len(parts)
                self.file_lines[index] = lineno
        rest = tail[0] if tail else b""
        if sink is not None:
            sink.end_file(index, lineno, len(rest))
        if rest:
            if is_last:
                self.torn = (index, lineno + 1, len(rest))
            else:
                lineno += 1
                self.file_lines[index] = lineno
                self.add(MALFORMED, index, lineno, None, "file ends inside a line (no newline), before the log's last file")
                self.slow(index, lineno, rest)
        self.lines_before += lineno

    def batch(self, index: int, lineno: int, parts: list[bytes]) -> bool:
        """The fast path, a whole block of lines at a time with C-level loops.

        Hashes every line; checks every line's tail (``,"prev":"<digest of the line before>"}``)
        and every head (``{"seq":N,"event":"``) with one comparison of joined bytes each (slices
        of every line, cut by ``map``); picks out the log's own events by the first bytes of the
        event name. Returns False, having changed nothing, if anything is off: :meth:`lines` then
        redoes the block line by line and says exactly what.
        """
        n = len(parts)
        if n == 0:
            return True
        exp, prev = self.exp, self.prev.decode("ascii")
        hashers = list(map(_COPY, repeat(_EMPTY_BLAKE2B_256, n)))
        deque(map(_UPDATE, hashers, parts), maxlen=0)
        hashes = list(map(_HEXDIGEST, hashers))
        links = '"},"prev":"'.join([prev, *hashes[:-1]])
        if b"".join(map(_LINE_TAIL, parts)) != f',"prev":"{links}"}}'.encode("ascii"):
            return False
        width = len(str(exp))
        found: list[int] = []  # lines whose event name starts like one of the log's own events
        if width == len(str(exp + n - 1)):  # every head as long: compare them all in one piece
            # One slice per line holds its head and the first bytes of its event name, all as
            # long: once joined, one C call (a Struct) cuts them back out, heads and names in
            # turn, cheaper than a second slice per line for the names.
            cut = len(b'{"seq":,"event":"') + width
            stride = cut + _NAME_PREFIX
            joined = b"".join(map(operator.itemgetter(slice(0, stride)), parts))
            if len(joined) != n * stride:
                return False
            pieces = _head_cutter(cut, n).unpack(joined)
            if b"".join(pieces[::2]) != _heads(exp, n):
                return False
            names = pieces[1::2]
            if not _LOG_EVENT_PREFIXES.isdisjoint(names):  # about one block in four
                found = [i for i, name in enumerate(names) if name in _LOG_EVENT_PREFIXES]
        else:  # seq gains a digit in this block: head by head
            heads = (b"\n".join([_HEAD] * n) % tuple(range(exp, exp + n))).split(b"\n")
            if not all(map(bytes.startswith, parts, heads)):
                return False
            names = [line[k : k + _NAME_PREFIX] for line, k in zip(parts, map(len, heads))]
            found = [i for i, name in enumerate(names) if name in _LOG_EVENT_PREFIXES]
        # The log's own events go to the slow path, which reads the whole name (a game event
        # that merely shares the prefix passes through).
        for i in sorted(found):
            self.exp = exp + i
            self.prev = (hashes[i - 1] if i else prev).encode("ascii")
            self.slow(index, lineno + i + 1, parts[i])
        self.exp = exp + n
        self.prev = hashes[-1].encode("ascii")
        return True

    def lines(self, index: int, lineno: int, parts: list[bytes]) -> int:
        """The line-by-line path: layout, seq and chain by slicing; the slow path for anything odd."""
        exp, prev = self.exp, self.prev
        blake = hashlib.blake2b
        log_events = _LOG_EVENT_BYTES
        prev_member, end, suffix = fmt.PREV_MEMBER, fmt.LINE_END, fmt.SUFFIX_LEN
        for line in parts:
            lineno += 1
            head = b'{"seq":%d,"event":"' % exp
            if (
                line.startswith(head)
                and line[-66:-2] == prev
                and line[-suffix:-66] == prev_member
                and line[-2:] == end
                and line[len(head) : line.find(b'"', len(head))] not in log_events
            ):
                prev = blake(line, digest_size=32).hexdigest().encode()
                exp += 1
                continue
            self.exp, self.prev = exp, prev
            self.file_lines[index] = lineno - 1
            self.slow(index, lineno, line)
            exp, prev = self.exp, self.prev
        self.exp, self.prev = exp, prev
        return lineno

    def slow(self, index: int, lineno: int, line: bytes) -> None:
        """Any line the hot loop did not accept: classify what is wrong, or handle a log event."""
        first = self.lines_before + lineno == 1 and not self.resumed
        head = fmt.split_head(line)
        if head is None:
            self.add(MALFORMED, index, lineno, None, f"not a log line: {line[:60]!r}")
            self.prev = fmt.digest(line).encode()
            self.exp += 1
            return
        seq, event, prev = head
        if first:
            self.report.first_seq = seq
            if seq != 1 or prev != fmt.GENESIS:
                if self.allow_partial:
                    self.add(PARTIAL, index, lineno, seq, f"log slice starts at seq {seq}; earlier lines not given")
                else:
                    self.add(BAD_START, index, lineno, seq,
                             f"the log starts at seq {seq}, not seq 1 with the genesis prev: earlier lines or files are missing")
                self.covered_seq = seq - 1
        elif seq != self.exp:
            if seq > self.exp:
                n = seq - self.exp
                self.add(SEQUENCE, index, lineno, seq,
                         f"seq jumps from {self.exp - 1} to {seq}: {n} line(s) missing before this line")
            else:
                self.add(SEQUENCE, index, lineno, seq,
                         f"seq {seq} where {self.exp} was expected: line duplicated or out of order")
        elif prev.encode() != self.prev:
            pi, pl = self.previous_line(index, lineno)
            self.add(ALTERED, pi, pl, seq - 1,
                     f"line {pl} (seq {seq - 1}) was altered: its hash does not match the prev recorded at {self.where(index, lineno)}")
        if event in fmt.LOG_EVENTS:
            self.log_event(index, lineno, line, seq, event, first)
        self.prev = fmt.digest(line).encode()
        self.exp = seq + 1

    def log_event(self, index: int, lineno: int, line: bytes, seq: int, event: str, first: bool) -> None:
        try:
            record = orjson.loads(line)
        except orjson.JSONDecodeError:
            self.add(MALFORMED, index, lineno, seq, f"{event} line is not valid JSON")
            return
        table = record.get("table")
        if self.report.table is None:
            self.report.table = table
        elif table != self.report.table:
            self.add(TABLE_MISMATCH, index, lineno, seq,
                     f"{event} of table {table!r} in the log of table {self.report.table!r}: another table's lines spliced in")
        if event == fmt.CHECKPOINT:
            self.checkpoint(index, lineno, line, seq, record)
        elif event == fmt.RECOVERY:
            self.recovery(index, lineno, seq, record, first)
        elif event == fmt.LOG_OPENED and seq > 1 and not first and self.shutdown_seq != seq - 1:
            self.add(BAD_OPEN, index, lineno, seq,
                     "log_opened (a clean resume) does not follow a clean-shutdown checkpoint")

    def checkpoint(self, index: int, lineno: int, line: bytes, seq: int, record: dict[str, Any]) -> None:
        reason = record.get("reason")
        if reason == fmt.SHUTDOWN:  # layout fact for the log_opened check; trust comes below
            self.shutdown_seq = seq
        if self.schedule is not None:
            kid = record.get("key")
            kid = kid if isinstance(kid, str) else repr(kid)
            split = fmt.split_signature(line)
            if split is None:
                self.add(UNSIGNED_CHECKPOINT, index, lineno, seq,
                         "checkpoint carries no signature (written without a signing key, or stripped)")
                return
            key = self.schedule.key_for(kid, seq)
            if isinstance(key, Refusal):
                if (kid, key.kind) in self.wrong_keys:
                    self.report.suppressed += 1
                else:
                    self.wrong_keys.add((kid, key.kind))
                    self.add(key.kind, index, lineno, seq, key.message)
                return
            signed, sig = split
            try:
                key.verify(bytes.fromhex(sig), signed)
            except (InvalidSignature, ValueError):
                self.add(BAD_SIGNATURE, index, lineno, seq,
                         "checkpoint signature does not verify: lines up to here were changed and re-hashed, "
                         "or the checkpoint was forged")
                return
            successor = None
            if reason == KEY_ROTATION:
                successor = _successor(record.get("next_key"))
                if successor is None:
                    self.add(MALFORMED, index, lineno, seq, "key_rotation checkpoint without a next_key (64 hex)")
            refusal = self.schedule.accept(kid, seq, successor)
            if refusal is not None:
                self.add(refusal.kind, index, lineno, seq, refusal.message)
            self.signed(kid, seq)
        self.report.checkpoints += 1
        head = fmt.digest(line)
        self.report.heads[seq] = head
        kid, ts = record.get("key"), record.get("ts")
        self.report.last_head = (seq, head, kid if isinstance(kid, str) else None, reason if isinstance(reason, str) else None,
                                 ts if isinstance(ts, str) else None)
        self.covered_seq = seq
        self.covered_at = (index, lineno)
        self.covered_reason = reason
        if self.pending_unclean is not None:
            self.add(UNCLEAN_SHUTDOWN, *self.pending_unclean)
            self.pending_unclean = None

    def signed(self, kid: str, seq: int) -> None:
        """Key *kid*'s checkpoint at *seq* verified: the lines since the last one are its."""
        signers = self.report.signers
        if signers and signers[-1].key == kid:
            signers[-1].to_seq = seq
            signers[-1].checkpoints += 1
        else:
            signers.append(Signer(kid, self.covered_seq + 1, seq))

    def recovery(self, index: int, lineno: int, seq: int, record: dict[str, Any], first: bool) -> None:
        if not first and (record.get("last_seq") != seq - 1 or str(record.get("last_hash")).encode() != self.prev):
            self.add(BAD_RECOVERY, index, lineno, seq,
                     "recovery does not describe the line before it (last_seq/last_hash mismatch)")
        unsigned_from, unsigned_to = self.covered_seq + 1, seq - 1
        count = max(0, unsigned_to - unsigned_from + 1)
        torn = record.get("torn")
        torn_text = ""
        if isinstance(torn, dict):
            torn_text = f"; a torn partial line ({torn.get('bytes')} bytes) was moved to {torn.get('moved_to')}"
        span = f"seq {unsigned_from}..{unsigned_to}" if count else "none"
        self.pending_unclean = (
            index, lineno, seq,
            f"unclean shutdown after seq {seq - 1} (not tampering): {count} line(s) written after the last "
            f"signed checkpoint were never signed by the writer ({span}){torn_text}; the next start recorded it here",
        )

    def finish(self) -> None:
        report = self.report
        report.lines = self.lines_before
        last_seq = self.exp - 1
        report.last_seq = last_seq
        report.last_digest = self.prev.decode("ascii")
        if report.first_seq is None:  # the first line passed the hot loop: seq 1
            report.first_seq = 1
        report.signed_seq = self.covered_seq if self.schedule is not None else 0
        report.key_state = self.schedule.state() if self.schedule is not None else None
        self.check_tables()
        if self.lines_before == 0:  # bytes, but not one whole line: cut in its first line, or not \n-terminated
            assert self.torn is not None
            ti, tl, nbytes = self.torn
            self.add(TORN_TAIL, ti, tl, None,
                     f"the log holds no complete line ({nbytes} bytes without a newline): cut inside its first line, "
                     "or lines not ended by \\n (CR-only line endings)")
            return
        last_index = len(self.files) - 1
        last_line = self.file_lines[last_index]
        if last_line == 0:  # the last file(s) are empty: the log ends in an earlier file
            last_index, last_line = self.previous_line(last_index, 1)
        if self.torn is not None:
            ti, tl, nbytes = self.torn
            self.add(TORN_TAIL, ti, tl, None,
                     f"the log ends inside a line ({nbytes} bytes without a newline): a crash while writing, or truncation")
        if self.covered_seq < last_seq:
            if self.covered_at is None:
                fi, fl = 0, 1
                while self.file_lines[fi] == 0 and fi < last_index:
                    fi += 1
            else:
                ci, cl = self.covered_at
                fi, fl = (ci, cl + 1) if cl < self.file_lines[ci] else (ci + 1, 1)
                while fi < last_index and self.file_lines[fi] == 0:
                    fi += 1
            what = "signed checkpoint" if self.schedule is not None else "checkpoint"
            self.add(UNSIGNED_TAIL, fi, fl, self.covered_seq + 1,
                     f"seq {self.covered_seq + 1}..{last_seq} (to {self.where(last_index, last_line)}) are not covered "
                     f"by a {what}: the log was cut short, the writer is still running or crashed, "
                     "or lines were added or re-hashed without the key")
        elif self.covered_reason != fmt.SHUTDOWN:
            self.add(NOT_CLOSED, last_index, last_line, last_seq,
                     f"the log ends at a '{self.covered_reason}' checkpoint, not a clean shutdown: later lines were "
                     "removed, or the writer is still running or crashed")


    def check_tables(self) -> None:
        """Every file named for the table whose lines it holds, and a keyring's keys that table's:
        a name is anyone's to change, the lines are signed."""
        table = self.report.table
        if table is None:
            return
        for index, path in enumerate(self.files):
            parsed = fmt.parse_file_name(path.name)
            if parsed is not None and parsed[0] != table:
                self.add(TABLE_MISMATCH, index, 1, None,
                         f"file named for table {parsed[0]!r} holds the log of table {table!r}: renamed")
        if self.trust is not None and self.trust.table is not None and self.trust.table != table:
            self.add(TABLE_MISMATCH, 0, 1, None,
                     f"the log is table {table!r}'s; {self.trust.source} holds table {self.trust.table!r}'s keys")


@dataclass(frozen=True)
class ChainHead:
    """Where a verified log stands, as plain values: what :class:`LineVerifier` goes on from.

    ``seq`` and ``digest``: the last line (its BLAKE2b-256 hex, the next line's ``prev``), covered
    by a valid signature; ``reason``: that checkpoint's reason (``shutdown``: the next start is a
    clean ``log_opened``); ``keys``: ``KeySchedule.state()`` (None: no keys checked); ``file`` and
    ``file_lines``: the file the last line is in and its lines, so that findings name lines exactly."""

    table: str | None
    seq: int
    digest: str
    reason: str | None
    keys: dict[str, Any] | None = None
    file: str | None = None
    file_lines: int = 0

    @classmethod
    def of(cls, report: VerifyReport) -> ChainHead:
        """The head of a log :func:`verify` found fully signed (``ValueError`` otherwise: a log that
        does not verify, or ends in lines no signature covers, is no place to go on from). A log
        still being written may end at any signed checkpoint: ``not_closed`` is no obstacle."""
        failures = [f for f in report.integrity_failures if f.kind != NOT_CLOSED]
        if failures or report.last_head is None or report.signed_seq != report.last_seq:
            raise ValueError("the log does not verify up to a signed checkpoint at its last line")
        files = report.files
        return cls(report.table, int(report.last_seq or 0), report.last_digest, report.last_head[3],
                   report.key_state, Path(files[-1]).name if files else None, 0)


@dataclass
class Advance:
    """What :meth:`LineVerifier.advance` made of a run of lines."""

    accepted: bool  # the head moved to the run's last line
    findings: list[Finding]  # integrity failures (why not accepted) or warnings (an unclean shutdown)
    unsigned: int  # lines at the run's end no valid signature covers (0 when accepted and signed)


class LineVerifier:
    """:func:`verify`'s checks, for a log that arrives a run of lines at a time (the live collector).

    The same verifier as :func:`verify` and ``tablectl review`` — the same fast path, the same
    findings — kept from run to run instead of reading files. :meth:`advance` verifies a run of
    lines going on from :attr:`head` and takes it only if it holds: no integrity finding and (with
    ``signed``) every line covered by a signature in the run, i.e. the run ends with a checkpoint
    that verifies under the trusted keys. A run that is not taken changes nothing, so a corrected
    or genuine run can follow. End-of-log checks (``unsigned_tail``, ``not_closed``) do not apply:
    a live log has no end yet.
    """

    def __init__(self, trust: Trust | Ed25519PublicKey | Iterable[Ed25519PublicKey] | None,
                 head: ChainHead | None = None) -> None:
        self._v = _Verifier([], Trust.of(trust), False)
        if head is not None and head.seq > 0:
            v = self._v
            v.resumed = True
            v.exp, v.prev = head.seq + 1, head.digest.encode("ascii")
            v.covered_seq = head.seq
            v.covered_reason = head.reason
            v.shutdown_seq = head.seq if head.reason == fmt.SHUTDOWN else -1
            v.report.table, v.report.first_seq = head.table, 1
            if head.file is not None:
                v.files.append(Path(head.file))
                v.file_lines.append(head.file_lines)
                v.report.files.append(head.file)
            if v.schedule is not None and head.keys is not None:
                v.schedule.restore(head.keys)

    @property
    def head(self) -> ChainHead:
        """The last line taken."""
        v = self._v
        return ChainHead(v.report.table, v.exp - 1, v.prev.decode("ascii"), v.covered_reason,
                         v.schedule.state() if v.schedule is not None else None,
                         v.files[-1].name if v.files else None, v.file_lines[-1] if v.file_lines else 0)

    @property
    def signatures_checked(self) -> bool:
        return self._v.schedule is not None

    def advance(self, lines: Sequence[tuple[str, bytes]], *, signed: bool = True) -> Advance:
        """Verify ``lines`` — ``(file name, line bytes without its newline)`` in log order, going
        on from :attr:`head` — and take them if they hold (see the class docstring)."""
        v = self._v
        saved = self._save()
        v.report.findings, v.counts, v.report.suppressed, v.report.heads = [], {}, 0, {}
        new_files = len(v.files)
        i, n = 0, len(lines)
        while i < n:
            name = lines[i][0]
            j = i + 1
            while j < n and lines[j][0] == name:
                j += 1
            parts = [line for _, line in lines[i:j]]
            if not v.files or v.files[-1].name != name:
                v.files.append(Path(name))
                v.file_lines.append(0)
                v.report.files.append(name)
            index = len(v.files) - 1
            lineno = v.file_lines[index]
            if not v.batch(index, lineno, parts):
                v.lines(index, lineno, parts)
            v.file_lines[index] = lineno + len(parts)
            v.resumed = True
            i = j
        table = v.report.table
        for index in range(new_files, len(v.files)):
            parsed = fmt.parse_file_name(v.files[index].name)
            if table is not None and parsed is not None and parsed[0] != table:
                v.add(TABLE_MISMATCH, index, 1, None,
                      f"file named for table {parsed[0]!r} holds lines of table {table!r}")
        if v.trust is not None and v.trust.table is not None and table is not None and v.trust.table != table:
            v.add(TABLE_MISMATCH, len(v.files) - 1, 1, None,
                  f"lines of table {table!r}; {v.trust.source} holds table {v.trust.table!r}'s keys")
        findings = v.report.findings
        unsigned = v.exp - 1 - v.covered_seq
        accepted = not any(f.integrity for f in findings) and (not signed or unsigned == 0)
        if not accepted:
            self._restore(saved)
        v.report.findings = []
        return Advance(accepted, findings, unsigned)

    def _save(self) -> tuple[Any, ...]:
        v = self._v
        return (v.exp, v.prev, v.covered_seq, v.covered_at, v.covered_reason, v.shutdown_seq, v.pending_unclean,
                v.resumed, set(v.wrong_keys), len(v.files), v.file_lines[-1] if v.file_lines else 0,
                v.report.table, v.report.first_seq, v.report.checkpoints, v.report.last_head,
                v.schedule.state() if v.schedule is not None else None)

    def _restore(self, saved: tuple[Any, ...]) -> None:
        v = self._v
        (v.exp, v.prev, v.covered_seq, v.covered_at, v.covered_reason, v.shutdown_seq, v.pending_unclean,
         v.resumed, v.wrong_keys, nfiles, last_lines, v.report.table, v.report.first_seq, v.report.checkpoints,
         v.report.last_head, keys) = saved
        del v.files[nfiles:], v.file_lines[nfiles:], v.report.files[nfiles:]
        if v.file_lines:
            v.file_lines[-1] = last_lines
        if v.schedule is not None and keys is not None:
            v.schedule.restore(keys)


def _successor(text: object) -> Ed25519PublicKey | None:
    """The key a ``key_rotation`` checkpoint's ``next_key`` (64 hex) names, or None."""
    try:
        raw = bytes.fromhex(text) if isinstance(text, str) else b""
        return Ed25519PublicKey.from_public_bytes(raw) if len(raw) == 32 else None
    except ValueError:
        return None


@lru_cache(maxsize=256)
def _head_cutter(cut: int, n: int) -> struct.Struct:
    """Cuts *n* joined slices of ``cut + _NAME_PREFIX`` bytes into their heads (*cut* bytes) and
    name prefixes, in turn (cached: blocks differ in their number of lines, but only by a few
    hundred at most)."""
    return struct.Struct(f"{cut}s{_NAME_PREFIX}s" * n)


def _heads(first: int, n: int) -> bytes:
    """The heads of *n* lines from seq *first* on (``{"seq":<first>,"event":"{"seq":<first + 1>,...``),
    in one piece: ``(_HEAD * n) % tuple(range(first, first + n))`` without formatting every number.

    From seq 1000 on, the heads of a thousand seqs differ only in their last three digits: the
    heads are joined from :data:`_HEAD_ENDS` with the digits before those as the separator.
    """
    if first < 1000:
        return (_HEAD * n) % tuple(range(first, first + n))
    pieces = []
    seq, end = first, first + n
    while seq < end:
        thousands, low = divmod(seq, 1000)
        upto = min(end, seq - low + 1000)
        start = b'{"seq":%d' % thousands
        pieces.append(start + start.join(_HEAD_ENDS[low : low + upto - seq]))
        seq = upto
    return b"".join(pieces)


def _read_lines(path: Path) -> Iterator[tuple[int, bytes]]:
    """Complete lines of one file with their 1-based numbers; a final unterminated piece is dropped."""
    lineno = 0
    with open(path, "rb") as f:
        for data in _blocks(f, []):
            for line in _split_lines(data):
                lineno += 1
                yield lineno, line


def iter_located_events(paths: Iterable[Path | str]) -> Iterator[tuple[Path, int, dict[str, Any]]]:
    """``(file, line number, event dict)`` for every complete line, in log (seq) order.

    Does not verify (run :func:`verify` first). A torn partial last line is skipped; a complete
    line that is not JSON raises :class:`LogCorruptError`.
    """
    for path in resolve_paths(paths):
        for lineno, line in _read_lines(path):
            try:
                yield path, lineno, orjson.loads(line)
            except orjson.JSONDecodeError:
                raise LogCorruptError(f"{path}:{lineno}: not a JSON line") from None


def iter_events(paths: Iterable[Path | str]) -> Iterator[dict[str, Any]]:
    """Every event of the log as a dict, in seq order (see :func:`iter_located_events`)."""
    for _, _, record in iter_located_events(paths):
        yield record
