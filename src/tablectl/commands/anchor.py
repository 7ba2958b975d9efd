"""``tablectl anchor PATH... --anchor FILE``: record the log's last signed checkpoint head
in an append-only anchor file kept away from the log, so that a later review (``tablectl review
--anchor FILE``) catches a log cut short or replaced by an older one (``tablectl.eventlog.anchor``).

The log is verified first, with the table's keys from the keyring (or ``--key``, never a key in the
log's own folder): only a head that verifies is anchored, and a log that no longer holds every head
the file already knows is refused, as is an anchor file whose lines do not link. A torn last line (a
write cut short by a full disk) is set aside with a warning, and the new line goes on a line of its
own after it. Exit codes: 0 anchored (or already anchored); 3 integrity failure (the log does not
verify, has no signed checkpoint, or lost an anchored head; the anchor file's chain is broken); 2
bad input (paths, keys, no trusted key, an unreadable anchor file, one that cannot be opened for
writing); 5 the anchor file cannot be written (a full disk, an I/O error).
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

    try:
        files = resolve_paths(paths)
        trust = trust_for(files, keys, keyring_dir)
        if trust is None:
            raise CommandError(f"{files[0]}: no trusted key of table {log_table(files)} (none in the keyring, no --key): "
                               "nothing anchored", EXIT_USAGE)
        if trust.beside:
            raise CommandError(f"{trust.beside[0]}: the key lies in the folder of the log it would vouch for; enrol the "
                               "table's key in the keyring (tablectl keyring add): nothing anchored", EXIT_USAGE)
        known = anc.read_anchors(anchor_path) if anchor_path.exists() else None
        report = verify(files, trust)
    except LogInputError as e:
        raise CommandError(str(e), EXIT_USAGE) from None
    if not report.ok:
        raise CommandError(f"integrity failure: {report.integrity_failures[0]}; nothing anchored", EXIT_INTEGRITY)
    if report.last_head is None or report.table is None:
        raise CommandError(f"{report.files[-1]}: no signed checkpoint to anchor", EXIT_INTEGRITY)
    if known is not None:
        for offset in known.torn:
            click.echo(f"tablectl: warning: {anchor_path}: byte {offset}: a torn anchor line (a write cut short); "
                       "set aside", err=True)
        lost = anc.check(report, known) if known.broken or anc.newest_anchor(known, report.table) else None
        if lost is not None:
            where = lost if lost.kind == anc.ANCHOR_CHAIN else lost.message
            raise CommandError(f"integrity failure: {where}; nothing anchored", EXIT_INTEGRITY)
    seq, head, kid, reason, ts = report.last_head
    newest = anc.newest_anchor(known or [], report.table)
    if newest is not None and newest.seq == seq and newest.head == head:
        click.echo(f"table {report.table}: seq {seq} already anchored in {anchor_path}")
        return
    try:
        anc.append_anchor(anchor_path, anc.Anchor(report.table, seq, head, kid, reason, ts, anc.now()), known)
    except OSError as e:
        code = EXIT_STORAGE if e.errno in _STORAGE_ERRORS else EXIT_USAGE
        raise CommandError(f"{anchor_path}: cannot write the anchor file: {e.strerror or e}", code) from None
    click.echo(f"table {report.table}: anchored seq {seq} ({reason}, head {head[:16]}...) in {anchor_path}")
