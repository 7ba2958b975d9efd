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
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

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


class AnchorFile(list[Anchor]):
    """The anchors of one file, in file order, and what reading it found: the first break in the
    chain of its lines (an integrity finding), the byte offsets of torn lines at its end (set
    aside; the next line names them), and what the next line must link to."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = Path(path)
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
    """Every anchor in *path*, in file order, with the chain's first break (see
    :class:`AnchorFile`). Raises :class:`LogInputError` (one line) for a file that cannot be read,
    or a line that is not an anchor and that no later line sets aside."""
    try:
        from tablectl.files import MAX_ANCHOR_BYTES, read_regular  # a FIFO or /dev/zero: refused, not read
        data = read_regular(path, "anchor file", MAX_ANCHOR_BYTES)
    except OSError as e:
        raise LogInputError(f"{path}: cannot read the anchor file: {e.strerror or e}") from None
    out = AnchorFile(path)
    out.ends_whole = not data or data.endswith(b"\n")
    chained = False
    pending: list[tuple[int, int]] = []  # (line number, byte offset) of lines that are not anchors
    offset = 0
    for n, line in enumerate(data.split(b"\n"), start=1):
        start, offset = offset, offset + len(line) + 1
        if not line.strip():
            continue
        rec = _parse(line)
        if rec is None:
            pending.append((n, start))
            continue
        if rec["anchor"] == ANCHOR_FORMAT:
            skipped = [at for _, at in pending]
            if pending and skipped != rec["set_aside"]:
                raise LogInputError(f"{path}:{pending[0][0]}: not an anchor line")
            if (rec["prev"] != out.tail or rec["set_aside"] != skipped) and out.broken is None:
                out.broken = Finding(ANCHOR_CHAIN, str(path), n, rec["seq"],
                                     "the anchor line does not link to the line before it (prev): a line of the "
                                     "anchor file was inserted, moved, removed or appended again")
            chained = True
        elif pending:
            raise LogInputError(f"{path}:{pending[0][0]}: not an anchor line")
        elif chained and out.broken is None:
            out.broken = Finding(ANCHOR_CHAIN, str(path), n, rec["seq"],
                                 "an unchained (format 1) anchor line after chained ones: a line of the anchor "
                                 "file was inserted or appended again")
        pending.clear()
        out.tail = digest(line)
        out.append(Anchor(rec["table"], rec["seq"], rec["head"], rec.get("key"), rec.get("reason"), rec.get("ts"),
                          str(rec.get("anchored_at"))))
    out.torn = [at for _, at in pending]
    return out


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


def append_anchor(path: Path, anchor: Anchor, after: AnchorFile | None) -> None:
    """Append *anchor* to the file at *path* (created 0640 if need be), linked to the last whole
    line of *after* (what :func:`read_anchors` read of it; None for a file that does not exist) and
    on a line of its own, and fsync it (and, for a new file, its directory). Raises OSError."""
    path = Path(path)
    new = not path.exists()
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o640)
    try:
        line = anchor.to_dict(after.tail, after.torn) if after is not None else anchor.to_dict(GENESIS)
        data = orjson.dumps(line) + b"\n"
        if after is not None and not after.ends_whole:
            data = b"\n" + data
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)
    if new:
        dfd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)


def now() -> str:
    """The current UTC time as the log writes it."""
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
