"""Reading small input files (configs, keys, anchor files) and making files and folders safely.

``read_regular(path, what, max_bytes)`` reads a file that must be a regular file of bounded size:
a FIFO, ``/dev/zero``, a terminal, a socket or a directory given where a config or a key belongs
is refused at once (checked with ``stat`` before it is opened, so opening cannot block or touch a
device, and with ``fstat`` on the open descriptor, so a swap in between is caught too), and so is a
file over ``max_bytes``. Its refusals are ``OSError`` subclasses whose ``strerror`` is the reason
and whose ``filename`` is the path: a caller's existing ``except OSError`` handler prints them as
one line, as it prints "No such file or directory".

``private_mkdir``, ``chmod_created`` and ``write_file`` make what tablectl creates never group- or
world-writable, whatever the umask.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

MIB = 1024 * 1024
#: a table config: a few hundred lines in practice
MAX_CONFIG_BYTES = 4 * MIB
#: a PEM key is under a kilobyte
MAX_KEY_BYTES = 1 * MIB
#: an anchor file grows by one ~250-byte line per ``tablectl anchor``: 16 MiB is ~60,000 anchors
MAX_ANCHOR_BYTES = 16 * MIB

_CHUNK = 1 << 16


class InputFileError(OSError):
    """An input file tablectl refuses to read; ``strerror`` says why, ``filename`` names it."""

    def __init__(self, path: str | os.PathLike[str], what: str, reason: str) -> None:
        super().__init__(None, reason, os.fspath(path))
        self.what = what

    def __str__(self) -> str:
        return f"{self.filename}: cannot read the {self.what}: {self.strerror}"


class NotRegularFileError(InputFileError):
    """Not a regular file (a FIFO, a device, a socket)."""


class FileTooLargeError(InputFileError):
    """A regular file over the size limit for what it should hold."""


def _kind(mode: int) -> str:
    """What a non-regular file is, for an error line."""
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _refuse(path: str | os.PathLike[str], what: str, mode: int) -> None:
    """Raise for anything but a regular file (``IsADirectoryError`` for a directory)."""
    if stat.S_ISREG(mode):
        return
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(21, "Is a directory", os.fspath(path))
    kind = _kind(mode)
    reason = kind if kind.startswith("not") else f"{kind}, not a regular file"
    raise NotRegularFileError(path, what, reason)


def _too_large(path: str | os.PathLike[str], what: str, max_bytes: int) -> FileTooLargeError:
    return FileTooLargeError(path, what, f"larger than {max_bytes:,} bytes: not a {what}")


def read_regular(path: str | os.PathLike[str], what: str, max_bytes: int) -> bytes:
    """The bytes of ``path``, which must be a regular file of at most ``max_bytes``.

    Raises ``OSError`` for a file that cannot be opened (``FileNotFoundError``, ``ELOOP`` for a
    symlink loop, ...), ``IsADirectoryError`` for a directory, :class:`NotRegularFileError` for a
    FIFO, device or socket (without waiting on it) and :class:`FileTooLargeError` past the limit
    (without reading more than ``max_bytes + 1`` bytes, even of a file that grows as it is read).
    """
    _refuse(path, what, os.stat(path).st_mode)  # before open: opening a FIFO or a tty can block or act
    flags = os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        _refuse(path, what, st.st_mode)  # replaced between the stat and the open
        if st.st_size > max_bytes:
            raise _too_large(path, what, max_bytes)
        chunks: list[bytes] = []
        size = 0
        while True:
            chunk = os.read(fd, min(_CHUNK, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > max_bytes:
                raise _too_large(path, what, max_bytes)
        return b"".join(chunks)
    finally:
        os.close(fd)


#: the widest mode tablectl gives what it creates: never writable by group or others
NOT_SHARED_WRITE = ~(stat.S_IWGRP | stat.S_IWOTH) & 0o7777


def private_mkdir(directory: Path, mode: int = 0o700) -> None:
    """``mkdir -p directory``, giving every folder this call creates exactly ``mode`` (less any
    group or world write bit) whatever the umask; folders already there are left as they are."""
    mode &= NOT_SHARED_WRITE
    missing: list[Path] = []
    here = Path(directory)
    while not here.is_dir():
        missing.append(here)
        if here.parent == here:
            break
        here = here.parent
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=mode)
        except FileExistsError:
            if not folder.is_dir():
                raise
            continue  # made by someone else meanwhile: not ours to chmod
        os.chmod(folder, mode)


def chmod_created(fd: int, mode: int) -> None:
    """Set a file tablectl just created (open descriptor ``fd``) to ``mode`` without any group or
    world write bit, whatever the umask was."""
    os.fchmod(fd, mode & NOT_SHARED_WRITE)


def write_file(path: str | os.PathLike[str], data: bytes, what: str, mode: int = 0o644) -> None:
    """Write ``data`` to ``path``: a new file gets exactly ``mode`` (less any group or world write
    bit) whatever the umask; an existing regular file is truncated and keeps its mode. Anything
    else already at ``path`` (a FIFO, a device) is refused with :class:`NotRegularFileError`
    instead of being opened: opening a FIFO for writing waits for a reader."""
    try:
        _refuse(path, what, os.stat(path).st_mode)
    except FileNotFoundError:
        pass
    flags = os.O_WRONLY | os.O_CLOEXEC | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags | os.O_CREAT | os.O_EXCL, mode & NOT_SHARED_WRITE)
        created = True
    except FileExistsError:
        fd = os.open(path, flags | os.O_TRUNC)
        created = False
    try:
        st = os.fstat(fd)
        _refuse(path, what, st.st_mode)
        if created:
            chmod_created(fd, mode)
        os.set_blocking(fd, True)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)
