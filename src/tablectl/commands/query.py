"""``tablectl query DATASET SQL|NAME [--from DAY] [--to DAY] [--csv|--json]``: SQL on the
surveillance dataset with embedded DuckDB (views ``rounds``, ``cards``, ``bets``, ``decisions``,
``anomalies``, ``shoes``, ``devices``, ``faults``, ``wager_math``), or a named query
(``tablectl query DATASET --list``).

Read-only: one SELECT per run, over the files the manifests list; no file outside them can be read
or any file written (no COPY, ATTACH, INSTALL, LOAD, CREATE, SET, PRAGMA; ``read_text`` and the
like of other files fail). Exit 2 for a bad or refused query or a bad dataset, 3 (integrity) for a
dataset whose files are not what its manifests list (one line naming the file); one line each.
"""

from __future__ import annotations

import csv
import shutil
import sys
from pathlib import Path

import click
import orjson

from tablectl.cli import EXIT_INTEGRITY, EXIT_USAGE, CommandError


@click.command("query")
@click.argument("dataset", type=click.Path(path_type=Path, file_okay=False))
@click.argument("sql", required=False)
@click.option("--from", "date_from", metavar="DAY", help="First day (YYYY-MM-DD) for a named query's $from.")
@click.option("--to", "date_to", metavar="DAY", help="Last day (YYYY-MM-DD) for a named query's $to.")
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON rows.")
@click.option("--list", "list_names", is_flag=True, help="List the named queries.")
def command(dataset: Path, sql: str | None, date_from: str | None, date_to: str | None, as_csv: bool,
            as_json: bool, list_names: bool) -> None:
    """Run SQL (or the named query SQL) on DATASET and print the result."""
    import duckdb

    from tablectl.analytics.dataset.queries import (
        INTERNAL,
        ReadOnlyError,
        connect,
        describe,
        display,
        make_cells,
        named_queries,
        run,
        uses_cells,
    )
    from tablectl.analytics.dataset.store import DatasetError, IntegrityError

    named = named_queries()
    if list_names:
        for name in sorted(set(named) - INTERNAL):
            click.echo(f"{name:24} {describe(named[name])}")
        return
    if not sql:
        raise CommandError("give SQL or a query name (tablectl query DATASET --list)", EXIT_USAGE)
    text = named.get(sql, sql)
    def warn(message: str) -> None:
        click.echo(f"tablectl: warning: {message}", err=True)

    try:
        con = connect(dataset, warn)
        if sql in named and uses_cells(text):  # floor_tables, _dealers, _days: over floor_cells
            make_cells(con, date_from, date_to)
        result = run(con, text, date_from, date_to)
    except IntegrityError as e:
        raise CommandError(f"integrity failure: {e}", EXIT_INTEGRITY) from None
    except DatasetError as e:
        raise CommandError(str(e), EXIT_USAGE) from None
    except ReadOnlyError as e:
        raise CommandError(f"query: {e}", EXIT_USAGE) from None
    except duckdb.Error as e:
        raise CommandError(f"query: {str(e).splitlines()[0]}", EXIT_USAGE) from None
    if as_json:
        click.echo(orjson.dumps(result.dicts(), default=str, option=orjson.OPT_INDENT_2))
    elif as_csv:
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(result.columns)
        writer.writerows(result.rows)
    else:
        from rich.console import Console
        from rich.table import Table

        table = Table()
        for c in result.columns:
            table.add_column(c, overflow="fold")
        for row in result.rows:
            table.add_row(*(display(v) for v in row))
        Console(width=shutil.get_terminal_size().columns).print(table)
