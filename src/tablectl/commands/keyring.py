"""``tablectl keyring add|list|retire``: surveillance's keyring of the tables' public keys
(``tablectl.eventlog.keyring``), which review, anchor and export verify the logs with.

Keep it on the machine surveillance reviews from, not on the table computer: a key beside the log
it vouches for is the attacker's to replace. Exit codes: 0 done; 2 bad input (a key file or
keyring that cannot be read or written, a keyring folder or file that group or others may write,
a seq outside 1 to 2**63 - 1, an enrolment the keyring refuses) as one line.
"""

from __future__ import annotations

from pathlib import Path

import click

from tablectl.cli import EXIT_USAGE, CommandError
from tablectl.commands.options import keyring_option


@click.group("keyring")
def command() -> None:
    """The keyring of the tables' public keys (see docs/review.md, "Keys")."""


@command.command("add")
@click.argument("table")
@click.argument("public_key", metavar="PUB", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--from-seq", type=int, default=1, show_default=True,
              help="The first line of the table's log the key may sign (a replacement: the seq it takes over at).")
@click.option("--until-seq", type=int, default=None, help="The last line it may sign.")
@click.option("--note", default="", help="Who enrolled it and why.")
@keyring_option
def add(table: str, public_key: Path, from_seq: int, until_seq: int | None, note: str, keyring_dir: Path | None) -> None:
    """Trust the Ed25519 public key PUB (PEM) to sign TABLE's log from --from-seq on."""
    from tablectl.eventlog import keyring
    from tablectl.eventlog.keys import KeyFileError, load_public_key

    directory = keyring_dir or keyring.default_dir()
    try:
        keyring.check_seq("--from-seq", from_seq)
        if until_seq is not None:
            keyring.check_seq("--until-seq", until_seq)
        enrolment, added = keyring.enrol(directory, table, load_public_key(public_key), from_seq=from_seq,
                                         until_seq=until_seq, note=note)
    except (KeyFileError, keyring.KeyringError) as e:
        raise CommandError(str(e), EXIT_USAGE) from None
    what = "enrolled" if added else "already enrolled"
    click.echo(f"table {table}: key {enrolment.key_id} {what} from seq {enrolment.from_seq} "
               f"in {keyring.table_file(directory, table)}")


@command.command("retire")
@click.argument("table")
@click.argument("key_id", metavar="KEYID")
@click.option("--after-seq", type=int, required=True, help="The last line the key may sign.")
@keyring_option
def retire(table: str, key_id: str, after_seq: int, keyring_dir: Path | None) -> None:
    """End TABLE's key KEYID: it signs nothing after --after-seq."""
    from tablectl.eventlog import keyring

    directory = keyring_dir or keyring.default_dir()
    try:
        keyring.check_seq("--after-seq", after_seq)
        keyring.retire(directory, table, key_id, after_seq)
    except keyring.KeyringError as e:
        raise CommandError(str(e), EXIT_USAGE) from None
    click.echo(f"table {table}: key {key_id} signs nothing after seq {after_seq}")


@command.command("list")
@keyring_option
def list_keys(keyring_dir: Path | None) -> None:
    """Every table in the keyring, with its keys and the lines each may sign."""
    from tablectl.eventlog import keyring
    from tablectl.eventlog.trust import KeySpan, effective_spans

    directory = keyring_dir or keyring.default_dir()
    try:
        tables = keyring.tables(directory)
    except keyring.KeyringError as e:
        raise CommandError(str(e), EXIT_USAGE) from None
    if not tables:
        click.echo(f"{directory}: no tables")
    for table, enrolled in tables.items():
        spans = effective_spans([KeySpan(e.key, e.from_seq, e.until_seq) for e in enrolled])
        for e, span in zip(sorted(enrolled, key=lambda e: e.from_seq), spans, strict=True):
            note = f"  {e.note}" if e.note else ""
            click.echo(f"{table}  {e.key_id}  {span.describe()}  added {e.added}{note}")
