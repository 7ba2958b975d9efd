"""External anchors of a log's checkpoint heads: what catches a log cut short or replaced whole.

A signed log proves that its lines are the table's, but not that it is the *whole* log: deleting
the last session's files, or putting an older log of the same table and key in its place, leaves
a log that verifies. An anchor file kept elsewhere (another machine, write-once storage) records,
each time ``tablectl anchor`` runs, the last signed checkpoint of each table's log: its ``seq``,
the BLAKE2b-256 digest of its line (the "head"; it covers every line before it through the chain)
and the fingerprint of the key that signed it. ``tablectl review --anchor FILE`` then checks that
every head the file knows for the table is still in the log, at its seq; the newest is the one
with the highest seq, wherever it is in the file.

The file is JSON lines, one anchor per line, appended only (``O_APPEND``) and fsynced after each
write (and its directory when the file is new). Each line carries ``prev``, the digest of the
line before it in the file (:data:`~tablectl.eventlog.logformat.GENESIS` for the first), so a
line inserted, moved or appended again breaks the chain::

    {"anchor":2,"table":"T1","seq":4490,"head":"<64 hex>","key":"0bb0f64bbb96471e","reason":"shutdown","ts":"<checkpoint ts>","anchored_at":"<UTC>","prev":"<64 hex>"}

Format 1 lines (``"anchor":1``, no ``prev``) are read where a file starts with them; the first
format 2 line links to the last of them. A line that is not whole (a write cut short by a full
disk) is set aside: at the end of the file, with a warning; anywhere else, only where the next
line names its byte offset in ``set_aside`` (the next ``tablectl anchor`` starts its line on a new
line, names the torn lines and links to the last whole line). Any other line that is not an
anchor is an error.

A file is never written past :data:`ANCHOR_FILE_BYTES` (16 MiB, about 54,000 lines): the line
that would take it past goes to the next file of its chain (``floor.jsonl``, ``floor.2.jsonl``,
``floor.3.jsonl``, ...), linked to the last line of the full one as if it followed it in the same
file. Readers given the first file read the whole chain (:func:`read_anchors`); a file missing
from the middle of the chain (a later one still there) breaks it. Appends are made one at a time
(:func:`locked`: an ``flock`` on the first file), so two ``tablectl anchor`` runs at once never
link to the same line. The files are made 0640 and never written through a link
(``tablectl.files``).
"""

from __future__ import annotations

import datetime as dt
import fcntl
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from tablectl.files import MAX_ANCHOR_BYTES, create_new, open_for_append_nofollow, read_regular

from .errors import LogInputError
from .logformat import GENESIS, digest
from .verify import Finding, VerifyReport

ANCHOR_FORMAT = 2
#: the format without ``prev``, still read at the start of a file
ANCHOR_FORMAT_UNCHAINED = 1
#: finding kind: the log no longer holds the head an anchor names (an integrity failure)
ANCHOR_MISSING = "anchor_missing"
#: finding kind: the anchor file's lines do not link (one inserted, moved or appended again)
ANCHOR_CHAIN = "anchor_chain"
#: no anchor file is written past this size: the next line goes to the next file of the chain
ANCHOR_FILE_BYTES = MAX_ANCHOR_BYTES
#: what an anchor file is made with: readable by surveillance's group, writable by its owner only
FILE_MODE = 0o640


@dataclass(frozen=True)
class Anchor:
    """One anchored checkpoint head."""

    table: str
    seq: int
    head: str
    key: str | None
    reason: str | None
    ts: str | None
    anchored_at: str

    def to_dict(self, prev: str, set_aside: list[int] | None = None) -> dict[str, Any]:
        """The anchor's line (format 2), linked to the last whole line before it by *prev*, naming
        the byte offsets of the torn lines between the two (*set_aside*), if any."""
        line = {"anchor": ANCHOR_FORMAT, "table": self.table, "seq": self.seq, "head": self.head, "key": self.key,
                "reason": self.reason, "ts": self.ts, "anchored_at": self.anchored_at, "prev": prev}
        if set_aside:
            line["set_aside"] = set_aside
        return line


def chain_file(first: Path, number: int) -> Path:
    """The *number*-th file of the anchor chain that starts at *first* (1: *first* itself):
    ``floor.jsonl``, ``floor.2.jsonl``, ``floor.3.jsonl``, ..."""
    first = Path(first)
    return first if number == 1 else first.with_name(f"{first.stem}.{number}{first.suffix}")


