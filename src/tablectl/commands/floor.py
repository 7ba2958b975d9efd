"""``tablectl floor DATASET [--from DAY] [--to DAY] [--approved FILE] [--html FILE] [--json]``: the
floor report (``tablectl.analytics.floor.report``): per table, dealer and day the rounds, handle, win and
hold against the expected hold from the approved game math with its band, violations and holds
per 100 rounds, faults and penetration; seats against the same math; shuffle quality per shuffler
serial; tables whose rules are not approved or change within a day; per table, dealer and day the
result against the theoretical win from the play made (theo_sd, theo_z).

Exit codes: 0 nothing flagged; 1 a table (its hold or its rules), a player bank, dealer, day, seat,
shuffler or hand-shuffled shoe flagged, or a table, dealer or day whose result lies beyond its theoretical
win from the play made either way (theo_z), or a seat session flagged for play from hidden cards; 2 bad input
(not a dataset, a bad date, a ``--z`` that is not a positive finite number, an approved-math file that cannot be
used, an HTML file that cannot be written or a link in its place, sightings the test of play from hidden cards
cannot take, named by their seat session); 5 the HTML page cannot be written for a full disk (the page from before
is left as it was);
3 integrity: the dataset's files are not what its manifests list (a file no manifest lists, a listed
file missing, changed (SHA-256) or not a regular file, rows or column types differing from the manifest
and schemas), one line naming the file, or one per table whose files have no manifest, nothing reported. A game
math cache that cannot be written (a full disk) is a warning on stderr; the report still prints.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import click
import orjson

from tablectl.cli import EXIT_FINDINGS, EXIT_INTEGRITY, EXIT_USAGE, CommandError
from tablectl.commands.options import Finite, computing_progress_option


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
@click.option("--wide", is_flag=True, help="Every column of every section, however wide the lines.")
@click.option("--approved", "approved", type=click.Path(path_type=Path, dir_okay=False), metavar="FILE",
              help="The approved game math (default: DATASET/_manifests/approved.toml if kept, else the shipped one).")
@click.option("--z", "z_limit", type=Finite(min=0.0, min_open=True), default=3.0, show_default=True,
              help="The least z limit: never flag a table, dealer, day or seat less than this many standard deviations below expected.")
@click.option("--alpha", type=Finite(min=0.0, max=1.0, min_open=True, max_open=True), default=0.05, show_default=True,
              help="Family-wise false-alarm rate of each family (tables, player banks, dealers, days, seats; Bonferroni).")
@computing_progress_option
def command(dataset: Path, date_from: str | None, date_to: str | None, html_path: Path | None, as_json: bool,
            approved: Path | None, z_limit: float, alpha: float, wide: bool, progress: bool | None) -> None:
    """The floor report of DATASET (made by tablectl export). Game math it computes first (Texas
    Hold'em Bonus's main game, once per machine) is told on stderr, with how long it took and,
    on a terminal, its progress; Ctrl-C or SIGTERM stops it at once (exit 130)."""
    import sys

    from tablectl.commands.interrupt import exit_on_interrupt
    from tablectl.progress import Told, wanted

    exit_on_interrupt()
    told = Told(sys.stderr, wanted(progress, sys.stderr))

    from tablectl.analytics.approved import ApprovedError
    from tablectl.analytics.dataset.store import DatasetError, IntegrityError
    from tablectl.analytics.floor.render import render_html, render_text
    from tablectl.analytics.floor.report import floor
    from tablectl.commands.reports import check_path, write_report
    from tablectl.detection.screen import DetectionError

    if html_path is not None:
        check_path(html_path)  # a link, a FIFO or a device: refused before the report's work

    def warn(message: str) -> None:
        click.echo(f"tablectl: warning: {message}", err=True)

    try:
        report = floor(dataset, _day(date_from, "--from"), _day(date_to, "--to"), z_limit=z_limit, alpha=alpha, warn=warn,
                       approved=approved, progress=told)
    except ApprovedError as e:
        raise CommandError(str(e), EXIT_USAGE) from None
    except IntegrityError as e:  # one line per file or table
        raise CommandError("\ntablectl: ".join(f"integrity failure: {line}" for line in str(e).splitlines()),
                           EXIT_INTEGRITY) from None
    except (DatasetError, DetectionError) as e:
        raise CommandError(str(e), EXIT_USAGE) from None
    from tablectl.lookalike import lookalikes

    for group in lookalikes(r["dealer"] for r in report.dealers.dicts()):
        warn(f"dealer ids {', '.join(repr(g) for g in group)} look alike (case, dashes, Unicode forms or "
             "look-alike letters of other scripts): "
             "reported apart, check the dealer names logged")
    if html_path is not None:  # whole or not at all, 0640 whatever the umask, never through a link; a full disk: exit 5
        write_report(html_path, render_html(report).encode("utf-8"))
    if as_json:
        click.echo(orjson.dumps(report.to_dict(), default=str, option=orjson.OPT_INDENT_2))
    else:
        render_text(report, click.echo, wide=wide)
    if any(report.flagged[k] for k in ("tables", "player_banks", "rules", "dealers", "days", "seats", "shufflers",
                                       "hand_shuffles", "theo_tables", "theo_dealers", "theo_days", "advantage_play")):
        click.get_current_context().exit(EXIT_FINDINGS)
