"""The floor report as terminal tables (rich) and as one self-contained HTML page."""

from __future__ import annotations

import datetime as dt
import html
import io
from collections.abc import Callable, Sequence
from typing import Any

from tablectl.analytics.floor import FloorReport, outside_band
from tablectl.analytics.queries import Result

#: (column, heading, format) of the per-table / dealer / day sections
_GROUP_COLUMNS: list[tuple[str, str, str]] = [
    ("rounds", "rounds", "int"), ("handle", "handle $", "money"), ("win", "win $", "money"), ("hold", "hold", "pct"),
    ("judged_hold", "hold (analysed)", "pct"), ("expected_hold", "expected", "pct"), ("band_low", "band low", "pct"), ("band_high", "band high", "pct"),
    ("z", "z", "z"), ("violations_per_100", "viol/100", "num"), ("holds_per_100", "holds/100", "num"),
    ("faults", "faults", "int"), ("penetration", "penetration", "pct"),
]
_SEAT_COLUMNS = [("table", "table", "text"), ("seat", "seat", "int"), ("rounds", "rounds", "int"),
                 ("handle", "handle $", "money"), ("player_net", "player net $", "money"),
                 ("expected_player_net", "expected $", "money"), ("z", "z", "z")]
_SHUFFLER_COLUMNS = [("serial", "serial", "text"), ("kind", "kind", "text"), ("shuffled_by", "shuffled by", "text"), ("shoes", "shoes", "int"),
                     ("tables", "tables", "int"), ("test", "test", "text"), ("figure", "figure", "num"),
                     ("expected", "perfect", "num"), ("combined_p", "combined p", "p")]
_MATH_COLUMNS = [("game", "game", "text"), ("decks", "decks", "int"), ("rules_id", "rules", "text"),
                 ("judged_by", "judged by (approved)", "text"), ("wager", "wager", "text"), ("edge", "house edge", "pct"),
                 ("variance", "variance", "num"), ("strategy", "strategy", "text"), ("note", "note", "text")]
_RULES_COLUMNS = [("table", "table", "text"), ("date", "day", "text"), ("finding", "finding", "text"),
                  ("rules_id", "rules", "text"), ("detail", "detail", "text"), ("rounds", "rounds", "int"),
                  ("seq_from", "from seq", "int"), ("seq_to", "to seq", "int")]


def fmt(value: Any, kind: str) -> str:
    if value is None:
        return "-"
    if kind == "money":
        return f"{value / 100:,.0f}"
    if kind == "pct":
        return f"{100 * value:.2f}%"
    if kind == "z":
        return f"{value:+.2f}"
    if kind == "num":
        return f"{value:.3g}" if isinstance(value, float) else str(value)
    if kind == "p":
        return f"{value:.2g}"
    if kind == "int":
        return f"{int(value):,}"
    return str(value.isoformat() if isinstance(value, dt.date) else value)


def sections(report: FloorReport) -> list[tuple[str, Result, list[tuple[str, str, str]], Callable[[dict[str, Any]], bool]]]:
    """(title, rows, columns, is this row flagged) of each section, in the order shown."""
    z = report.z_limit

    def low(row: dict[str, Any]) -> bool:
        return row.get("z") is not None and row["z"] <= -z

    return [
        ("Rules against the approved math", report.rules, _RULES_COLUMNS, lambda r: r["finding"] != "not judged"),
        ("Tables (bank: house, or player: the bank's result is not the house's)", report.tables,
         [("table", "table", "text"), ("game", "game", "text"), ("bank", "bank", "text"), ("rules", "rules", "text"),
          *_GROUP_COLUMNS], lambda r: outside_band(r, z)),
        ("Dealers", report.dealers, [("dealer", "dealer", "text"), *_GROUP_COLUMNS], low),
        ("Days (the house's own games; player banks apart)", report.days,
         [("date", "day", "text"), *_GROUP_COLUMNS, ("player_bank_win", "player banks' win $", "money")], low),
        ("Seats", report.seats, _SEAT_COLUMNS, low),
        ("Shuffle quality by serial number", report.shufflers, _SHUFFLER_COLUMNS,
         lambda r: r.get("combined_p") is not None and r["combined_p"] < report.p_limit),
        ("Game math in force", report.math, _MATH_COLUMNS, lambda r: False),
    ]


def summary(report: FloorReport) -> list[str]:
    period = f"{report.date_from or 'start'} .. {report.date_to or 'end'}"
    lines = [f"floor report of {report.dataset}, {period}; flagged: z <= -{report.z_limit:g} "
             f"(the bank lost more than the game math allows), shufflers with combined p < {report.p_limit:g}"]
    lines.append(f"judged against the approved math {report.approved}")
    lines += report.house_revenue
    for what, names in report.flagged.items():
        if names:
            lines.append(f"NOT JUDGED tables: {', '.join(names)}" if what == "not_judged" else f"FLAGGED {what}: {', '.join(names)}")
    if not any(names for what, names in report.flagged.items() if what != "not_judged"):
        lines.append("nothing flagged")
    return lines


def render_text(report: FloorReport, echo: Callable[[str], None], *, width: int = 200) -> None:
    """The report as rich tables, printed through ``echo``."""
    from rich.console import Console
    from rich.table import Table

    console = Console(file=io.StringIO(), width=width, record=True, force_terminal=False)
    for title, result, columns, flagged in sections(report):
        if title == "Seats":
            rows = [r for r in result.dicts() if flagged(r)]
            title = f"Seats outside the band ({len(rows)} of {len(result.rows)})"
        else:
            rows = result.dicts()
        table = Table(title=title, title_justify="left")
        for _, heading, _ in columns:
            table.add_column(heading)
        for row in rows:
            table.add_row(*(fmt(row.get(c), k) for c, _, k in columns), style="bold red" if flagged(row) else None)
        console.print(table)
    text = console.export_text()
    for line in [*summary(report), *text.rstrip("\n").split("\n")]:
        echo(line)


def render_html(report: FloorReport) -> str:
    """A self-contained HTML page (no scripts, no external files)."""
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'><title>tablectl floor report</title><style>",
        "body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse;margin:0 0 2em}",
        "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}th{background:#eee}",
        "td:first-child{text-align:left}tr.flag td{background:#fdd;font-weight:bold}",
        "</style></head><body><h1>Floor report</h1>",
    ]
    parts += [f"<p>{html.escape(line)}</p>" for line in summary(report)]
    for title, result, columns, flagged in sections(report):
        parts.append(f"<h2>{html.escape(title)}</h2>")
        parts.append(_html_table(result.dicts(), columns, flagged))
    parts.append(f"<p>Computed in {report.seconds:.2f} s with DuckDB.</p></body></html>")
    return "\n".join(parts)


def _html_table(rows: Sequence[dict[str, Any]], columns: list[tuple[str, str, str]],
                flagged: Callable[[dict[str, Any]], bool]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for _, h, _ in columns)
    body = []
    for row in rows:
        cls = " class='flag'" if flagged(row) else ""
        cells = "".join(f"<td>{html.escape(fmt(row.get(c), k))}</td>" for c, _, k in columns)
        body.append(f"<tr{cls}>{cells}</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"
