"""``tablectl config``: check a table configuration; make a supervisor credential's stored hash.

``tablectl config check CONFIG`` validates exactly as ``tablectl run`` does before it touches a
device (``tablectl.config.load_config``): it prints ``ok: <table> (<game>, N devices)`` and exits
0, or prints one line ``tablectl: <file>: <key>: <reason>`` and exits 2.

``tablectl config hash-credential`` reads a secret (a hidden prompt, asked twice, on a terminal;
the first line of stdin otherwise) and prints its ``scrypt$...`` hash for the config's
``[supervisors]`` table.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from tablectl.cli import EXIT_USAGE, CommandError


@click.group("config")
def command() -> None:
    """Check a table configuration; hash a supervisor credential."""


@command.command("check")
@click.argument("config_path", metavar="CONFIG", type=click.Path(path_type=Path, dir_okay=True))
def check(config_path: Path) -> None:
    """Validate CONFIG as `tablectl run` would (exit 0 valid, 2 with a one-line error)."""
    from tablectl.config import ConfigError, load_config

    try:
        config = load_config(config_path)
    except ConfigError as e:
        raise CommandError(str(e), EXIT_USAGE) from None
    devices = len(config.devices)
    click.echo(f"ok: {config.table} ({config.game}, {devices} device{'s' if devices != 1 else ''})")


@command.command("hash-credential")
def hash_credential_cmd() -> None:
    """Print the stored hash of a supervisor credential (read hidden from the terminal, or from stdin)."""
    from tablectl.supervisor import hash_credential, weakness

    if sys.stdin.isatty():
        secret = click.prompt("Credential", hide_input=True, confirmation_prompt=True, err=True)
    else:
        line = sys.stdin.readline()
        secret = line.rstrip("\r\n")
    problem = weakness(secret)
    if problem:
        raise CommandError(f"hash-credential: credential refused: {problem}", EXIT_USAGE)
    click.echo(hash_credential(secret))
