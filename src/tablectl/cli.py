"""The ``tablectl`` command: a click group whose subcommands load lazily from ``tablectl.commands``.

Each subcommand lives in its own module (``tablectl/commands/<name>.py``) exporting ``command``;
loading on demand keeps ``tablectl --help`` fast and keeps heavy imports (USB, display, crypto)
out of commands that do not need them.

Exit codes (shared by every command, for scripts): 0 ok; 1 findings (anomalies, violations);
2 bad input or configuration; 3 integrity failure (log verification; restarting will not help);
4 device error (unreachable, no answer, protocol mismatch, port busy); 5 log storage failure
(disk full, I/O error: restart once space is back); 130 interrupted.
"""

from __future__ import annotations

import errno
import importlib
import os
import signal
import sys
from types import FrameType

import click

from tablectl.text import escaped

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_INTEGRITY = 3
EXIT_DEVICE = 4
EXIT_STORAGE = 5
EXIT_INTERRUPTED = 130


def _terminated(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(EXIT_INTERRUPTED)

# name -> (module under tablectl.commands, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "sim": ("sim", "Serve a simulated device over a pty or TCP (USB: in-process, see docs)."),
    "devices": ("devices", "List serial devices; watch a device's events."),
    "run": ("run", "Run a table from its config (real or simulated devices)."),
    "math": ("math", "Exact combinatorial analysis of a game's bets."),
    "review": ("review", "Verify, replay and analyse card logs."),
    "anchor": ("anchor", "Record a log's last signed checkpoint head in an anchor file."),
    "keygen": ("keygen", "Write an Ed25519 signing key pair for a table."),
    "keyring": ("keyring", "Add, retire and list the tables' trusted public keys."),
    "config": ("config", "Check a table configuration."),
    "supervisor": ("supervisor", "Add, remove and list a table's supervisors."),
    "diagram": ("diagram", "Print the table state machine as a mermaid diagram."),
    "export": ("export", "Export verified card logs as a Parquet dataset for surveillance."),
    "query": ("query", "SQL and named surveillance queries on an exported dataset (DuckDB)."),
    "floor": ("floor", "The floor report: hold against the game math by table, dealer and day."),
    "pit": ("pit", "The live pit page over every table of a floor (--demo N: a whole floor here)."),
    "broker": ("broker", "Run the floor's NATS broker with JetStream (nats-server)."),
    "collect": ("collect", "Collect every table's log from the broker into verified copies."),
}


class LazyGroup(click.Group):
    """A group that imports a subcommand's module only when that subcommand runs."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module = importlib.import_module(f"tablectl.commands.{COMMANDS[cmd_name][0]}")
        return module.command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, COMMANDS[name][1]) for name in sorted(COMMANDS)])

    def invoke(self, ctx: click.Context) -> object:
        """The subcommand's run, what it leaves on stdout flushed here rather than at exit; stdout
        failing (a full disk, a closed pipe) is one line, exit 5, here where click's main does not
        yet turn a closed pipe into exit 1 with no word."""
        try:
            try:
                return super().invoke(ctx)
            finally:
                sys.stdout.flush()
        except OSError as e:
            failed = _output_failed(e)
            if failed is None:
                raise
            raise failed from None


class CommandError(click.ClickException):
    """A one-line error with a specific exit code; printed as ``tablectl: <message>``."""

    def __init__(self, message: str, exit_code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.exit_code = exit_code

    def show(self, file=None) -> None:  # type: ignore[override]
        click.echo(f"tablectl: {escaped(self.format_message())}", err=True)


@click.group(cls=LazyGroup)
@click.version_option(package_name="tablectl")
def main() -> None:
    """tablectl: an open controller for casino table hardware."""


def entry() -> None:
    """The ``tablectl`` program: from its first moment a SIGTERM ends a command as a clean stop
    (exit 130, its ``finally`` blocks run), never by the signal's default action; ``run``
    installs its own handler at once. Once the command has ended, its exit code stands: a SIGTERM
    or Ctrl-C during the interpreter's exit (which puts back the default action of a signal Python
    handles) is ignored."""
    signal.signal(signal.SIGTERM, _terminated)
    try:
        main()
    except OSError as e:  # outside a subcommand's run (LazyGroup.invoke): --help, say
        failed = _output_failed(e)
        if failed is None:
            raise
        failed.show()
        raise SystemExit(failed.exit_code) from None
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)


# what stdout on a full disk, or a closed pipe, raises out of a command's printing
_OUTPUT_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EPIPE})


def _output_failed(e: OSError) -> CommandError | None:
    """The one-line error (exit 5) of stdout failing with *e*, stdout dropped (:func:`drop_stdout`);
    None for an error that is not stdout's."""
    if e.errno not in _OUTPUT_ERRNOS:
        return None
    drop_stdout()
    return CommandError(f"cannot write the output: {e.strerror or e}", EXIT_STORAGE)


def drop_stdout() -> None:
    """Point stdout at /dev/null so that what it still buffers fails nowhere at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # a stdout that is no file
        pass
