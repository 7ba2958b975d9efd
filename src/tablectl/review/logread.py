"""Read a card event log's lines as typed records, fast, a block at a time — for the reconstruction.

:class:`LogReader` is a :class:`tablectl.eventlog.verify.LineSink`: ``verify.scan`` hands it every
block of lines (about 64 KiB) right after verifying it, so the file is read once and each line's
bytes are hashed, checked and parsed while they are still in the CPU cache. :meth:`LogReader.read`
reads the files without verifying (nor splitting a block into lines, which only the verification
needs): the review of a large log does that while a forked worker process verifies the same files
(``tablectl.review.engine``).

A block is parsed as one JSON array (``[line,<newline>line,...]``) into the records' Structs
(:func:`tablectl.eventlog.records.decode_block`), which moves the loop over its lines and the check of
every field's type into C, and the same text tells how many lines the block holds
(:func:`~tablectl.eventlog.verify.read_blocks` does not count them). A block that does not parse
so as an array of as many items as it has lines (a line that is not JSON or not a record of its
kind, a kind the schema does not name, fragments that happen to join) is read again line by line
(:func:`~tablectl.eventlog.records.read_line`), and unreadable lines are reported, not fatal: a log
that failed verification can still be read as far as it goes.

:class:`LogReader` also remembers, per file, the first seq and line count, so that a seq can be
turned back into ``file:line`` for the report without tracking every line's position.
"""

from __future__ import annotations

import bisect
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tablectl.eventlog.records import NOT_RECORDS, Envelope, decode_block, read_line
from tablectl.eventlog.verify import read_blocks

Records = list[Envelope]


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A complete line that is not a record of the log: not JSON, or a record whose fields do not
    have the types of its kind (``tablectl.eventlog.records``); *text* says what is wrong."""

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
        seqs = list(map(_SEQ, records)) if records is not None and len(records) == count else None
        if seqs is None:
            records = self._slow(span, data.split(b"\n") if lines is None else lines, lineno)
            if span.regular and span.first_seq is not None and records:
                start = span.first_seq + lineno + 1 - span.first_line
                if list(map(_SEQ, records)) != list(range(start, start + count)):
                    span.regular = False
        else:
            if span.first_seq is None:
                span.first_seq, span.first_line = seqs[0], lineno + 1
            start = span.first_seq + lineno + 1 - span.first_line  # line lineno + 1's seq
            if seqs != list(range(start, start + count)):  # not numbered line by line: a damaged log or a slice
                span.regular = False
        if records:
            self.feed(records)
        return count

    @staticmethod
    def _parse(data: bytes, count: int | None) -> tuple[Records | None, int]:
        """The block's lines parsed as the records of one JSON array (None if that text is not an
        array of records), and the number of lines (*count*, when the caller counted them).

        A comma goes before every newline (which JSON reads as white space, and refuses inside a
        string). One byte replaced by two makes the text longer by the number of newlines: the
        count, without another pass over the bytes."""
        items = data.replace(b"\n", b",\n")
        if count is None:
            count = len(items) - len(data) + 1
        try:
            return decode_block(b"".join((b"[", items, b"]"))), count
        except NOT_RECORDS:
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
            record = read_line(line)
            if isinstance(record, str):
                span.regular = False
                self.unreadable.append(Unreadable(span.path, i, record))
                continue
            if span.first_seq is None:
                span.first_seq = record.seq
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


_SEQ = operator.attrgetter("seq")
