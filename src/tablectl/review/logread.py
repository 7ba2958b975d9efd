"""Read a card event log's lines as dicts, fast, in batches — for replay, not for verification.

Verification (``tablectl.eventlog.verify``) hashes raw bytes and parses almost nothing; replay
needs every line's fields. Parsing line by line costs one ``orjson.loads`` call per line; parsing
a whole chunk as one JSON array (``[line,line,...]``) moves that loop into C and is about twice
as fast. A chunk that does not parse as an array (a line that is not JSON, or fragments that
happen to join) is parsed again line by line, and unreadable lines are reported, not fatal: a
log that failed verification can still be read as far as it goes.

:class:`LogReader` also remembers, per file, the first seq and line count, so that a seq can be
turned back into ``file:line`` for the report without tracking every line's position.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

_CHUNK = 1 << 20


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A complete line that is not a JSON object (only in a log that fails verification)."""

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
    """Iterate the records of *files* (in log order) in batches; then locate seqs in them."""

    files: list[Path]
    unreadable: list[Unreadable] = field(default_factory=list)
    torn: list[tuple[str, int]] = field(default_factory=list)  # (file, bytes) of a trailing partial line
    lines: int = 0
    _spans: list[_FileSpan] = field(default_factory=list)
    _starts: list[int] = field(default_factory=list)

    def batches(self) -> Iterator[list[dict[str, Any]]]:
        """Lists of records, in log order; every record is a dict with at least ``seq`` and ``event``."""
        loads = orjson.loads
        for path in self.files:
            span = _FileSpan(str(path))
            self._spans.append(span)
            lineno = 0
            with open(path, "rb") as f:
                rest = b""
                while chunk := f.read(_CHUNK):
                    parts = (rest + chunk if rest else chunk).split(b"\n")
                    rest = parts.pop()
                    if not parts:
                        continue
                    try:
                        records = loads(b"[" + b",".join(parts) + b"]")
                    except orjson.JSONDecodeError:
                        records = None
                    if records is None or len(records) != len(parts) or not _all_records(records):
                        records = self._slow(span, parts, lineno)
                    elif span.first_seq is None:
                        span.first_seq = records[0]["seq"]
                        span.first_line = lineno + 1
                    lineno += len(parts)
                    if records:
                        if span.regular and span.first_seq is not None:
                            expect = span.first_seq + lineno - span.first_line
                            if records[-1]["seq"] != expect:
                                span.regular = False
                        yield records
            if rest:
                self.torn.append((str(path), len(rest)))
            span.lines = lineno
            self.lines += lineno
        self._starts = [s.first_seq if s.first_seq is not None else -1 for s in self._spans]

    def _slow(self, span: _FileSpan, parts: list[bytes], lineno: int) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for i, line in enumerate(parts, start=lineno + 1):
            try:
                record = orjson.loads(line)
            except orjson.JSONDecodeError:
                record = None
            if not isinstance(record, dict) or not isinstance(record.get("seq"), int) or not isinstance(record.get("event"), str):
                span.regular = False
                self.unreadable.append(Unreadable(span.path, i, line[:80].decode("utf-8", "replace")))
                continue
            if span.first_seq is None:
                span.first_seq = record["seq"]
                span.first_line = i
            out.append(record)
        return out

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


def _all_records(records: list[Any]) -> bool:
    for r in records:
        if type(r) is not dict or "event" not in r or "seq" not in r:
            return False
    return True
