"""A table's copy on the collector's disk: ``DIR/<table>/``, the table's own file names, byte for byte.

Only :class:`TableCopy` writes there, and only whole runs of lines a verified signature covers
(``tablectl.live.chain``), each run written and fsynced before it is acknowledged; so the copy
always ends at a signed checkpoint, and ``tablectl review DIR/<table>`` verifies it as it stands.
The head it ended at is kept in ``.collect-head.json`` beside it (a dot file, which log readers
ignore), with the highest stream sequence number a line was taken from (``stream_seq``: a message
delivered again after a restart is told from one sent anew by it), so a restart does not read the whole copy again: it checks the head against the copy's
last line and verifies only the lines after it (a crash between the copy's fsync and the head's
write), or the whole copy when the head is missing or does not match. Lines after the last signed
one (a run the collector was killed while writing: the rest of it is in its journal) are cut.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import orjson

from tablectl.eventlog import logformat as fmt
from tablectl.eventlog.trust import Trust
from tablectl.eventlog.verify import (
    NOT_CLOSED,
    UNSIGNED_TAIL,
    ChainHead,
    LineVerifier,
    verify,
)
from tablectl.files import (
    atomic_write,
    open_dir,
    open_existing,
    open_for_append_nofollow,
)

from .chain import Head

HEAD_FILE = ".collect-head.json"
FILE_MODE = 0o644  # the copy's files and its head
DIR_MODE = 0o755  # the copy's folders, made if missing


class CopyError(RuntimeError):
    """A copy that cannot be gone on from (it does not verify, or cannot be written): one line."""


class TableCopy:
    """``root/<table>/``: open it (:meth:`open`), append verified runs (:meth:`append`)."""

    def __init__(self, root: Path, table: str) -> None:
        self.table = table
        self.root = Path(root)
        self.dir = self.root / table
        self._fd: int | None = None
        self._fd_name: str | None = None
        self._first_seqs: dict[str, int] = {}  # file name -> its first line's seq (digest_at)

    def files(self) -> list[Path]:
        if not self.dir.is_dir():
            return []
        return fmt.log_files(self.dir, self.table).get(self.table, [])

    # ------------------------------------------------------------------ open

    def open(self, trust: Trust | None) -> tuple[LineVerifier, Head]:
        """Repair what a crash left (bytes after the last newline, an empty last file), then the
        verifier and head to go on from. :class:`CopyError` when the copy does not verify."""
        os.close(open_dir(self.dir, within=self.root, mode=DIR_MODE))  # the table's folder: never a link
        files = self.files()
        while files and files[-1].stat().st_size == 0:
            files.pop().unlink()
        if files:
            _cut_torn_tail(files[-1])
        if not files:
            return LineVerifier(trust), Head()
        last_name, last_seq, last_digest, last_lines = _last_line(files[-1])
        saved = self._read_head()
        verifier: LineVerifier | None = None
        if saved is not None and saved.seq <= last_seq and saved.file is not None:
            at = self.digest_at(saved.seq)
            if at == saved.digest:
                verifier = LineVerifier(trust, saved)
                rest = list(self._lines_after(saved.seq))
                if rest and not verifier.advance(rest).accepted:
                    verifier = None
        if verifier is None:
            report = verify(files, trust)
            if _only_unsigned_tail(report):
                # lines written after the last signed one: a run the collector was writing when it was
                # killed (the rest of it is still in its journal): cut back to the signed line
                self._cut_after(report.signed_seq)
                return self.open(trust)
            try:
                head = ChainHead.of(report)
            except ValueError:
                first = report.integrity_failures[0] if report.integrity_failures else None
                raise CopyError(f"{self.dir}: the copy does not verify up to a signed line"
                                f"{': ' + str(first) if first else ''}; move it aside to collect it again") from None
            verifier = LineVerifier(trust, ChainHead(head.table, head.seq, head.digest, head.reason, head.keys,
                                                     last_name, last_lines))
        head = verifier.head
        if head.seq != last_seq or head.digest != last_digest:
            raise CopyError(f"{self.dir}: the copy's last line is not where its verification ends")
        parsed = fmt.parse_file_name(last_name)
        assert parsed is not None
        stream_seq = self._read_stream_seq()
        self._write_head(verifier.head, stream_seq)
        return verifier, Head(head.seq, head.digest, last_name, parsed[1], stream_seq)

    def _cut_after(self, seq: int) -> None:
        """Truncate the copy after its line ``seq`` (0: remove every file), fsynced."""
        for path in reversed(self.files()):
            lines = path.read_bytes().split(b"\n")[:-1]
            keep = 0
            for line in lines:
                head = fmt.split_head(line)
                if head is None or head[0] > seq:
                    break
                keep += len(line) + 1
            if keep == 0:
                path.unlink()
                continue
            with os.fdopen(open_existing(path, os.O_RDWR, "table copy"), "r+b") as f:
                f.truncate(keep)
                os.fsync(f.fileno())
            break
        (self.dir / HEAD_FILE).unlink(missing_ok=True)
        dfd = os.open(self.dir, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)

    def _read_head(self) -> ChainHead | None:
        try:
            raw = orjson.loads((self.dir / HEAD_FILE).read_bytes())
            return ChainHead(raw["table"], int(raw["seq"]), str(raw["digest"]), raw["reason"], raw["keys"],
                             raw["file"], int(raw["file_lines"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def _read_stream_seq(self) -> int:
        try:
            value = orjson.loads((self.dir / HEAD_FILE).read_bytes()).get("stream_seq", 0)
        except (OSError, ValueError, AttributeError):
            return 0
        return value if isinstance(value, int) and value > 0 else 0

    def _write_head(self, head: ChainHead, stream_seq: int = 0) -> None:
        data: dict[str, Any] = {"table": head.table, "seq": head.seq, "digest": head.digest, "reason": head.reason,
                                "keys": head.keys, "file": head.file, "file_lines": head.file_lines,
                                "stream_seq": stream_seq}
        atomic_write(self.dir / HEAD_FILE, orjson.dumps(data), FILE_MODE, what="table copy's head", durable=False)

    def _lines_after(self, seq: int) -> list[tuple[str, bytes]]:
        out: list[tuple[str, bytes]] = []
        for path in reversed(self.files()):
            lines = path.read_bytes().split(b"\n")[:-1]
            keep = [(path.name, line) for line in lines if (fmt.split_head(line) or (0,))[0] > seq]
            out[:0] = keep
            if len(keep) < len(lines):
                break
        return out

    # ------------------------------------------------------------------ write

    def append(self, lines: list[tuple[str, bytes]], head: ChainHead, stream_seq: int = 0) -> None:
        """Append a verified run (``(file name, line)`` in order) and fsync it (and the folder,
        for a new file); then record ``head`` and ``stream_seq`` (the highest stream sequence number
        a line was taken from). ``OSError`` if the disk fails."""
        i = 0
        while i < len(lines):
            name = lines[i][0]
            j = i + 1
            while j < len(lines) and lines[j][0] == name:
                j += 1
            fd = self._open_file(name)
            data = b"".join(line + b"\n" for _, line in lines[i:j])
            view = memoryview(data)
            while view:
                n = os.write(fd, view)
                view = view[n:]
            os.fsync(fd)
            i = j
        self._write_head(head, stream_seq)

    def _open_file(self, name: str) -> int:
        if self._fd_name == name and self._fd is not None:
            return self._fd
        self.close()
        self._fd, new = open_for_append_nofollow(self.dir / name, FILE_MODE, "table copy")
        self._fd_name = name
        if new:
            dfd = os.open(self.dir, os.O_RDONLY)
            try:
                os.fsync(dfd)
            finally:
                os.close(dfd)
        return self._fd

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
        self._fd = self._fd_name = None

    # ------------------------------------------------------------------ read

    def digest_at(self, seq: int) -> str | None:
        """The digest of the copy's line at ``seq``, or None if the copy has no such line."""
        files = self.files()
        for path in reversed(files):
            first = self._first_seqs.get(path.name)
            if first is None:
                with open(path, "rb") as f:
                    head = fmt.split_head(f.readline().rstrip(b"\n"))
                if head is None:
                    continue
                first = self._first_seqs[path.name] = head[0]
            if first <= seq:
                for line in path.read_bytes().split(b"\n")[:-1]:
                    h = fmt.split_head(line)
                    if h is not None and h[0] == seq:
                        return fmt.digest(line)
                return None
        return None


