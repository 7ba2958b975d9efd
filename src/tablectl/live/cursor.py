"""Following a table's log files as the writer fsyncs them: the publisher's cursor.

The cursor names the last line the stream acknowledged: its file, the offset after it, its seq.
:class:`LogFollower` reads the complete lines after the cursor (``tablectl-<table>-NNNNNN.jsonl``
in number order, never the bytes after a file's last newline: a line still being written, or a
torn piece the writer sets aside at its next start) and moves the cursor only when told.

Pure parts, tested from plain values: :func:`complete_lines`, :func:`next_read`, the cursor's
encoding. The cursor is kept in ``.tablectl-<table>.published`` beside the log (a dot file, which
every log reader ignores), so a restarted publisher goes on where the stream last acknowledged;
written without fsync (a cursor a crash sets back only sends lines again, which the stream drops
as duplicates within its window and the collector knows as lines it has).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import orjson

from tablectl.eventlog import logformat as fmt
from tablectl.files import atomic_write

CURSOR_MODE = 0o644


@dataclass(frozen=True)
class Cursor:
    """The last line published and acknowledged: ``file`` (a name), ``offset`` (bytes of that file
    up to and including the line's newline), ``seq``. ``Cursor()``: nothing published yet."""

    file: str | None = None
    offset: int = 0
    seq: int = 0

    def encode(self) -> bytes:
        return orjson.dumps({"file": self.file, "offset": self.offset, "seq": self.seq})

    @classmethod
    def decode(cls, data: bytes) -> Cursor:
        """The cursor in ``data``; ``ValueError`` for anything that is not one."""
        try:
            raw = orjson.loads(data)
        except orjson.JSONDecodeError:
            raise ValueError("not a cursor (not JSON)") from None
        if not isinstance(raw, dict):
            raise ValueError("not a cursor")  # noqa: TRY004 - bad input, as every other way a cursor is not one
        file, offset, seq = raw.get("file"), raw.get("offset"), raw.get("seq")
        if not (file is None or (isinstance(file, str) and fmt.parse_file_name(file) is not None)):
            raise ValueError("cursor: file is not a log file name")
        if type(offset) is not int or type(seq) is not int or offset < 0 or seq < 0:
            raise ValueError("cursor: offset and seq must be whole numbers")
        return cls(file, offset, seq)


@dataclass(frozen=True)
class Line:
    """One complete log line to publish: its file's name, the offset after its newline, its seq."""

    file: str
    end: int
    seq: int
    data: bytes


def complete_lines(data: bytes) -> list[bytes]:
    """The complete lines in ``data`` (without their newlines): never the bytes after the last one."""
    end = data.rfind(b"\n")
    return data[:end].split(b"\n") if end >= 0 else []


def next_read(files: list[str], cursor: Cursor) -> tuple[int, int] | None:
    """Where reading goes on: ``(index into files, offset)``, or None when there is no file.

    ``files``: the table's log file names in number order. The cursor's own file from its offset;
    a cursor whose file is gone, from the first file after it; no cursor, from the first file."""
    if not files:
        return None
    if cursor.file is None:
        return 0, 0
    if cursor.file in files:
        return files.index(cursor.file), cursor.offset
    later = [i for i, name in enumerate(files) if name > cursor.file]
    return (later[0], 0) if later else None


class LogFollower:
    """The complete lines of ``table``'s log in ``log_dir`` after the cursor, in order."""

    def __init__(self, log_dir: Path, table: str, cursor: Cursor | None = None, block: int = 1 << 20) -> None:
        self.dir, self.table = Path(log_dir), table
        self.cursor = cursor if cursor is not None else Cursor()
        self.block = block

    def files(self) -> list[str]:
        try:
            return [p.name for p in fmt.log_files(self.dir, self.table).get(self.table, [])]
        except FileNotFoundError:
            return []

    def pending(self, limit: int = 512) -> list[Line]:
        """Up to ``limit`` complete lines after the cursor (the cursor does not move)."""
        files = self.files()  # listed before reading: a file that has a newer one is complete
        start = next_read(files, self.cursor)
        if start is None:
            return []
        index, offset = start
        out: list[Line] = []
        while len(out) < limit:
            name = files[index]
            with open(self.dir / name, "rb") as f:
                f.seek(offset)
                data = f.read(self.block)
            lines = complete_lines(data)
            for line in lines:
                offset += len(line) + 1
                head = fmt.split_head(line)
                out.append(Line(name, offset, head[0] if head else 0, line))
                if len(out) >= limit:
                    return out
            if lines and len(data) == self.block:
                continue  # more of this file
            if index + 1 < len(files):  # the writer has gone on to a newer file: this one is done
                index, offset = index + 1, 0
                continue
            return out
        return out

    def advance(self, line: Line) -> None:
        """The stream acknowledged ``line``: the cursor moves past it."""
        self.cursor = Cursor(line.file, line.end, line.seq)

    def last_seq(self) -> int:
        """The seq of the log's last complete line (0: none), read from the end of its last file."""
        for name in reversed(self.files()):
            path = self.dir / name
            try:
                with open(path, "rb") as f:
                    size = f.seek(0, os.SEEK_END)
                    f.seek(max(0, size - 8192))
                    data = f.read()
            except OSError:
                continue
            lines = complete_lines(data)
            for line in reversed(lines):
                head = fmt.split_head(line)
                if head is not None:
                    return head[0]
        return 0


def cursor_path(log_dir: Path, table: str) -> Path:
    """``.tablectl-<table>.published`` in the log folder."""
    return Path(log_dir) / f".tablectl-{table}.published"


def load_cursor(path: Path) -> Cursor:
    """The saved cursor, or ``Cursor()`` when there is none (a cursor that is not one: ``ValueError``)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return Cursor()
    return Cursor.decode(data)


def save_cursor(path: Path, cursor: Cursor) -> None:
    """Write the cursor whole (a random ``O_EXCL`` temporary file renamed over it, never through a
    link: :class:`tablectl.files.LinkRefusedError` for a link at ``path``)."""
    atomic_write(path, cursor.encode(), CURSOR_MODE, what="publisher's cursor", durable=False)


__all__ = ["Cursor", "Line", "LogFollower", "complete_lines", "cursor_path", "load_cursor", "next_read", "save_cursor"]
