"""Options shared by commands: bounded number types (what a table can mean, never nan or
infinity), the keyring every command that verifies a log reads, and whether long work through a
log, or a long computation, shows its progress.

``click.FloatRange`` lets ``nan`` through (every comparison with it is false) and, without an
upper bound, ``inf``; ``Finite`` refuses both, so an option's value is always a real number in its
range. Usage error (exit 2) with click's one-line message otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from tablectl.eventlog.trust import Trust
    from tablectl.progress import Progress


class Finite(click.FloatRange):
    """A finite float within ``min``..``max`` (click's ``FloatRange`` options)."""

    name = "float"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = click.FLOAT.convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return super().convert(number, param, ctx)


def keyring_option(command: Any) -> Any:
    """``--keyring DIR``: where the tables' trusted public keys are (``tablectl.eventlog.keyring``)."""
    return click.option(
        "--keyring", "keyring_dir", type=click.Path(path_type=Path, file_okay=False), default=None, metavar="DIR",
        help="The keyring of the tables' public keys (default: $TABLECTL_KEYRING, else "
             "$XDG_CONFIG_HOME/tablectl/keyring). Used unless --key is given.",
    )(command)


def progress_option(command: Any) -> Any:
    """``--progress/--no-progress``: a redrawn progress line on stderr (default: only when stderr
    is a terminal)."""
    return click.option(
        "--progress/--no-progress", "progress", default=None,
        help="Show lines read, %, rate and ETA on stderr as the log is read (default: when stderr is a terminal).",
    )(command)


def computing_progress_option(command: Any) -> Any:
    """``--progress/--no-progress`` of a command that may compute for long: the share done and the
    ETA on a redrawn line on stderr (default: only when stderr is a terminal)."""
    return click.option(
        "--progress/--no-progress", "progress", default=None,
        help="Show the share done and the ETA of a long computation on stderr (default: when stderr is a terminal).",
    )(command)


def log_progress(what: str, files: Sequence[Path], choice: bool | None) -> Progress | None:
    """A progress line on stderr for reading *files* (their total size), or None when it is not
    wanted (``tablectl.progress.wanted``)."""
    import os
    import sys

    from tablectl.progress import Progress, wanted

    if not wanted(choice, sys.stderr):
        return None
    total = 0
    for f in files:
        try:
            total += os.stat(f).st_size
        except OSError:  # the review says what is wrong with it
            pass
    return Progress(what, total, sys.stderr)


def trust_for(files: Sequence[Path], keys: Sequence[Path], keyring_dir: Path | None,
              refuse_beside: str | None = None) -> Trust | None:
    """What to trust for the log in *files*: the keys given (``--key``), else the keyring's keys of
    the table the log's lines name. Every command that takes ``--key`` comes here, so a key beside
    the log (``tablectl.eventlog.keyplace``) is found the same way for all: marked in
    ``Trust.beside`` (review reports it), or, with *refuse_beside* (what is then not done: "nothing
    exported"), refused. One-line usage error (exit 2) for that, and for a key or keyring that
    cannot be read."""
    from tablectl.cli import EXIT_USAGE, CommandError
    from tablectl.eventlog import keyring
    from tablectl.eventlog.keys import KeyFileError
    from tablectl.eventlog.verify import log_table

    try:
        trust = keyring.trust_for(log_table(files), keys, files, keyring_dir or keyring.default_dir())
    except (KeyFileError, keyring.KeyringError) as e:
        raise CommandError(str(e), EXIT_USAGE) from None
    if trust is not None and trust.beside and refuse_beside is not None:
        raise CommandError(f"{trust.beside[0]}: the key lies in or above the folder of the log it would vouch for, or "
                           "leads there, so it vouches for nothing (enrol the table's key in the keyring: tablectl "
                           f"keyring add): {refuse_beside}", EXIT_USAGE)
    return trust
