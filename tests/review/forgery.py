"""Forging real logs, as an attacker (or bad luck) would: change a line's record, re-link the chain
behind it, re-sign its checkpoints with the table's key or strip their signatures, cut, reorder
or replace lines and files. Shared by the integrity tests and the mutation campaign.

A forged log is a copy: :class:`LogCopy` holds the lines of every file of a log directory, is
changed in memory and written to a new directory.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tablectl.eventlog.keys import key_id
from tablectl.eventlog.logformat import GENESIS, SIG_HEX_LEN, SIG_MEMBER, digest, insert_signature, log_files


@dataclass
class LogCopy:
    """Every file of one table's log, as lists of lines (without newlines)."""

    names: list[str]
    files: list[list[bytes]]

    @classmethod
    def read(cls, directory: Path) -> LogCopy:
        paths = next(iter(log_files(directory).values()))
        return cls([p.name for p in paths], [p.read_bytes().split(b"\n")[:-1] for p in paths])

    def write(self, directory: Path, *, newline: bytes = b"\n") -> Path:
        directory.mkdir(parents=True, exist_ok=True)
        for name, lines in zip(self.names, self.files, strict=True):
            (directory / name).write_bytes(b"".join(line + newline for line in lines))
        return directory

    def copy(self) -> LogCopy:
        return LogCopy(list(self.names), [list(f) for f in self.files])

    def where(self) -> list[tuple[int, int]]:
        """(file index, line index) of every line, in log order."""
        return [(fi, li) for fi, lines in enumerate(self.files) for li in range(len(lines))]

    def record(self, fi: int, li: int) -> dict[str, Any]:
        return orjson.loads(self.files[fi][li])  # type: ignore[no-any-return]

    def find(self, event: str, nth: int = 0) -> tuple[int, int]:
        """(file index, line index) of the *nth* line of *event*."""
        found = [(fi, li) for fi, li in self.where() if orjson.loads(self.files[fi][li])["event"] == event]
        return found[nth]

    def edit(self, fi: int, li: int, change: Callable[[dict[str, Any]], None]) -> None:
        """Change line (fi, li)'s record in place (*change* mutates the dict; key order kept)."""
        record = self.record(fi, li)
        sig = record.pop("sig", None)
        prev = record.pop("prev")
        change(record)
        line = orjson.dumps({**record, "prev": prev})
        self.files[fi][li] = insert_signature(line, sig) if isinstance(sig, str) else line

    def relink(self, key: Ed25519PrivateKey | None = None, *, strip: bool = False) -> None:
        """Re-link every line to the one before it (as if the log had been written so): with *key*,
        every checkpoint signed again with it; *strip* removes every checkpoint's signature."""
        prev = GENESIS
        for fi, li in self.where():
            line = self.files[fi][li]
            body, sig = _without_sig(line)
            body = body[:-66] + prev.encode() + body[-2:]
            if sig is not None and not strip:
                if key is not None:
                    sig = key.sign(body).hex()
                body = insert_signature(body, sig)
            self.files[fi][li] = body
            prev = digest(body)

    def rekey(self, key: Ed25519PrivateKey) -> None:
        """Name *key* wherever the log names its signing key, re-link, and sign every checkpoint
        with it: the log as if the table had always used *key*."""
        kid = key_id(key)
        for fi, li in self.where():
            if orjson.loads(self.files[fi][li]).get("key") is not None:
                self.edit(fi, li, lambda record: record.__setitem__("key", kid))
        self.relink(key)

    def renumber(self) -> None:
        """``seq`` 1, 2, 3, ... over the lines as they stand (after deleting or inserting)."""
        for n, (fi, li) in enumerate(self.where(), start=1):
            line = self.files[fi][li]
            comma = line.index(b",")
            self.files[fi][li] = b'{"seq":%d' % n + line[comma:]


def _without_sig(line: bytes) -> tuple[bytes, str | None]:
    at = line.find(SIG_MEMBER)
    if at < 0:
        return line, None
    end = at + len(SIG_MEMBER) + SIG_HEX_LEN
    return line[:at] + line[end + 1 :], line[at + len(SIG_MEMBER) : end].decode()


def copy_log(source: Path, target: Path) -> Path:
    """A plain copy of a log directory's files (keys and lock left out)."""
    target.mkdir(parents=True, exist_ok=True)
    for path in next(iter(log_files(source).values())):
        shutil.copy2(path, target / path.name)
    return target


def edit_line(path: Path, old: bytes, new: bytes) -> None:
    """Replace *old* by *new* in the first line of the file *path* (after the third) that holds it,
    in place: nothing re-linked, nothing re-signed."""
    lines = path.read_bytes().split(b"\n")
    index = next(i for i, line in enumerate(lines) if i > 3 and old in line)
    lines[index] = lines[index].replace(old, new, 1)
    path.write_bytes(b"\n".join(lines))
