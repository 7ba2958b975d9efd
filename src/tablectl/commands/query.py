"""``tablectl query DATASET SQL|NAME [--from DAY] [--to DAY] [--csv|--json] [--timeout SECONDS]
[--memory SIZE]``: SQL on the
surveillance dataset with embedded DuckDB (views ``rounds``, ``cards``, ``bets``, ``decisions``,
``anomalies``, ``shoes``, ``devices``, ``faults``, ``wager_math``), or a named query
(``tablectl query DATASET --list``).

Read-only: one SELECT per run, over the files the manifests list; no file outside them can be read
or any file written (no COPY, ATTACH, INSTALL, LOAD, CREATE, SET, PRAGMA; ``read_text`` and the
like of other files fail). A query runs at most ``--timeout`` seconds (default 60) in at most
``--memory`` (DuckDB's ``memory_limit``, default 4GB); Ctrl-C stops it at once.

The result is a table as wide as the terminal; when its columns do not fit side by side (each
header whole, each value at least a few characters), each row is shown one column a line,
``NAME | value``.

Exit 2 for a bad or refused query, a query stopped by its time or memory limit, or a bad dataset;
3 (integrity) for a dataset whose files are not what its manifests list (one line naming the file,
or one per table); 130 interrupted; one line each.
"""

from __future__ import annotations

import csv
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click
import orjson

from tablectl.cli import EXIT_INTEGRITY, EXIT_USAGE, CommandError
from tablectl.commands.options import Finite

if TYPE_CHECKING:
    from tablectl.analytics.dataset.queries import Result

TIMEOUT = 60.0  # seconds a query may run by default
MEMORY = "4GB"  # DuckDB's memory limit by default


@click.command("query")
@click.argument("dataset", type=click.Path(path_type=Path, file_okay=False))
@click.argument("sql", required=False)
@click.option("--from", "date_from", metavar="DAY", help="First day (YYYY-MM-DD) for a named query's $from.")
@click.option("--to", "date_to", metavar="DAY", help="Last day (YYYY-MM-DD) for a named query's $to.")
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON rows.")
@click.option("--list", "list_names", is_flag=True, help="List the named queries.")
@click.option("--timeout", type=Finite(min=0.0), default=TIMEOUT, show_default=True, metavar="SECONDS",
              help="Stop the query after this many seconds (0: no limit).")
@click.option("--memory", default=MEMORY, show_default=True, metavar="SIZE",
              help="DuckDB's memory limit for the query (e.g. 512MB, 8GB); a query that needs more is stopped.")
def command(dataset: Path, sql: str | None, date_from: str | None, date_to: str | None, as_csv: bool,
            as_json: bool, list_names: bool, timeout: float, memory: str) -> None:
    """Run SQL (or the named query SQL) on DATASET and print the result."""
    from tablectl.commands.interrupt import exit_on_interrupt

    exit_on_interrupt()  # Ctrl-C or SIGTERM: DuckDB interrupted, exit 130, even where SIGINT came ignored
    result = _query(dataset, sql, date_from, date_to, list_names, timeout, memory)
    if result is not None:
        _print(result, as_csv, as_json)


def _query(dataset: Path, sql: str | None, date_from: str | None, date_to: str | None, list_names: bool,
           timeout: float, memory: str) -> Result | None:
    """The result of *sql* on *dataset* (None: the named queries were listed), its run bounded by
    *timeout* seconds (0: none) and *memory*; one-line errors."""
    import duckdb

    from tablectl.analytics.dataset.limits import TimeLimitError, within
    from tablectl.analytics.dataset.queries import (
        INTERNAL,
        LimitError,
        ReadOnlyError,
        connect,
        describe,
        make_cells,
        named_queries,
        run,
        uses_cells,
    )
    from tablectl.analytics.approved import ApprovedError
    from tablectl.analytics.dataset.store import DatasetError, IntegrityError

    named = named_queries()
    if list_names:
        for name in sorted(set(named) - INTERNAL):
            click.echo(f"{name:24} {describe(named[name])}")
        return None
    if not sql:
        raise CommandError("give SQL or a query name (tablectl query DATASET --list)", EXIT_USAGE)
    text = named.get(sql, sql)

    def warn(message: str) -> None:
        click.echo(f"tablectl: warning: {message}", err=True)

    def work() -> Result:
        if sql in named and uses_cells(text):  # floor_tables, _dealers, _days: over floor_cells
            make_cells(con, date_from, date_to)
        return run(con, text, date_from, date_to)

    try:
        con = connect(dataset, warn, memory_limit=memory)
        return within(con, work, timeout or None)
    except IntegrityError as e:  # one line per file or table
        raise CommandError("\ntablectl: ".join(f"integrity failure: {line}" for line in str(e).splitlines()),
                           EXIT_INTEGRITY) from None
    except (DatasetError, ApprovedError) as e:
        raise CommandError(str(e), EXIT_USAGE) from None
    except LimitError as e:
        raise CommandError(f"--memory {memory!r}: {e}", EXIT_USAGE) from None
    except TimeLimitError:
        raise CommandError(f"query: stopped after {timeout:g} s (--timeout {timeout:g}): narrow the query or give it "
                           "more time", EXIT_USAGE) from None
    except ReadOnlyError as e:
        raise CommandError(f"query: {e}", EXIT_USAGE) from None
    except duckdb.OutOfMemoryException as e:
        raise CommandError(f"query: out of memory (--memory {memory}): {str(e).splitlines()[0]}", EXIT_USAGE) from None
    except duckdb.Error as e:
        raise CommandError(f"query: {str(e).splitlines()[0]}", EXIT_USAGE) from None


def _print(result: Result, as_csv: bool, as_json: bool) -> None:
    """*result* on stdout: a table, CSV or JSON rows."""
    from tablectl.analytics.dataset.queries import display

    if as_json:
        click.echo(orjson.dumps(result.dicts(), default=str, option=orjson.OPT_INDENT_2))
    elif as_csv:
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(result.columns)
        writer.writerows(result.rows)
    else:
        from rich.cells import cell_len
        from rich.console import Console
        from rich.table import Table

        width = shutil.get_terminal_size().columns
        cells = [[display(v) for v in row] for row in result.rows]
        least = [max(cell_len(c), min(NARROWEST, max((cell_len(r[i]) for r in cells), default=0)))
                 for i, c in enumerate(result.columns)]
        if sum(least) + 3 * len(least) + 1 > width:  # a table would squeeze columns out of sight
            for line in vertical(result.columns, cells):
                click.echo(line)
            return
        table = Table()
        for c, w in zip(result.columns, least, strict=True):
            table.add_column(c, overflow="fold", min_width=w)
        for row in cells:
            table.add_row(*row)
        Console(width=width).print(table)


#: the least width a terminal table gives a column's values (its header: whole)
NARROWEST = 8


def vertical(columns: list[str], rows: list[list[str]]) -> list[str]:
    """*rows* (shown values) laid out one column a line, ``NAME | value``, each row under a
    ``-[ row N ]-`` line: for a result whose columns do not fit side by side."""
    pad = max(map(len, columns), default=0)
    out = []
    for n, row in enumerate(rows, 1):
        out.append(f"-[ row {n} ]" + "-" * max(0, pad - 6))
        out.extend(f"{c:<{pad}} | {v}".rstrip() for c, v in zip(columns, row, strict=True))
    return out or [f"(0 rows) {', '.join(columns)}"]
