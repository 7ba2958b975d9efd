"""Read a card event log's lines as dicts, fast, a block at a time — for the reconstruction.

:class:`LogReader` is a :class:`tablectl.eventlog.verify.LineSink`: ``verify.scan`` hands it every
block of lines (about 64 KiB) right after verifying it, so the file is read once and each line's
bytes are hashed, checked and parsed while they are still in the CPU cache. :meth:`LogReader.read`
reads the files without verifying (nor splitting a block into lines, which only the verification
needs): the review of a large log does that while a forked worker process verifies the same files
(``tablectl.review.engine``).

Parsing line by line costs one ``orjson.loads`` call per line; a block is parsed as one JSON array
(``[line,<newline>line,...]``), which moves that loop into C, and the same text tells how many lines
the block holds (:func:`~tablectl.eventlog.verify.read_blocks` does not count them). A block that
does not parse as an array of as many items as it has lines (a line that is not JSON, or fragments
that happen to join) is parsed again line by line, and unreadable lines are reported, not fatal: a
log that failed verification can still be read as far as it goes.

:class:`LogReader` also remembers, per file, the first seq and line count, so that a seq can be
turned back into ``file:line`` for the report without tracking every line's position.
"""

from __future__ import annotations

import bisect
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from tablectl.eventlog.verify import read_blocks
from tablectl.review.records import block_ok, problem