def _stray_files(first: Path, count: int) -> list[Path]:
    """Files named as the chain's after its *count* files (the chain then has a gap), in order."""
    pattern = re.compile(re.escape(first.stem) + r"\.([1-9][0-9]*)" + re.escape(first.suffix))
    try:
        names = os.listdir(first.parent)
    except OSError:
        return []
    found = sorted((int(m.group(1)), name) for name in names if (m := pattern.fullmatch(name)))
    return [first.with_name(name) for n, name in found if n > count]


class AnchorFile(list[Anchor]):
    """The anchors of one chain of anchor files (one file until the first is full), in file
    order, and what reading it found: the first break in the chain of its lines (an integrity
    finding), the byte offsets of torn lines at the end of its last file (set aside; the next
    line names them), and what the next line must link to."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = Path(path)
        #: the files read, the chain's first file (*path*) first
        self.files: list[Path] = []
        #: the size of the last file: the next line goes to the next file if it would pass the limit
        self.last_size = 0
        #: the first line that does not link to the line before it, if any
        self.broken: Finding | None = None
        #: byte offsets of the lines after the last whole line that are not anchors (a torn write)
        self.torn: list[int] = []
        #: the digest of the last whole line (GENESIS for an empty file): the next line's ``prev``
        self.tail = GENESIS
        #: False when the file does not end with a newline: the next line must start with one
        self.ends_whole = True


def _parse(line: bytes) -> dict[str, Any] | None:
    """The record of an anchor line (format 1 or 2), or None when *line* is not one."""
    try:
        rec = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(rec, dict) or type(rec.get("seq")) is not int or type(rec.get("table")) is not str:
        return None
    head = rec.get("head")
    if type(head) is not str or len(head) != 64:
        return None
    if rec.get("anchor") == ANCHOR_FORMAT:
        prev, set_aside = rec.get("prev"), rec.setdefault("set_aside", [])
        if type(prev) is not str or len(prev) != 64:
            return None
        return rec if type(set_aside) is list and all(type(o) is int for o in set_aside) else None
    return rec if rec.get("anchor") == ANCHOR_FORMAT_UNCHAINED else None


def read_anchors(path: Path) -> AnchorFile:
    """Every anchor in the chain of anchor files that starts at *path* (*path*, then
    ``<stem>.2<suffix>``, ... while they exist: :func:`chain_file`), in file order, with the
    chain's first break (see :class:`AnchorFile`); a chain file missing before a later one is a
    break too. Raises :class:`LogInputError` (one line) for a file that cannot be read, or a line
    that is not an anchor and that no later line sets aside."""
    out = AnchorFile(path)
    state = _Reading()
    number = 1
    while True:
        file = chain_file(out.path, number)
        if number > 1 and not os.path.lexists(file):
            break
        try:  # a FIFO or /dev/zero: refused, not read
            data = read_regular(file, "anchor file", MAX_ANCHOR_BYTES)
        except OSError as e:
            raise LogInputError(f"{file}: cannot read the anchor file: {e.strerror or e}") from None
        out.files.append(file)
        out.last_size = len(data)
        out.ends_whole = not data or data.endswith(b"\n")
        _read_lines(file, data, out, state)
        number += 1
    stray = _stray_files(out.path, len(out.files))
    if stray and out.broken is None:
        out.broken = Finding(ANCHOR_CHAIN, str(stray[0]), 1, None,
                             f"an anchor file after {chain_file(out.path, len(out.files) + 1).name}, which is missing: "
                             "a file of the anchor chain was removed")
    out.torn = [at for _, _, at in state.pending]
    return out


@dataclass
class _Reading:
    """Where reading a chain of anchor files is, across its files."""

    chained: bool = False  # a format 2 line has been read
    # (file, line number, byte offset) of the lines since the last anchor that are not anchors
    pending: list[tuple[Path, int, int]] = field(default_factory=list)


def _read_lines(path: Path, data: bytes, out: AnchorFile, state: _Reading) -> None:
    """The anchors of one file of the chain (*data*, read from *path*) added to *out*."""
    pending = state.pending
    offset = 0
    for n, line in enumerate(data.split(b"\n"), start=1):
        start, offset = offset, offset + len(line) + 1
        if not line.strip():
            continue
        rec = _parse(line)
        if rec is None:
            pending.append((path, n, start))
            continue
        if rec["anchor"] == ANCHOR_FORMAT:
            skipped = [at for _, _, at in pending]
            if pending and skipped != rec["set_aside"]:
                raise LogInputError(f"{pending[0][0]}:{pending[0][1]}: not an anchor line")
            if (rec["prev"] != out.tail or rec["set_aside"] != skipped) and out.broken is None:
                out.broken = Finding(ANCHOR_CHAIN, str(path), n, rec["seq"],
                                     "the anchor line does not link to the line before it (prev): a line of the "
                                     "anchor file was inserted, moved, removed or appended again")
            state.chained = True
        elif pending:
            raise LogInputError(f"{pending[0][0]}:{pending[0][1]}: not an anchor line")
        elif state.chained and out.broken is None:
            out.broken = Finding(ANCHOR_CHAIN, str(path), n, rec["seq"],
                                 "an unchained (format 1) anchor line after chained ones: a line of the anchor "
                                 "file was inserted or appended again")
        pending.clear()
        out.tail = digest(line)
        out.append(Anchor(rec["table"], rec["seq"], rec["head"], rec.get("key"), rec.get("reason"), rec.get("ts"),
                          str(rec.get("anchored_at"))))


def newest_anchor(anchors: list[Anchor], table: str | None) -> Anchor | None:
    """The anchor of *table* with the highest seq (the newest head the file knows), wherever it is
    in the file."""
    return max((a for a in anchors if a.table == table), key=lambda a: a.seq, default=None)


def check(report: VerifyReport, anchors: list[Anchor]) -> Finding | None:
    """The first integrity finding about the log in *report* against *anchors*, else None: the
    anchor file's chain broken (:class:`AnchorFile`), or the log no longer holding, at its seq,
    a head the anchors know for its table — the newest first (cut short, or replaced by another
    log), then every older one (of a ``--partial`` slice, those from its first seq on). An anchor
    file that knows nothing of the table is a finding too: it cannot vouch for this log."""
    if isinstance(anchors, AnchorFile) and anchors.broken is not None:
        return anchors.broken
    table = report.table
    where = report.files[-1] if report.files else "?"
    newest = newest_anchor(anchors, table)
    if newest is None:
        return Finding(ANCHOR_MISSING, where, 0, None, f"the anchor file holds no head of table {table}: nothing to check the log against")
    first = report.first_seq if report.first_seq is not None else 1
    older = sorted((a for a in anchors if a.table == table and a is not newest and a.seq >= first),
                   key=lambda a: a.seq, reverse=True)
    for anchor in (newest, *older):
        if report.heads.get(anchor.seq) == anchor.head:
            continue
        if report.last_seq is not None and report.last_seq < anchor.seq:
            why = f"the log ends at seq {report.last_seq}, before the anchored checkpoint at seq {anchor.seq}: it was cut short"
        else:
            why = (f"the log's line at seq {anchor.seq} is not the anchored checkpoint (head {anchor.head[:16]}...): "
                   "the log was replaced, or rewritten with the key")
        return Finding(ANCHOR_MISSING, where, 0, anchor.seq, f"{why} (anchored {anchor.anchored_at})")
    return None


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold the anchor chain that starts at *path* for one writer (an exclusive ``flock`` on its
    first file, made 0640 if missing, never through a link), until the block ends or the process
    dies. Read the chain again inside the block: a run that held it before may have appended."""
    path = Path(path)
    fd, made = open_for_append_nofollow(path, FILE_MODE, "anchor file")
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        if made:
            _fsync_dir(path.parent)
        yield
    finally:
        os.close(fd)  # releases the lock


