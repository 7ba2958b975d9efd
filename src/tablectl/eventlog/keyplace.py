"""Whether a key file given by hand (``--key``) lies beside the log it would vouch for.

Whoever can rewrite a table's log can also write in its folder, in any folder inside it and, as a
rule, in the folders above it (the log folder's parent is where the table computer made it). A
public key in any of those places proves nothing: the attacker re-signs the log with a key of
their own and puts its public half there. Nor does a link change that: a link planted in the log
folder that leads to a key elsewhere, or a link elsewhere that leads into the log folder, is a key
beside the log all the same.

So a key file is *beside* a log when any folder it can be said to lie in — the folder of the path
as given (made absolute, not resolved), of every link it leads through, and of the file it finally
leads to — is a folder of the log (the folder a log file is in, as given or resolved), a folder
inside one, or a folder above one. :func:`beside_log` is the one check every command that takes
``--key`` makes (through ``tablectl.eventlog.keyring.trust_for``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

#: links followed one by one before giving up (the kernel's own limit on a path's links)
MAX_LINKS = 40


def beside_log(key_path: Path, log_paths: Sequence[Path]) -> bool:
    """Whether *key_path* (as given, or where it leads) lies in a folder of the log in *log_paths*
    (log files or folders), in a folder inside one, or in a folder above one."""
    folders = set(_log_folders(log_paths))
    return any(_near(place, folders) for place in key_places(key_path))


def key_places(key_path: Path) -> list[Path]:
    """The folders *key_path* can be said to lie in: the folder of the path as given, of each link
    on its way (as written, and with that folder's own links resolved), and of where it leads."""
    places = []
    path = Path(os.path.abspath(key_path))
    for _ in range(MAX_LINKS):
        places += [path.parent, Path(os.path.realpath(path.parent))]
        try:
            target = os.readlink(path)
        except OSError:  # not a link (or not there: the key's reading says why)
            break
        path = Path(os.path.abspath(path.parent / target))
    places.append(Path(os.path.realpath(key_path)).parent)
    return places


def _log_folders(log_paths: Iterable[Path]) -> Iterable[Path]:
    """The folders the log is in: each folder given, and each file's folder, as given and resolved."""
    for item in log_paths:
        given = Path(os.path.abspath(item))
        folder = given if given.is_dir() else given.parent
        yield folder
        yield Path(os.path.realpath(folder))
        yield Path(os.path.realpath(given)) if given.is_dir() else Path(os.path.realpath(given)).parent


def _near(place: Path, folders: set[Path]) -> bool:
    """*place* is one of *folders*, inside one, or above one."""
    return any(place == folder or folder in place.parents or place in folder.parents for folder in folders)
