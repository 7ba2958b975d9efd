"""Report files the commands write (``review --html``, ``floor --html``): whole or not at all, 0640
whatever the umask, never through a link.

A report is written to a random hidden name beside its path, fsynced and renamed over it
(``tablectl.files.atomic_write``): a full disk leaves the report from before (or none), never a
part of one, and says so in one line (exit 5). A path that is a link, a FIFO, a device or a folder
is refused in one line (exit 2), before the command's work where it can be (:func:`check_path`).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from tablectl.cli import EXIT_STORAGE, EXIT_USAGE, CommandError
from tablectl.files import LinkRefusedError, atomic_write, link_refused

#: a report names dealers, players and tables: the owner writes it, surveillance's group reads it
REPORT_MODE = 0o640
_FULL = frozenset({errno.ENOSPC, errno.EDQUOT})
_STORAGE = frozenset({errno.EIO, errno.EFBIG})


def check_path(path: Path, what: str = "HTML report") -> None:
    """Refuse at once a report path that is there and is not a regular file (a link, a FIFO, a
    device, a folder): a :class:`CommandError`, exit 2."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return  # not there yet (or unreachable: the write says why)
    if stat.S_ISLNK(mode):
        raise CommandError(str(link_refused(path, what)), EXIT_USAGE)
    if not stat.S_ISREG(mode):
        raise CommandError(f"{path}: cannot write the {what}: not a regular file", EXIT_USAGE)


def write_report(path: Path, data: bytes, what: str = "HTML report") -> None:
    """Write the report *data* to *path* whole or not at all (mode :data:`REPORT_MODE`); raises a
    one-line :class:`CommandError`: exit 5 for a full disk or an I/O error (what was at *path*
    before is left as it was), exit 2 for a path that cannot take it."""
    try:
        atomic_write(path, data, REPORT_MODE, what=what)
    except LinkRefusedError as e:
        raise CommandError(str(e), EXIT_USAGE) from None
    except OSError as e:
        if e.errno in _FULL:
            raise CommandError(f"no space left on device: {path}: the {what} is not written", EXIT_STORAGE) from None
        code = EXIT_STORAGE if e.errno in _STORAGE else EXIT_USAGE
        raise CommandError(f"{path}: cannot write the {what}: {e.strerror or e}", code) from None
