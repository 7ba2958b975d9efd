"""The readers' check of one dataset file before DuckDB or pyarrow reads it: a regular file (not a
link, a FIFO, a device or a folder: nothing is opened that could block a reader or lead it
elsewhere), its bytes the ones its export wrote (their SHA-256, recorded in the manifest), and
its columns of the types its dataset's schema gives (from its Parquet footer).

The file is opened once (``O_NOFOLLOW | O_NONBLOCK``, checked again on the open descriptor) and
hashed and its footer read from that one descriptor. :func:`sha256_file` is the digest the writer
records (``store.PartWriter.commit``).
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq


class Refused(Exception):
    """Why a file is not read (one line, without the file's name: the caller names it)."""


def sha256_file(path: Path) -> str:
    """The SHA-256 of the bytes of *path* (hex)."""
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def checked_footer(path: Path, digest: str | None) -> pq.FileMetaData:
    """The Parquet footer of *path*, once it is known to be a regular file whose SHA-256 is
    *digest* (None: not checked). Raises :class:`Refused` (the file is not read),
    ``FileNotFoundError`` when it is missing, ``OSError`` or ``pyarrow.ArrowException`` when it is
    not readable Parquet."""
    kind = _kind(os.lstat(path).st_mode)
    if kind is not None:
        raise Refused(f"{kind}, not a regular file (not opened)")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as e:
        if e.errno == errno.ELOOP:  # made a link since the lstat
            raise Refused("a link, not a regular file (not opened)") from None
        raise
    with open(fd, "rb") as f:
        kind = _kind(os.fstat(fd).st_mode)  # replaced since the lstat
        if kind is not None:
            raise Refused(f"{kind}, not a regular file (not read)")
        if digest is not None:
            found = hashlib.file_digest(f, "sha256").hexdigest()
            if found != digest:
                raise Refused(f"its bytes are not those its export wrote (SHA-256 {found[:16]}…, "
                              f"recorded {digest[:16]}…)")
            f.seek(0)
        return pq.read_metadata(f)


def wrong_types(expected: pa.Schema, found: pa.Schema) -> list[str]:
    """Each column of *found* that *expected* gives another type, as ``column NAME is TYPE, not
    TYPE``; columns one of them lacks are not compared."""
    out = []
    for field in expected:
        i = found.get_field_index(field.name)
        if i >= 0 and not found.field(i).type.equals(field.type):
            out.append(f"column {field.name} is {found.field(i).type}, not {field.type}")
    return out


def _kind(mode: int) -> str | None:
    """What a file of *mode* is, if not a regular file."""
    if stat.S_ISREG(mode):
        return None
    for test, name in ((stat.S_ISLNK, "a link"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISDIR, "a folder"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a file"
