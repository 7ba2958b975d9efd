"""External anchors of a log's checkpoint heads: what catches a log cut short or replaced whole.

A signed log proves that its lines are the table's, but not that it is the *whole* log: deleting
the last session's files, or putting an older log of the same table and key in its place, leaves
a log that verifies. An anchor file kept elsewhere (another machine, write-once storage) records,
each time ``tablectl anchor`` runs, the last signed checkpoint of each table's log: its ``seq``,
the BLAKE2b-256 digest of its line (the "head"; it covers every line before it through the chain)
and the fingerprint of the key that signed it. ``tablectl review --anchor FILE`` then checks that
the last head the file knows for the table is still in the log, at its seq.

The file is JSON lines, one anchor per line, appended only (``O_APPEND``) and fsynced after each
write (and its directory when the file is new)::

    {"anchor":1,"table":"T1","seq":4490,"head":"<64 hex>","key":"0bb0f64bbb96471e","reason":"shutdown","ts":"<checkpoint ts>","anchored_at":"<UTC>"}
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from .errors import LogInputError
from .verify import Finding, VerifyReport

ANCHOR_FORMAT = 1
#: finding kind: the log no longer holds the head an anchor names (an integrity failure)
ANCHOR_MISSING = "anchor_missing"


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

    def to_dict(self) -> dict[str, Any]:
        return {"anchor": ANCHOR_FORMAT, "table": self.table, "seq": self.seq, "head": self.head, "key": self.key,
                "reason": self.reason, "ts": self.ts, "anchored_at": self.anchored_at}


def read_anchors(path: Path) -> list[Anchor]:
    """Every anchor in *path*, in file order. Raises :class:`LogInputError` (one line) for a file
    that cannot be read or a line that is not an anchor."""
    try:
        from tablectl.files import MAX_ANCHOR_BYTES, read_regular  # a FIFO or /dev/zero: refused, not read
        data = read_regular(path, "anchor file", MAX_ANCHOR_BYTES)
    except OSError as e:
        raise LogInputError(f"{path}: cannot read the anchor file: {e.strerror or e}") from None
    out = []
    for n, line in enumerate(data.split(b"\n"), start=1):
        if not line.strip():
            continue
        try:
            rec = orjson.loads(line)
            if rec.get("anchor") != ANCHOR_FORMAT or type(rec["seq"]) is not int or type(rec["table"]) is not str:
                raise ValueError
            head = rec["head"]
            if type(head) is not str or len(head) != 64:
                raise ValueError
            out.append(Anchor(rec["table"], rec["seq"], head, rec.get("key"), rec.get("reason"), rec.get("ts"),
                              str(rec.get("anchored_at"))))
        except (orjson.JSONDecodeError, ValueError, KeyError, TypeError, AttributeError):
            raise LogInputError(f"{path}:{n}: not an anchor line") from None
    return out


def last_anchor(anchors: list[Anchor], table: str | None) -> Anchor | None:
    """The last anchor of *table* (the newest head the file knows)."""
    return next((a for a in reversed(anchors) if a.table == table), None)


def check(report: VerifyReport, anchors: list[Anchor]) -> Finding | None:
    """The integrity finding when the log in *report* does not hold the last head *anchors* know
    for its table (truncated, or replaced by another log), else None. An anchor file that knows
    nothing of the table is a finding too: it cannot vouch for this log."""
    table = report.table
    where = report.files[-1] if report.files else "?"
    anchor = last_anchor(anchors, table)
    if anchor is None:
        return Finding(ANCHOR_MISSING, where, 0, None, f"the anchor file holds no head of table {table}: nothing to check the log against")
    found = report.heads.get(anchor.seq)
    if found == anchor.head:
        return None
    if report.last_seq is not None and report.last_seq < anchor.seq:
        why = f"the log ends at seq {report.last_seq}, before the anchored checkpoint at seq {anchor.seq}: it was cut short"
    else:
        why = (f"the log's line at seq {anchor.seq} is not the anchored checkpoint (head {anchor.head[:16]}...): "
               "the log was replaced, or rewritten with the key")
    return Finding(ANCHOR_MISSING, where, 0, anchor.seq, f"{why} (anchored {anchor.anchored_at})")


def append_anchor(path: Path, anchor: Anchor) -> None:
    """Append *anchor* to the file at *path* (created 0640 if need be) and fsync it (and, for a
    new file, its directory). Raises OSError."""
    path = Path(path)
    new = not path.exists()
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o640)
    try:
        data = orjson.dumps(anchor.to_dict()) + b"\n"
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