Records = list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A complete line that is not a record of the log: not JSON, or a record whose fields do not
    have the types of its kind (``tablectl.review.records``); *text* says what is wrong."""

    file: str
    line: int
    text: str


@dataclass(slots=True)
class _FileSpan:
    path: str
    first_seq: int | None = None  # seq of the first readable line
    first_line: int = 1  # its line number
    lines: int = 0
    regular: bool = True  # seq == first_seq + (line - first_line) for every line of the file


@dataclass
class LogReader:
    """Parse the lines of *files* (in log order) a block at a time and hand the records to *feed*;
    then locate seqs in the files."""

    files: list[Path]
    feed: Callable[[Records], None]
    unreadable: list[Unreadable] = field(default_factory=list)
    torn: list[tuple[str, int]] = field(default_factory=list)  # (file, bytes) of a trailing partial line
    lines: int = 0
    bytes_read: int = 0  # of complete lines (and their newlines) handed over so far
    _spans: list[_FileSpan] = field(default_factory=list)
    _starts: list[int] = field(default_factory=list)

    def read(self) -> None:
        """Read the files without verifying them (:func:`tablectl.eventlog.verify.scan` does both)."""
        read_blocks(self.files, self)

    # ------------------------------------------------------------------ LineSink

    def block(self, file_index: int, lineno: int, count: int | None, data: bytes, lines: list[bytes] | None) -> int:
        spans = self._spans
        while len(spans) <= file_index:
            spans.append(_FileSpan(str(self.files[len(spans)])))
        span = spans[file_index]
        self.bytes_read += len(data) + 1
        records, count = self._parse(data, count)
        seqs = _seqs(records) if records is not None and len(records) == count else None
        if seqs is not None and not block_ok(records, list(map(_EVENT, records))):  # type: ignore[arg-type]
            seqs = None  # a record not of its kind's types: the slow path says which and why
        if seqs is not None:
            first = span.first_seq
            start = seqs[0] if first is None else first + lineno + 1 - span.first_line  # line lineno + 1's seq
            if type(start) is not int or seqs != list(range(start, start + count)):
                # not numbered line by line (only in a damaged log or a slice): a record whose seq
                # is not a number is unreadable, as the slow path says
                if all(type(s) is int for s in seqs):
                    span.regular = False
                else:
                    seqs = None
        if seqs is None:
            records = self._slow(span, data.split(b"\n") if lines is None else lines, lineno)
            if span.regular and span.first_seq is not None and records:
                start = span.first_seq + lineno + 1 - span.first_line
                if list(map(_SEQ, records)) != list(range(start, start + count)):
                    span.regular = False
        elif span.first_seq is None:
            span.first_seq = seqs[0]
            span.first_line = lineno + 1
        if records:
            self.feed(records)
        return count

    @staticmethod
    def _parse(data: bytes, count: int | None) -> tuple[list[Any] | None, int]:
        """The block's lines parsed as the items of one JSON array (None if that text is not JSON),
        and the number of lines (*count*, when the caller counted them).

        A comma goes before every newline (which JSON reads as white space, and refuses inside a
        string). One byte replaced by two makes the text longer by the number of newlines: the
        count, without another pass over the bytes."""
        items = data.replace(b"\n", b",\n")
        if count is None:
            count = len(items) - len(data) + 1
        try:
            return orjson.loads(b"".join((b"[", items, b"]"))), count
        except orjson.JSONDecodeError:
            return None, count

    def end_file(self, file_index: int, lines: int, torn: int) -> None:
        spans = self._spans
        while len(spans) <= file_index:
            spans.append(_FileSpan(str(self.files[len(spans)])))
        span = spans[file_index]
        if torn:
            self.torn.append((span.path, torn))
        span.lines = lines
        self.lines += lines
        self._starts = [s.first_seq if s.first_seq is not None else -1 for s in spans]

    def _slow(self, span: _FileSpan, parts: list[bytes], lineno: int) -> Records:
        out: Records = []
        for i, line in enumerate(parts, start=lineno + 1):
            try:
                record = orjson.loads(line)
            except orjson.JSONDecodeError:
                record = None
            if record is None:
                why: str | None = f"not JSON: {line[:60].decode('utf-8', 'replace')!r}"
            else:
                why = problem(record)
            if why is not None:
                span.regular = False
                self.unreadable.append(Unreadable(span.path, i, why))
                continue
            if span.first_seq is None:
                span.first_seq = record["seq"]
                span.first_line = i
            out.append(record)
        return out

    # ------------------------------------------------------------------ locating

    def locate(self, seq: int | None) -> tuple[str, int] | None:
        """``(file, line)`` of the line carrying *seq*, when it can be told without a re-read."""
        if seq is None or not self._spans:
            return None
        i = bisect.bisect_right(self._starts, seq) - 1
        if i < 0:
            return None
        span = self._spans[i]
        if span.first_seq is None or not span.regular:
            return None
        line = span.first_line + seq - span.first_seq
        if line > span.lines:
            return None
        return span.path, line


def orjson_keys(*names: str) -> tuple[str, ...]:
    """*names* as the very str objects orjson makes the keys of the dicts it parses.

    orjson keeps one str object per key name (a cache of some two thousand names) and gives it to
    every dict it parses; a dict looks a key up by identity before it compares the text. A field
    looked up with orjson's own key object skips the comparison, a third of a lookup in a parsed
    line's dict. Equal strings either way: should orjson make another object for a name (one
    that shares its place in the cache came in between), the lookup compares the text, as before.
    """
    return tuple(orjson.loads(orjson.dumps(dict.fromkeys(names))))


_SEQ = operator.itemgetter(*orjson_keys("seq"))
_EVENT = operator.itemgetter(*orjson_keys("event"))


def _seqs(records: list[Any]) -> list[Any] | None:
    """Every record's ``seq``, if every record is a dict with ``seq`` and a string ``event``; else
    None (the block is then read line by line, and such a line reported as unreadable).

    Two C-level passes (this runs on every block): only a JSON object can be indexed by ``"seq"``
    or ``"event"`` (a list, a string or a number raises TypeError, an object without the key
    KeyError); the set of event names (hashing them now costs nothing: the reconstruction looks
    each one up by its name next) must hold only strings."""
    try:
        events = set(map(_EVENT, records))  # TypeError too for an unhashable event (a list, an object)
        seqs = list(map(_SEQ, records))
    except (KeyError, TypeError):
        return None
    if not all(type(e) is str for e in events):
        return None
    return seqs
