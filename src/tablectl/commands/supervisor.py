"""``tablectl supervisor``: add, remove and list the supervisors of a table config.

``tablectl supervisor add CONFIG ID`` asks for the new supervisor's credential twice, hidden (on a
terminal; from a script, the first line of stdin), refuses a weak one
(``tablectl.supervisor.weakness``), and writes only its scrypt hash into the config's
``[supervisors]`` table. The file is edited in place with its comments and layout kept (tomlkit),
checked as ``tablectl run`` would check it, and replaced atomically: a config that would not
load is never written. Exit codes: 0 done, 2 refused (one line says why).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import click

from tablectl.cli import EXIT_USAGE, CommandError

_CONFIG = click.argument("config_path", metavar="CONFIG", type=click.Path(path_type=Path, dir_okay=False))


@click.group("supervisor")
def command() -> None:
    """Add, remove and list a table's supervisors (credential hashes in the config)."""


def _read_secret(supervisor: str) -> str:
    if sys.stdin.isatty():
        return click.prompt(f"Credential for {supervisor}", hide_input=True, confirmation_prompt=True, err=True)
    return sys.stdin.readline().rstrip("\r\n")


def _load_document(path: Path):  # type: ignore[no-untyped-def]
    """The config at ``path`` as a tomlkit document (comments and layout kept); a one-line
    ``CommandError`` for a file that is not a regular file of a config's size, or not TOML."""
    import tomlkit
    from tomlkit.exceptions import ParseError

    from tablectl.files import MAX_CONFIG_BYTES, read_regular

    try:
        text = read_regular(path, "config", MAX_CONFIG_BYTES).decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise CommandError(f"{path}: cannot read: {getattr(e, 'strerror', None) or e}", EXIT_USAGE) from None
    try:
        return tomlkit.parse(text)
    except ParseError as e:
        raise CommandError(f"{path}: bad TOML: {e}", EXIT_USAGE) from None
    except RecursionError:
        raise CommandError(f"{path}: bad TOML: nested too deeply to be a table config", EXIT_USAGE) from None


def _write_checked(path: Path, text: str) -> None:
    """Write ``text`` over ``path`` atomically, only if it loads as a table config."""
    from tablectl.config import ConfigError, load_config

    mode = path.stat().st_mode & 0o777
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".toml", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fchmod(f.fileno(), mode)
            os.fsync(f.fileno())
        try:
            load_config(tmp)
        except ConfigError as e:
            raise CommandError(f"{path}: not changed: {str(e).replace(tmp, str(path))}", EXIT_USAGE) from None
        os.replace(tmp, path)
        tmp = ""
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    finally:
        if tmp:
            os.unlink(tmp)


@command.command("add")
@_CONFIG
@click.argument("supervisor_id", metavar="ID")
@click.option("--replace", is_flag=True, help="Replace the credential of a supervisor already in the config.")
def add(config_path: Path, supervisor_id: str, replace: bool) -> None:
    """Add supervisor ID to CONFIG (asks the credential twice; stores only its hash)."""
    import tomlkit

    from tablectl.config import supervisor_id_problem
    from tablectl.drivers.messages import printable
    from tablectl.supervisor import hash_credential, weakness

    doc = _load_document(config_path)
    problem = supervisor_id_problem(supervisor_id)
    if problem is not None:
        raise CommandError(f"supervisor id {printable(repr(supervisor_id))}: {problem}", EXIT_USAGE)
    supervisors = doc.get("supervisors")
    if supervisors is None:
        supervisors = tomlkit.table()
        doc["supervisors"] = supervisors
    elif supervisor_id in supervisors and not replace:
        raise CommandError(f"{config_path}: supervisors.{supervisor_id}: already there (--replace to change it)", EXIT_USAGE)
    secret = _read_secret(supervisor_id)
    problem = weakness(secret, supervisor_id)
    if problem:
        raise CommandError(f"credential for {supervisor_id} refused: {problem}", EXIT_USAGE)
    supervisors[supervisor_id] = hash_credential(secret)
    _write_checked(config_path, tomlkit.dumps(doc))
    click.echo(f"{config_path}: supervisor {supervisor_id} {'replaced' if replace else 'added'}")


@command.command("remove")
@_CONFIG
@click.argument("supervisor_id", metavar="ID")
def remove(config_path: Path, supervisor_id: str) -> None:
    """Remove supervisor ID from CONFIG (revokes their credential)."""
    import tomlkit

    doc = _load_document(config_path)
    supervisors = doc.get("supervisors")
    if supervisors is None or supervisor_id not in supervisors:
        raise CommandError(f"{config_path}: supervisors.{supervisor_id}: no such supervisor", EXIT_USAGE)
    del supervisors[supervisor_id]
    _write_checked(config_path, tomlkit.dumps(doc))
    click.echo(f"{config_path}: supervisor {supervisor_id} removed")


@command.command("list")
@_CONFIG
def list_(config_path: Path) -> None:
    """The supervisor ids in CONFIG, one a line."""
    from tablectl.config import ConfigError, load_config

    try:
        config = load_config(config_path)
    except ConfigError as e:
        raise CommandError(str(e), EXIT_USAGE) from None
    for supervisor in sorted(config.supervisors):
        click.echo(supervisor)
