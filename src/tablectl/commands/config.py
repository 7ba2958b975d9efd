"""``tablectl config``: check a table configuration; make a supervisor credential's stored hash.

``tablectl config check CONFIG`` validates exactly as ``tablectl run`` does before it touches a
device (``tablectl.config.load_config``): it prints ``ok: <table> (<game>, N devices)`` and exits
0, or prints one line ``tablectl: <file>: <key>: <reason>`` and exits 2. It checks the config for
production (real devices) and so also refuses what a production table must not run with unless
the config allows it by name (``tablectl.config.production_risks``: no signing key, ``fsync =
false``); ``--simulate`` checks it for ``tablectl run --simulate`` instead, which skips those.

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
@click.option("--simulate", is_flag=True, help="Check for `tablectl run --simulate` (no production checks).")
def check(config_path: Path, simulate: bool) -> None:
    """Validate CONFIG as `tablectl run` would (exit 0 valid, 2 with a one-line error).

    Without --simulate the config is for production: a missing log.signing_key or fsync = false
    is refused unless log.allow_unsigned / log.allow_no_fsync says so."""
    from tablectl.config import ConfigError, load_config, production_risks

    try:
        config = load_config(config_path)
    except ConfigError as e:
        raise CommandError(str(e), EXIT_USAGE) from None
    if config.demo and not simulate:
        raise CommandError(f"{config_path}: a demo config (demo = true), for `tablectl run --simulate`: check it with "
                           "--simulate; for a live table start from config/production.toml", EXIT_USAGE)
    risks = [] if simulate else production_risks(config)
    if risks:
        key, reason = risks[0]
        raise CommandError(f"{config_path}: {key}: {reason}", EXIT_USAGE)
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
