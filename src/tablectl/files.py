"""Reading small input files (configs, keys, anchor files) and making files and folders safely.

``read_regular(path, what, max_bytes)`` reads a file that must be a regular file of bounded size:
a FIFO, ``/dev/zero``, a terminal, a socket or a directory given where a config or a key belongs
is refused at once (checked with ``stat`` before it is opened, so opening cannot block or touch a
device, and with ``fstat`` on the open descriptor, so a swap in between is caught too), and so is a
file over ``max_bytes``. Its refusals are ``OSError`` subclasses whose ``strerror`` is the reason
and whose ``filename`` is the path: a caller's existing ``except OSError`` handler prints them as
one line, as it prints "No such file or directory".

``private_mkdir`` and ``chmod_created`` make what tablectl creates never group- or world-writable,
whatever the umask.

Every file tablectl makes (logs, dataset files, manifests, locks, anchors, reports, keys) is made
through the functions below, never through a link: a planted symbolic link where tablectl makes,
appends to or locks a file, or makes a folder of its own, is refused with
:class:`LinkRefusedError` (one line naming it), nothing written through it. ``create_new``
(``O_CREAT|O_EXCL``), ``open_for_append_nofollow``, ``open_lock`` (never truncated; the pid only
into a file that can hold nothing else, ``note_holder``) and ``NewFile`` / ``atomic_write`` (a
random temporary name made ``O_EXCL`` in the target folder, fsynced, renamed, the folder fsynced:
the file is whole or absent) take the path the user gave as given and open every folder below it
that tablectl names without following a link (``open_dir``).
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from pathlib import Path
from typing import Self

MIB = 1024 * 1024
#: a table config: a few hundred lines in practice
MAX_CONFIG_BYTES = 4 * MIB
#: a PEM key is under a kilobyte
MAX_KEY_BYTES = 1 * MIB
#: an anchor file grows by one ~300-byte line per ``tablectl anchor``: 16 MiB is ~54,000 anchors, then
#: the next file of its chain takes over (``tablectl.eventlog.anchor``)
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


def read_regular(path: str | os.PathLike[str], what: str, max_bytes: int, *, follow_links: bool = True) -> bytes:
    """The bytes of ``path``, which must be a regular file of at most ``max_bytes``.

    Raises ``OSError`` for a file that cannot be opened (``FileNotFoundError``, ``ELOOP`` for a
    symlink loop, ...), ``IsADirectoryError`` for a directory, :class:`NotRegularFileError` for a
    FIFO, device or socket (without waiting on it) and :class:`FileTooLargeError` past the limit
    (without reading more than ``max_bytes + 1`` bytes, even of a file that grows as it is read).
    *follow_links* False: ``path`` itself a link is a :class:`NotRegularFileError` too (a file
    tablectl wrote, which nothing should have replaced with a link).
    """
    mode = (os.stat if follow_links else os.lstat)(path).st_mode
    if stat.S_ISLNK(mode):
        raise NotRegularFileError(path, what, "a link, not a regular file (not followed)")
    _refuse(path, what, mode)  # before open: opening a FIFO or a tty can block or act
    flags = os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags if follow_links else flags | os.O_NOFOLLOW)
    except OSError as e:
        if e.errno == errno.ELOOP and not follow_links:  # made a link since the lstat
            raise NotRegularFileError(path, what, "a link, not a regular file (not followed)") from None
        raise
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


# -- making files without following links -------------------------------------------------------

#: the bytes a lock file holds at most: a pid, padded, and a newline (``note_holder``)
PID_BYTES = 20
_NOFOLLOW = os.O_NOFOLLOW | os.O_CLOEXEC
_NOWAIT = os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)  # a FIFO or a tty opened for writing: not waited on
_TEMP_TRIES = 100


class LinkRefusedError(OSError):
    """A symbolic link where tablectl makes, writes or locks a file or makes a folder (a planted
    link): refused, nothing written through it. ``filename`` names it (``errno`` is ``ELOOP``)."""

    def __str__(self) -> str:
        return f"{self.filename}: {self.strerror}"


def link_refused(path: str | os.PathLike[str], what: str = "file") -> LinkRefusedError:
    """The refusal of a link at ``path`` where tablectl would make or write its ``what``."""
    return LinkRefusedError(errno.ELOOP, f"a symbolic link where tablectl writes its {what}: refused, nothing "
                                         "written through it", os.fspath(path))


def _is_link(name: str | os.PathLike[str], dir_fd: int | None = None) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def open_dir(directory: str | os.PathLike[str], within: str | os.PathLike[str] | None = None,
             mode: int | None = None) -> int:
    """An open descriptor (``O_DIRECTORY``) of ``directory``. ``within``, a folder ``directory``
    lies in (default: ``directory`` itself), is the user's path and is followed as given (made,
    with ``mode``, if missing and ``mode`` is given); every folder below it is tablectl's, opened
    one at a time without following a link (:class:`LinkRefusedError`) and, if ``mode`` is
    given, made with ``mode`` (less any group or world write bit, whatever the umask) when
    missing. Folders already there are left as they are."""
    directory = Path(directory)
    base = Path(within) if within is not None else directory
    parts = directory.relative_to(base).parts
    if mode is not None and not base.is_dir():
        private_mkdir(base, mode)
    fd = os.open(base, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    here = base
    try:
        for part in parts:
            here = here / part
            if part in (".", ".."):
                raise link_refused(here, "folder")
            made = False
            if mode is not None:
                try:
                    os.mkdir(part, mode & NOT_SHARED_WRITE, dir_fd=fd)
                    made = True
                except FileExistsError:
                    pass
            try:
                inner = os.open(part, os.O_RDONLY | os.O_DIRECTORY | _NOFOLLOW, dir_fd=fd)
            except OSError as e:
                if _is_link(part, fd):
                    raise link_refused(here, "folder") from None
                raise type(e)(e.errno, e.strerror, os.fspath(here)) from None
            os.close(fd)
            fd = inner
            if made:
                os.fchmod(fd, mode & NOT_SHARED_WRITE)  # type: ignore[operator]
    except BaseException:
        os.close(fd)
        raise
    return fd


def _open_new(name: str | os.PathLike[str], shown: str | os.PathLike[str], mode: int, what: str, flags: int,
              dir_fd: int | None = None) -> int:
    try:
        fd = os.open(name, flags | os.O_CREAT | os.O_EXCL | _NOFOLLOW, mode & NOT_SHARED_WRITE, dir_fd=dir_fd)
    except FileExistsError:
        if _is_link(name, dir_fd):
            raise link_refused(shown, what) from None
        raise FileExistsError(errno.EEXIST, "File exists", os.fspath(shown)) from None
    try:
        chmod_created(fd, mode)
    except BaseException:
        os.close(fd)
        raise
    return fd


def create_new(path: str | os.PathLike[str], mode: int, what: str = "file", flags: int = os.O_WRONLY) -> int:
    """Create ``path``, which must not exist (``O_CREAT|O_EXCL``: a link there is never followed),
    with exactly ``mode`` less any group or world write bit, whatever the umask; its open
    descriptor (``flags``: the access mode, ``O_APPEND``). Raises :class:`LinkRefusedError` for a
    link at ``path``, ``FileExistsError`` for anything else there."""
    return _open_new(path, path, mode, what, flags)


def open_existing(path: str | os.PathLike[str], flags: int, what: str = "file") -> int:
    """Open ``path``, which must be a regular file, without following a link
    (:class:`LinkRefusedError`) and without waiting on a FIFO or a device
    (:class:`NotRegularFileError`); never truncated."""
    try:
        fd = os.open(path, flags | _NOFOLLOW | _NOWAIT)
    except OSError as e:
        if e.errno == errno.ELOOP and _is_link(path):
            raise link_refused(path, what) from None
        raise
    try:
        _refuse(path, what, os.fstat(fd).st_mode)
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def open_or_create(path: str | os.PathLike[str], mode: int, what: str = "file",
                   flags: int = os.O_WRONLY | os.O_APPEND) -> tuple[int, bool]:
    """``path`` opened with ``flags`` (by default for appending), made with ``mode`` (as
    :func:`create_new`) if missing; never through a link, never truncated. The descriptor, and
    whether this call made the file."""
    while True:
        try:
            return create_new(path, mode, what, flags), True
        except LinkRefusedError:
            raise
        except FileExistsError:
            pass
        try:
            return open_existing(path, flags, what), False
        except FileNotFoundError:
            continue  # removed in between: make it


def open_for_append_nofollow(path: str | os.PathLike[str], mode: int, what: str = "file") -> tuple[int, bool]:
    """``path`` opened for appending (``O_APPEND``), made with ``mode`` if missing, never through a
    link: the descriptor and whether it was made."""
    return open_or_create(path, mode, what, os.O_WRONLY | os.O_APPEND)


def open_lock(path: str | os.PathLike[str], mode: int, what: str = "lock file") -> int:
    """The lock file at ``path`` opened read-write for ``fcntl.flock``, made with ``mode`` if
    missing; never through a link (:class:`LinkRefusedError`), never truncated, and refused if it
    is not a regular file. What it held is left as it was (see :func:`note_holder`)."""
    return open_or_create(path, mode, what, os.O_RDWR)[0]


def note_holder(fd: int) -> None:
    """Write this process's pid at the start of the lock file ``fd`` (for the next one's message),
    only into what can be nothing but a lock file: a regular file of one link holding no more than
    a pid (:data:`PID_BYTES`). Never truncates: the pid is padded to :data:`PID_BYTES`."""
    st = os.fstat(fd)
    if stat.S_ISREG(st.st_mode) and st.st_nlink == 1 and st.st_size <= PID_BYTES:
        os.pwrite(fd, f"{os.getpid():<{PID_BYTES - 1}}\n".encode(), 0)


def read_holder(fd: int) -> int | None:
    """The pid :func:`note_holder` wrote in the lock file ``fd``, if any."""
    text = os.pread(fd, PID_BYTES, 0).decode(errors="replace").strip()
    return int(text) if text.isdigit() else None


def _new_temp(dir_fd: int, folder: Path, mode: int, what: str) -> tuple[int, str]:
    """A new file under a random hidden name in the folder ``dir_fd`` (``O_CREAT|O_EXCL``): its
    descriptor (read-write) and name."""
    for _ in range(_TEMP_TRIES):
        name = f".{secrets.token_hex(10)}.tmp"
        try:
            return _open_new(name, folder / name, mode, what, os.O_RDWR, dir_fd=dir_fd), name
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", os.fspath(folder))


def replace_with_new(path: str | os.PathLike[str], mode: int, what: str = "file") -> int:
    """A new empty file at ``path`` for a file written as it goes (a line at a time), in place of
    the regular file there, if any: made under a random name (``O_EXCL``) and renamed over it
    (the folder fsynced), so what was there is replaced, never truncated or written through a
    link (:class:`LinkRefusedError`; a FIFO or a device: :class:`NotRegularFileError`). Its
    descriptor, open read-write."""
    path = Path(path)
    dfd = open_dir(path.parent)
    try:
        fd, temp = _new_temp(dfd, path.parent, mode, what)
        try:
            _check_target(path.name, dfd, path, what)
            os.replace(temp, path.name, src_dir_fd=dfd, dst_dir_fd=dfd)
            os.fsync(dfd)
        except BaseException:
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(temp, dir_fd=dfd)
            raise
    finally:
        os.close(dfd)
    return fd


def _check_target(name: str, dir_fd: int, shown: Path, what: str) -> None:
    """Refuse what a new file would be renamed over if it is not a regular file: a link
    (:class:`LinkRefusedError`), a FIFO or a device (:class:`NotRegularFileError`: never replaced,
    ``/dev/null`` stays ``/dev/null``), a folder (``IsADirectoryError``)."""
    try:
        mode = os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISLNK(mode):
        raise link_refused(shown, what)
    _refuse(shown, what, mode)


class NewFile:
    """A file written whole or not at all. It is made under a random hidden name in its folder
    (``O_CREAT|O_EXCL``, never following a link: nothing planted at a predictable name can catch
    it), written through :attr:`file`, then fsynced and renamed to its name by :meth:`commit` (the
    folder fsynced too), or removed by :meth:`discard`. Used as a context manager it is discarded
    unless committed. A link, a FIFO, a device or a folder at the final name is refused, not replaced.

    ``folder`` and ``within``: as :func:`open_dir` (``within``: the user's part of the path, followed;
    below it nothing is); ``folder_mode``: folders made if missing (None: ``folder`` must exist)."""

    def __init__(self, folder: str | os.PathLike[str], mode: int, *, within: str | os.PathLike[str] | None = None,
                 folder_mode: int | None = None, what: str = "file", buffering: int = 1 << 20) -> None:
        self.folder, self.within, self.what = Path(folder), within, what
        dfd = open_dir(self.folder, within, folder_mode)
        try:
            fd, self.temp = _new_temp(dfd, self.folder, mode, what)
        finally:
            os.close(dfd)
        self.file = os.fdopen(fd, "wb", buffering=buffering)
        self.done = False

    def commit(self, name: str, *, durable: bool = True) -> Path:
        """Put the file in place as ``name`` in its folder (flushed, fsynced, renamed, the folder
        fsynced); its path. ``durable=False``: no fsync (a crash may set the file back to what it
        was, never leave it torn). Raises OSError (the temporary file removed)."""
        try:
            self.file.flush()
            if durable:
                os.fsync(self.file.fileno())
            self.file.close()
            dfd = open_dir(self.folder, self.within)
            try:
                _check_target(name, dfd, self.folder / name, self.what)
                os.replace(self.temp, name, src_dir_fd=dfd, dst_dir_fd=dfd)
                self.done = True
                if durable:
                    os.fsync(dfd)
            finally:
                os.close(dfd)
        except BaseException:
            self.discard()
            raise
        return self.folder / name

    def discard(self) -> None:
        """Remove the temporary file (nothing of it stays)."""
        if self.done:
            return
        self.done = True
        with contextlib.suppress(OSError):
            self.file.close()
        with contextlib.suppress(OSError):
            os.unlink(self.folder / self.temp)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.discard()


def atomic_write(path: str | os.PathLike[str], data: bytes, mode: int, *, within: str | os.PathLike[str] | None = None,
                 folder_mode: int | None = None, what: str = "file", durable: bool = True) -> None:
    """Write ``path`` whole or not at all (:class:`NewFile`): a random temporary name in its folder,
    written, fsynced, renamed over ``path``, the folder fsynced (``durable=False``: neither fsynced,
    for state a crash may set back). On an error (a full disk) nothing is left but what was at
    ``path`` before. ``mode``: the file's, less any group or world write bit; ``within``,
    ``folder_mode``: as :func:`open_dir`."""
    path = Path(path)
    with NewFile(path.parent, mode, within=within, folder_mode=folder_mode, what=what) as new:
        new.file.write(data)
        new.commit(path.name, durable=durable)
