"""``tablectl keygen DIR``: write a table's Ed25519 signing key pair (``table.key``, ``table.pub``).

The private key (mode 0600) stays on the table controller; the table config names it, and
``tablectl run --signing-key PATH`` overrides that. The public key is all a reviewer needs, enrolled
in surveillance's keyring: ``tablectl keyring add TABLE table.pub``. Never overwrites an existing key (exit 2).
"""

from __future__ import annotations

import os
from pathlib import Path

import click

from tablectl.cli import EXIT_USAGE, CommandError
from tablectl.eventlog.keys import save_keypair


@click.command("keygen")
@click.argument("directory", type=click.Path(path_type=Path))
def command(directory: Path) -> None:
    """Write DIRECTORY/table.key (private, mode 0600) and DIRECTORY/table.pub.

    DIRECTORY and any missing parents are made 0755, whatever the umask."""
    if os.path.lexists(directory) and not directory.is_dir():
        what = "a symbolic link to nothing, or a link loop" if directory.is_symlink() else "exists and is not a directory"
        raise CommandError(f"{directory}: {what}", EXIT_USAGE)
    try:
        written = save_keypair(directory)
    except FileExistsError as exc:
        if Path(exc.filename).parent != directory:  # a parent folder to make is a file
            raise CommandError(f"{exc.filename}: exists and is not a directory", EXIT_USAGE) from None
        raise CommandError(f"{exc.filename}: already exists; refusing to overwrite a key", EXIT_USAGE) from None
    except OSError as exc:
        raise CommandError(f"{exc.filename or directory}: {exc.strerror}", EXIT_USAGE) from None
    click.echo(f"private key: {written.private} (mode 0600; keep it on the table controller)")
    click.echo(f"public key:  {written.public} (surveillance enrols it: tablectl keyring add TABLE {written.public.name})")
    click.echo(f"key id:      {written.key_id}")
