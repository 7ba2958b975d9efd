"""``tablectl floor DATASET [--from DAY] [--to DAY] [--html FILE] [--json]``: the floor report
(``tablectl.analytics.floor``): per table, dealer and day the rounds, handle, win and hold against
the expected hold from the game math with its band, violations and holds per 100 rounds, faults
and penetration; seats against the same math; shuffle quality per shuffler serial.

Exit codes: 0 nothing flagged; 1 a table, dealer, shuffler or hand-shuffled shoe flagged; 2 bad input (not a
dataset, a bad date, an HTML file that cannot be written).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import click
import orjson

from tablectl.cli import EXIT_FINDINGS, EXIT_USAGE, CommandError


def _day(value: str | None, option: str) -> str | None:
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value).isoformat()
    except ValueError:
        raise CommandError(f"{option} {value!r}: not a day (YYYY-MM-DD)", EXIT_USAGE) from None


@click.command("floor")
@click.argument("dataset", type=click.Path(path_type=Path, file_okay=False))
@click.option("--from", "date_from", metavar="DAY", help="First day (YYYY-MM-DD, UTC), inclusive.")
@click.option("--to", "date_to", metavar="DAY", help="Last day (YYYY-MM-DD, UTC), inclusive.")
@click.option("--html", "html_path", type=click.Path(path_type=Path, dir_okay=False), metavar="FILE",
              help="Also write the report as a self-contained HTML page.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--z", "z_limit", type=click.FloatRange(min=0.0, min_open=True), default=3.0, show_default=True,
              help="Flag a table, dealer or day whose win lies this many standard deviations below expected.")
def command(dataset: Path, date_from: str | None, date_to: str | None, html_path: Path | None, as_json: bool,
            z_limit: float) -> None:
    """The floor report of DATASET (made by tablectl export)."""
    from tablectl.analytics.dataset import DatasetError
    from tablectl.analytics.floor import floor
    from tablectl.analytics.floor_render import render_html, render_text

    try:
        report = floor(dataset, _day(date_from, "--from"), _day(date_to, "--to"), z_limit=z_limit)
    except DatasetError as e:
        raise CommandError(str(e), EXIT_USAGE) from None
    if html_path is not None:
        try:
            html_path.write_text(render_html(report), encoding="utf-8")
        except OSError as e:
            raise CommandError(f"{html_path}: cannot write the HTML report: {e.strerror or e}", EXIT_USAGE) from None
    if as_json:
        click.echo(orjson.dumps(report.to_dict(), default=str, option=orjson.OPT_INDENT_2))
    else:
        render_text(report, click.echo)
    if any(report.flagged[k] for k in ("tables", "dealers", "shufflers", "hand_shuffles")):
        click.get_current_context().exit(EXIT_FINDINGS)
