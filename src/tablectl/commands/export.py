"""``tablectl export LOG... --to DATASET``: verified card logs into the surveillance
dataset (Hive-partitioned Parquet; ``docs/surveillance.md``). The work is in
``tablectl.analytics.export.logs``.

Exit codes: 0 exported (or nothing new); 3 a log failed verification (or no longer continues what
was exported): refused with its file and line, nothing of it exported (the other tables are);
2 bad input (a path that does not exist, no logs, no trusted key for a table — none in the keyring,
no ``--key`` — or a key lying in, inside or above the log's folder, or leading there, a dataset
that cannot be used, a symbolic link planted in it where the export writes: refused, nothing
written through it); 5 the dataset cannot be written (disk full, I/O error): nothing of the table it
stopped at stays, the tables committed before it are listed; or another export held it for longer
than ``--wait``: nothing exported; try again later.

On a terminal, stderr shows the export's progress through the logs (lines, %, rate, ETA) on one
redrawn line, wiped when they are read; ``--progress``/``--no-progress`` force it on or off.

The tables are exported several at once, each in its own process (``--workers``, default the
machine's cores; the dataset is the same as one at a time).

One export writes a dataset at a time: an export holds ``DATASET/_manifests/.lock`` (``flock``); a
second one says so on stderr in one line and waits for it (``--wait``, default 600 s; 0: not at all).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import click

from tablectl.cli import EXIT_INTEGRITY, EXIT_STORAGE, EXIT_USAGE, CommandError
from tablectl.commands.options import Finite, keyring_option, log_progress, progress_option, trust_for
from tablectl.text import escaped

if TYPE_CHECKING:
    from tablectl.analytics.export.table import TableExport
    from tablectl.eventlog.trust import Trust


@click.command("export")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--to", "dataset", required=True, type=click.Path(path_type=Path, file_okay=False), metavar="DATASET",
              help="The dataset directory (made if missing).")
@click.option("--key", "keys", multiple=True, type=click.Path(path_type=Path), metavar="PUB",
              help="Trust this Ed25519 public key (PEM) instead of the keyring, for every table. Repeat for a replaced key.")
@click.option("--wait", "wait", type=Finite(min=0.0), default=600.0, show_default=True, metavar="SECONDS",
              help="If another export is writing DATASET, wait this long for it, then give up (exit 5).")
@click.option("--workers", type=click.IntRange(min=1), default=None, metavar="N",
              help="Export up to N tables at once, each in its own process (default: the machine's cores).")
@keyring_option
@progress_option
def command(paths: tuple[Path, ...], dataset: Path, keys: tuple[Path, ...], wait: float, workers: int | None,
            keyring_dir: Path | None, progress: bool | None) -> None:
    """Verify the card logs in PATH... (log files or directories, any number of tables) and add
    what is new in them to DATASET: rounds, cards, bets, decisions, anomalies, shoes, devices and
    faults as Parquet, partitioned by table and day. Each log is verified with its table's keys
    from the keyring (or --key)."""
    from tablectl.analytics.dataset.store import DatasetBusyError, DatasetError
    from tablectl.analytics.export.logs import export_logs, logs_by_table
    from tablectl.commands.interrupt import exit_on_interrupt
    from tablectl.eventlog.errors import LogInputError
    from tablectl.files import LinkRefusedError

    exit_on_interrupt()

    def busy(message: str) -> None:
        click.echo(f"tablectl: {message}", err=True)

    results: list[TableExport] = []  # each table's, as its export ends
    failure: CommandError | None = None  # said after the tables exported before it
    shown = None
    try:
        shown = log_progress("export", [f for files in logs_by_table(paths).values() for f in files], progress)
        def trust(files: list[Path]) -> Trust | None:
            return trust_for(files, keys, keyring_dir, refuse_beside="nothing exported")

        export_logs(paths, dataset, trust, wait=wait, busy=busy, progress=shown.advance if shown is not None else None,
                    workers=workers or os.cpu_count() or 1, done=results.append)
    except (LogInputError, DatasetError) as e:
        failure = CommandError(str(e), EXIT_USAGE)
    except DatasetBusyError as e:
        failure = CommandError(str(e), EXIT_STORAGE)
    except LinkRefusedError as e:  # planted in the dataset: nothing written through it
        failure = CommandError(str(e), EXIT_USAGE)
    except OSError as e:
        failure = CommandError(f"{e.filename or dataset}: cannot write the dataset: {e.strerror or e}", EXIT_STORAGE)
    finally:
        if shown is not None:
            shown.close()
    refused = []
    for r in sorted(results, key=lambda r: r.table):
        if r.note is not None:
            click.echo(f"tablectl: {r.table}: {escaped(r.note)}", err=True)
        if r.refused is not None:
            refused.append(r)
            click.echo(f"tablectl: {r.table}: refused, nothing exported: {escaped(r.refused)}", err=True)
        elif not r.rows:
            click.echo(f"{r.table}: nothing new (exported through seq {r.from_seq - 1})")
        else:
            counts = ", ".join(f"{n} {name}" for name, n in r.rows.items() if n) or "no new rows"
            click.echo(f"{r.table}: seq {r.from_seq}-{r.to_seq}: {counts} ({r.seconds:.2f} s)")
    if failure is not None:
        raise failure
    if refused:
        click.get_current_context().exit(EXIT_INTEGRITY)
