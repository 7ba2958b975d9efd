"""The collector's journal of held lines: what arrived and waits for its signature, on disk.

A line is acknowledged to the stream once it is written here and fsynced (or in the copy), so a
collector killed at any moment loses nothing the stream let go of. One append-only file for every
table, ``<table>\\t<file>\\t<stream seq>\\t<line>\\n`` per held line (a log line holds no newline;
table and file names no tab; the stream's sequence number of the message the line came in, which
tells the stream's redelivery of it from a replay; a record an earlier tablectl wrote has none,
read as 0), fsynced once per batch. :meth:`Journal.compact` rewrites it with only the lines
still held (a temporary file under a random name renamed over it), at the start and whenever it has grown.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from tablectl.files import NewFile, open_existing, open_for_append_nofollow

JOURNAL_MODE = 0o600
WHAT = "collector's journal"


class Journal:
    """``path``: the journal file (its folder is made)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fd = open_for_append_nofollow(self.path, JOURNAL_MODE, WHAT)[0]
        self._buffer: list[bytes] = []
        self.size = os.fstat(self._fd).st_size

    def read(self) -> Iterator[tuple[str, str, bytes]]:
        """Every complete record: ``(table, file, line)`` (a torn last record is skipped)."""
        for table, file, line, _ in self.records():
            yield table, file, line

    def records(self) -> Iterator[tuple[str, str, bytes, int]]:
        """Every complete record with its stream sequence number: ``(table, file, line, stream seq)``."""
        data = self.path.read_bytes()
        for record in data.split(b"\n")[:-1]:
            parts = record.split(b"\t", 3)
            if len(parts) == 4 and parts[2].isdigit():  # a line starts with "{", never a digit
                table, file, line, stream_seq = parts[0], parts[1], parts[3], int(parts[2])
            elif len(parts) >= 3:
                table, file, line, stream_seq = parts[0], parts[1], record.split(b"\t", 2)[2], 0
            else:
                continue
            yield table.decode("utf-8", "replace"), file.decode("utf-8", "replace"), line, stream_seq

    def add(self, table: str, file: str, line: bytes, stream_seq: int = 0) -> None:
        """Journal a held line, with the stream's sequence number of its message (written at the
        next :meth:`sync`)."""
        self._buffer.append(_record(table, file, line, stream_seq))

    def sync(self) -> None:
        """Write what was added and fsync it."""
        if not self._buffer:
            return
        data = memoryview(b"".join(self._buffer))
        self._buffer.clear()
        self.size += len(data)
        while data:
            n = os.write(self._fd, data)
            data = data[n:]
        os.fsync(self._fd)

    def compact(self, held: Iterable[tuple[str, str, bytes, int] | tuple[str, str, bytes]]) -> None:
        """Rewrite the journal with only ``held``: ``(table, file, line[, stream seq])``."""
        self.sync()
        with NewFile(self.path.parent, JOURNAL_MODE, what=WHAT) as new:  # random O_EXCL name, fsynced
            new.file.write(b"".join(_record(*h) for h in held))
            new.commit(self.path.name)
        os.close(self._fd)
        self._fd = open_existing(self.path, os.O_WRONLY | os.O_APPEND, WHAT)
        self.size = os.fstat(self._fd).st_size

    def close(self) -> None:
        self.sync()
        os.close(self._fd)


def _record(table: str, file: str, line: bytes, stream_seq: int = 0) -> bytes:
    return b"%s\t%s\t%d\t%s\n" % (table.encode(), file.encode(), stream_seq, line)


__all__ = ["Journal"]
