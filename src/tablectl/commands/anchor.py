"""``tablectl anchor PATH... --anchor FILE``: record the log's last signed checkpoint head
in an append-only anchor file kept away from the log, so that a later review (``tablectl review
--anchor FILE``) catches a log cut short or replaced by an older one (``tablectl.eventlog.anchor``).

The log is verified first, with the table's keys from the keyring (or ``--key``, never a key in,
inside or above the log's own folder, nor one that leads there): only a head that verifies is
anchored, and a log that no longer holds every head the file already knows is refused, as is an
anchor file whose lines do not link. A torn last line (a write cut short by a full disk) is set
aside with a warning, and the new line goes on a line of its own after it. Exit codes: 0 anchored (or already anchored); 3 integrity failure (the log does not
verify, has no signed checkpoint, or lost an anchored head; the anchor file's chain is broken); 2
bad input (paths, keys, no trusted key, an unreadable anchor file, one that cannot be opened for
writing, a symbolic link in place of it); 5 the anchor file cannot be written (a full disk, an I/O
error).

Runs at once take turns (an ``flock`` on the anchor file, held while the file is read again and
the line appended, not while the log verifies): each links its line to the line before it, the
other's included. A full anchor file (16 MiB) is continued in the next file of its chain
(``floor.jsonl`` -> ``floor.2.jsonl``), found from the first: give the first file always.
"""

from __future__ import annotations

import errno
from pathlib import Path

import click

from tablectl.cli import EXIT_INTEGRITY, EXIT_STORAGE, EXIT_USAGE, CommandError
from tablectl.commands.options import keyring_option, trust_for

#: write errors of the storage (exit 5: retry once space is back), not of the path given (exit 2)
_STORAGE_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG})


@click.command("anchor")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--key", "keys", multiple=True, type=click.Path(path_type=Path), metavar="PUB",
              help="Trust this Ed25519 public key (PEM) instead of the keyring; repeat for a table whose key was replaced.")
@keyring_option
@click.option("--anchor", "anchor_path", required=True, type=click.Path(path_type=Path, dir_okay=False), metavar="FILE",
              help="The anchor file (JSON lines, appended to; created if missing).")
def command(paths: tuple[Path, ...], keys: tuple[Path, ...], keyring_dir: Path | None, anchor_path: Path) -> None:
    """Verify the log in PATH... with the table's keys from the keyring and append its last signed
    checkpoint head to the anchor FILE."""
    from tablectl.eventlog import anchor as anc
    from tablectl.eventlog.errors import LogInputError
    from tablectl.eventlog.verify import log_table, resolve_paths, verify
    from tablectl.files import LinkRefusedError, link_refused

    if anchor_path.is_symlink():  # refused before the log is verified; made and appended to without following links
        raise CommandError(str(link_refused(anchor_path, "anchor file")), EXIT_USAGE)
    try:
        files = resolve_paths(paths)
        trust = trust_for(files, keys, keyring_dir, refuse_beside="nothing anchored")
        if trust is None:
            raise CommandError(f"{files[0]}: no trusted key of table {log_table(files)} (none in the keyring, no --key): "
                               "nothing anchored", EXIT_USAGE)
        if anchor_path.exists():
            anc.read_anchors(anchor_path)  # one that cannot be read: said before the log is verified
        report = verify(files, trust)
    except LogInputError as e:
        raise CommandError(str(e), EXIT_USAGE) from None
    if not report.ok:
        raise CommandError(f"integrity failure: {report.integrity_failures[0]}; nothing anchored", EXIT_INTEGRITY)
    if report.last_head is None or report.table is None:
        raise CommandError(f"{report.files[-1]}: no signed checkpoint to anchor", EXIT_INTEGRITY)
    seq, head, kid, reason, ts = report.last_head
    try:
        with anc.locked(anchor_path):  # another run's line, appended meanwhile, is read again here
            known = anc.read_anchors(anchor_path)
            for offset in known.torn:
                click.echo(f"tablectl: warning: {known.files[-1]}: byte {offset}: a torn anchor line (a write cut "
                           "short); set aside", err=True)
            lost = anc.check(report, known) if known.broken or anc.newest_anchor(known, report.table) else None
            if lost is not None:
                where = lost if lost.kind == anc.ANCHOR_CHAIN else lost.message
                raise CommandError(f"integrity failure: {where}; nothing anchored", EXIT_INTEGRITY)
            newest = anc.newest_anchor(known, report.table)
            if newest is not None and newest.seq == seq and newest.head == head:
                click.echo(f"table {report.table}: seq {seq} already anchored in {anchor_path}")
                return
            written = anc.append_anchor(anchor_path, anc.Anchor(report.table, seq, head, kid, reason, ts, anc.now()),
                                        known)
    except LogInputError as e:
        raise CommandError(str(e), EXIT_USAGE) from None
    except LinkRefusedError as e:
        raise CommandError(str(e), EXIT_USAGE) from None
    except OSError as e:
        code = EXIT_STORAGE if e.errno in _STORAGE_ERRORS else EXIT_USAGE
        raise CommandError(f"{e.filename or anchor_path}: cannot write the anchor file: {e.strerror or e}", code) from None
    click.echo(f"table {report.table}: anchored seq {seq} ({reason}, head {head[:16]}...) in {written}")