def append_anchor(path: Path, anchor: Anchor, after: AnchorFile | None) -> Path:
    """Append *anchor* to the chain of anchor files that starts at *path*, linked to the last whole
    line of *after* (what :func:`read_anchors` read of it; None for a file that does not exist) and
    on a line of its own, and fsync it (and, for a new file, its directory); the file written.
    The line goes to the chain's last file, or to a new next file (:func:`chain_file`) when it
    would take the last one past :data:`ANCHOR_FILE_BYTES`. Files are made 0640 and never written
    through a link. Hold :func:`locked` around reading *after* and this. Raises OSError."""
    path = Path(path)
    line = orjson.dumps(anchor.to_dict(after.tail, after.torn) if after is not None else anchor.to_dict(GENESIS)) + b"\n"
    target, size = (after.files[-1], after.last_size) if after is not None and after.files else (path, 0)
    if size and size + len(line) + 1 > ANCHOR_FILE_BYTES:  # full: the chain goes on in the next file
        target = chain_file(path, len(after.files) + 1) if after is not None else path
        fd, new = create_new(target, FILE_MODE, "anchor file", os.O_WRONLY | os.O_APPEND), True
    else:
        if after is not None and not after.ends_whole:
            line = b"\n" + line
        fd, new = open_for_append_nofollow(target, FILE_MODE, "anchor file")
    try:
        view = memoryview(line)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)
    if new:
        _fsync_dir(target.parent)
    return target


def _fsync_dir(directory: Path) -> None:
    dfd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


def now() -> str:
    """The current UTC time as the log writes it."""
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