def _only_unsigned_tail(report: Any) -> bool:
    """The copy verifies but ends in lines no signature covers (and nothing else is wrong)."""
    kinds = {f.kind for f in report.integrity_failures}
    return bool(kinds) and kinds <= {UNSIGNED_TAIL, NOT_CLOSED} and UNSIGNED_TAIL in kinds \
        and (report.last_seq or 0) > report.signed_seq


def _cut_torn_tail(path: Path) -> None:
    """Drop bytes after the file's last newline (a write the collector's crash cut: those lines
    were never acknowledged as written, and are still held or in the stream)."""
    with os.fdopen(open_existing(path, os.O_RDWR, "table copy"), "r+b") as f:
        size = os.fstat(f.fileno()).st_size
        back = min(size, 1 << 16)
        while True:
            f.seek(size - back)
            tail = f.read(back)
            at = tail.rfind(b"\n")
            if at >= 0 or back == size:
                keep = size - back + at + 1 if at >= 0 else 0
                break
            back = min(size, back * 4)
        if keep != size:
            f.truncate(keep)
            os.fsync(f.fileno())


def _last_line(path: Path) -> tuple[str, int, str, int]:
    """(file name, seq, digest, lines in the file) of the file's last line."""
    data = path.read_bytes()
    lines = data.split(b"\n")[:-1]
    head = fmt.split_head(lines[-1]) if lines else None
    if head is None:
        raise CopyError(f"{path}: its last line is not a log line")
    return path.name, head[0], fmt.digest(lines[-1]), len(lines)


__all__ = ["HEAD_FILE", "CopyError", "TableCopy"]
