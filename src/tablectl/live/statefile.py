"""Small state files the live floor rewrites whole without fsync: the publisher's cursor, a copy's
head, the broker's config. A crash may set them back (a cursor sends lines again, a head has the
copy verified again, a config is written again at the next start), never leave them torn.

:func:`write_whole` writes through :class:`tablectl.files.NewFile` (a random hidden temporary name
made ``O_CREAT|O_EXCL`` in the same folder, never through a link) and renames it over the file,
as ``NewFile.commit`` does but without its fsyncs; a link at the file's name is refused
(:class:`tablectl.files.LinkRefusedError`, one line naming it), never followed or replaced.
"""

from __future__ import annotations

import os
from pathlib import Path

from tablectl.files import NewFile, link_refused


def write_whole(path: str | os.PathLike[str], data: bytes, mode: int, what: str) -> None:
    """Put ``data`` at ``path`` whole (a new file renamed over it, not fsynced), with ``mode``
    less any group or world write bit. Raises ``OSError`` (the temporary file removed)."""
    path = Path(path)
    with NewFile(path.parent, mode, what=what) as new:
        new.file.write(data)
        new.file.close()
        if path.is_symlink():
            raise link_refused(path, what)
        os.replace(new.folder / new.temp, path)


__all__ = ["write_whole"]
