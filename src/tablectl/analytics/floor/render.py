"""The floor report as terminal tables (rich) and as one self-contained HTML page."""

from __future__ import annotations

import datetime as dt
import html
import textwrap
from collections.abc import Callable, Sequence
from typing import Any

from tablectl.analytics.dataset.queries import Result
from tablectl.analytics.floor import detection_render as floor_detection_render
from tablectl.analytics.floor import plots
from tablectl.analytics.floor import theo as floor_theo
from tablectl.analytics.floor.report import FloorReport
from tablectl.analytics.floor.text_table import Column, fit

#: (column, heading, format) of the per-table / dealer / day sections
_GROUP_COLUMNS: list[tuple[str, str, str]] = [
    ("rounds", "rounds", "int"), ("handle", "handle $", "money"), ("win", "win $", "money"), ("hold", "hold", "pct"),
    ("judged_hold", "hold (analysed)", "pct"), ("expected_hold", "expected", "pct"), ("band_low", "band low", "pct"), ("band_high", "band high", "pct"),
    ("z", "z", "z"), ("p", "p", "p"),
    ("violations_per_100", "viol/100", "num"), ("holds_per_100", "holds/100", "num"),
    ("faults", "faults", "int"), ("penetration", "penetration", "pct"),
    ("theo_win", "theo $", "money"), ("edge_as_played", "edge as played", "pct"),
    ("theo_sd", "theo sd $", "money"), ("theo_z", "theo z", "z"),
]
_SEAT_COLUMNS = [("table_id", "table", "text"), ("seat", "seat", "int"), ("rounds", "rounds", "int"),
                 ("handle", "handle $", "money"), ("player_net", "player net $", "money"),
                 ("expected_player_net", "expected $", "money"), ("z", "z", "z"), ("p", "p", "p"),
                 ("theo_win", "theo $", "money"),
                 ("win", "actual $", "money"), ("edge_as_played", "edge as played", "pct")]
_PLAYER_COLUMNS = [("player", "player", "text"), ("tables", "tables", "int"), ("rounds", "rounds", "int"),
                   ("handle", "handle $", "money"), ("theo_win", "theo $", "money"), ("win", "actual $", "money"),
                   ("edge_as_played", "edge as played", "pct")]
_SHUFFLER_COLUMNS = [("serial", "serial", "text"), ("kind", "kind", "text"), ("shuffled_by", "shuffled by", "text"), ("shoes", "shoes", "int"),
                     ("tables", "tables", "int"), ("test", "test", "text"), ("figure", "figure", "num"),
                     ("expected", "perfect", "num"), ("combined_p", "combined p", "p")]
_MATH_COLUMNS = [("game", "game", "text"), ("decks", "decks", "int"), ("rules_id", "rules", "text"),
                 ("judged_by", "judged by (approved)", "text"), ("wager", "wager", "text"), ("edge", "house edge", "pct"),
                 ("variance", "variance", "num"), ("strategy", "strategy", "text"), ("note", "note", "text")]
_RULES_COLUMNS = [("table_id", "table", "text"), ("date", "day", "text"), ("finding", "finding", "text"),
                  ("round_span", "rounds", "text"), ("detail", "detail", "text"), ("rules_id", "rules", "text"),
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
    theo = report.limit(floor_theo.FAMILY)

    def low(family: str) -> Callable[[dict[str, Any]], bool]:
        return lambda row: report.flags(family, row) or floor_theo.outside(row, theo)

    return [
        ("Rules against the approved math", report.rules, _RULES_COLUMNS, lambda r: r["finding"] != "not judged"),
        ("Tables (bank: house, or player: the bank's result is not the house's)", report.tables,
         [("table_id", "table", "text"), ("game", "game", "text"), ("bank", "bank", "text"), ("rules", "rules", "text"),
          *_GROUP_COLUMNS],
         lambda r: report.flags("player_banks" if r.get("bank") == "player" else "tables", r)
         or floor_theo.outside(r, theo)),
        ("Dealers (bank: house, tested as the house's; player: at player-banked tables, either way)", report.dealers,
         [("dealer", "dealer", "text"), ("bank", "bank", "text"), *_GROUP_COLUMNS],
         lambda r: report.flags("dealers", r) or floor_theo.outside(r, theo)),
        ("Days (the house's own games; player banks apart)", report.days,
         [("date", "day", "text"), *_GROUP_COLUMNS, ("player_bank_win", "player banks' win $", "money")], low("days")),
        ("Seats", report.seats, _SEAT_COLUMNS, low("seats")),
        ("Players (as the pit entered them; every table and seat they sat at)", report.players, _PLAYER_COLUMNS,
         lambda r: False),
        ("Shuffle quality by serial number", report.shufflers, _SHUFFLER_COLUMNS,
         lambda r: r.get("combined_p") is not None and r["combined_p"] < report.p_limit),
        ("Game math in force", report.math, _MATH_COLUMNS, lambda r: False),
    ]


def period(report: FloorReport) -> str:
    """The days the report covers: those asked for, else the first and last day with rounds."""
    days = sorted(str(d["date"]) for d in report.days.dicts() if d.get("date") is not None)
    first = report.date_from or (days[0] if days else None)
    last = report.date_to or (days[-1] if days else None)
    return f"{first} .. {last}" if first and last else "no rounds"


def summary(report: FloorReport) -> list[str]:
    period_ = period(report)
    limits = ", ".join(f"{k} theo_z beyond +-{a.limit:.2f} ({a.tests} tests)" if k == floor_theo.FAMILY else
                       f"{k} p <= {a.p_limit:.2g}{' a side' if k == 'player_banks' else ''} "
                       f"(band z {'+-' if k == 'player_banks' else '-'}{a.limit:.2f}, {a.tests} tests)"
                       for k, a in report.alarms.items())
    hidden = (f"; play from hidden cards {report.advantage.method.capitalize()} at {report.advantage.alpha:g}"
              if report.advantage is not None and report.advantage.tests else "")
    lines = [f"floor report of {report.dataset}, {period_}",
             f"flagged (the bank lost more than the game math allows; a player bank outside its band either way): "
             f"{limits or f'z <= -{report.z_limit:g}'}; shufflers with combined p < {report.p_limit:g}",
             f"alarms: p from each wager's exact distribution (z shown for reading); {report.correction} at "
             f"family-wise alpha {report.alpha:g} per family, never at z nearer than {report.z_limit:g}{hidden}; "
             f"expected false alarms on an honest floor, every family: at most {report.expected_false_alarms():.3f}",
             f"variance: {report.variance}",
             f"judged against the approved math {report.approved}"]
    lines += report.house_revenue
    labels = {"not_judged": "NOT JUDGED tables (rules the game math does not model)",
              "partly_judged": "PARTLY JUDGED tables (the rounds a bank's stake limit could change are left out; "
                               "the others judged)"}
    for what, names in report.flagged.items():
        if names:
            lines.append(f"{labels.get(what, f'FLAGGED {what}')}: {', '.join(names)}")
    if not any(names for what, names in report.flagged.items() if what not in labels):
        lines.append("nothing flagged")
    return lines


#: each column's rank when the terminal is too narrow for all: 0 shown first, 4 left out first
_RANKS = {
    "table_id": 0, "dealer": 0, "date": 0, "seat": 0, "player": 0, "serial": 0, "finding": 0, "wager": 0,
    "edge": 0, "rounds": 1, "win": 1, "hold": 1, "expected_hold": 1, "z": 1, "p": 1, "bank": 1, "detail": 1,
    "player_net": 1, "combined_p": 1, "game": 3, "theo_z": 2, "handle": 2, "expected_player_net": 2,
    "edge_as_played": 2, "theo_win": 2, "test": 2, "figure": 2, "expected": 2, "round_span": 2, "rules": 3,
    "judged_hold": 3, "band_low": 3, "band_high": 3, "shuffled_by": 3, "kind": 3, "shoes": 3, "tables": 3,
    "rules_id": 4, "decks": 3, "judged_by": 3, "player_bank_win": 3, "variance": 3,
}
_WRAPS = frozenset({"detail", "note", "strategy", "judged_by", "rules_id", "rules"})
_NUMERIC = frozenset({"money", "pct", "z", "p", "int", "num"})


def render_text(report: FloorReport, echo: Callable[[str], None], *, width: int | None = None,
                wide: bool = False) -> None:
    """The report as plain-text tables printed through ``echo``, no line wider than ``width``
    (default: the terminal's, ``COLUMNS`` when set, 80 through a pipe): each section shows the
    columns that fit, most telling first, and says which it left out; a number is never split.
    ``wide``: every column, whatever the width. A flagged row starts with ``!``."""
    import shutil

    width = None if wide else (width or shutil.get_terminal_size().columns)

    def say(line: str, indent: str = "  ") -> None:
        if width is None or len(line) <= width:
            echo(line)
            return
        for part in textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=False,
                                  break_on_hyphens=False):
            echo(part)

    for line in summary(report):
        say(line)
    for title, result, columns, flagged in sections(report):
        rows = result.dicts()
        if title == "Seats":
            rows = [r for r in rows if flagged(r)]
            title = f"Seats outside the band ({len(rows)} of {len(result.rows)})"
        cols = [Column(heading, kind in _NUMERIC, name in _WRAPS, _RANKS.get(name, 4)) for name, heading, kind in columns]
        fitted = fit(cols, [[fmt(r.get(c), k) for c, _, k in columns] for r in rows], [bool(flagged(r)) for r in rows],
                     width)
        echo("")
        say(title + (" (! flagged)" if any(flagged(r) for r in rows) else ""))
        if fitted.left_out:
            say(f"(left out to fit {width} columns, --wide shows them: {', '.join(fitted.left_out)})")
        for line in fitted.lines:
            echo(line)
    if report.advantage is not None:
        echo("")
        for line in floor_detection_render.lines(report.advantage):
            say(line, indent=" " * (len(line) - len(line.lstrip()) + 2))


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
    if report.hold_curve is not None and report.hold_curve.rows:
        by_day: dict[str, dict[str, list[tuple[str, float]]]] = {}
        for row in report.hold_curve.dicts():
            if row["hold"] is not None:
                by_day.setdefault(str(row["date"]), {}).setdefault(str(row["table_id"]), []).append(
                    (str(row["end_ts"]), row["hold"]))
        parts.append("<h2>Hold through the day, per table</h2>")
        parts.append("<p>Each table's win over its handle so far that day, after each round (a player-banked "
                     "table: the bank's), against the time of day (UTC).</p>")
        parts += [f"<h3>{html.escape(day)}</h3>{plots.hold_through_day(series)}" for day, series in sorted(by_day.items())]
    parts.append("<h2>Theoretical win against actual win, per table</h2>")
    parts.append("<p>The theoretical win is what the approved math expects from the wagers and the play made "
                 "(house-banked tables); the actual win is the house's (a player-banked table: its bank's).</p>")
    parts.append(plots.theo_against_actual(report.tables.dicts()))
    if report.table_days is not None and len({str(r["date"]) for r in report.table_days.dicts()}) > 1:
        parts.append("<h2>Hold on the analysed wagers against its band, per table and day</h2>")
        parts.append("<p>Grey: the band (expected hold +- the z limit's standard deviations) on the analysed "
                     "wagers; line: the expected hold; dot: the hold on those wagers (red: below the band).</p>")
        by_table: dict[str, list[dict[str, Any]]] = {}
        for row in report.table_days.dicts():
            by_table.setdefault(str(row["table_id"]), []).append(row)
        parts += [hold_plot(table, rows) for table, rows in by_table.items()]
    if report.advantage is not None:
        parts.append(floor_detection_render.section(report.advantage))
    parts.append(f"<p>Computed in {report.seconds:.2f} s with DuckDB.</p></body></html>")
    return "\n".join(parts)


def hold_plot(table: str, days: Sequence[dict[str, Any]], *, width: int = 480, height: int = 160) -> str:
    """One table's hold per day against its band as an inline SVG (no scripts): per day a grey bar
    from ``band_low`` to ``band_high``, a line at ``expected_hold`` and a dot at ``judged_hold``,
    red when it lies below the band; a table with no judged day says so in its caption."""
    values = [v for d in days for v in (d.get("band_low"), d.get("band_high"), d.get("judged_hold")) if v is not None]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    if high - low < 1e-9:
        low, high = low - 0.01, high + 0.01
    pad, left = 12, 56
    step = (width - left - pad) / max(len(days), 1)

    def y(v: float) -> float:
        return pad + (high - v) / (high - low) * (height - 2 * pad - 14)

    judged = any(d.get("expected_hold") is not None for d in days)
    caption = table if judged else f"{table}: not judged (no game math for its rules)"
    out = [f"<figure><figcaption>{html.escape(caption)}</figcaption>"
           f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' role='img' "
           f"aria-label='hold against the band, {html.escape(table, quote=True)}'>",
           f"<text x='2' y='{y(high) + 4:.1f}' font-size='10'>{100 * high:.1f}%</text>",
           f"<text x='2' y='{y(low) + 4:.1f}' font-size='10'>{100 * low:.1f}%</text>"]
    for i, d in enumerate(days):
        x0 = left + i * step
        mid = x0 + step / 2
        b_low, b_high, expected, hold = d.get("band_low"), d.get("band_high"), d.get("expected_hold"), d.get("judged_hold")
        if b_low is not None and b_high is not None:
            out.append(f"<rect class='band' x='{x0 + step * 0.2:.1f}' y='{y(b_high):.1f}' width='{step * 0.6:.1f}' "
                       f"height='{max(y(b_low) - y(b_high), 1):.1f}' fill='#ddd'/>")
        if expected is not None:
            out.append(f"<line x1='{x0 + step * 0.15:.1f}' x2='{x0 + step * 0.85:.1f}' y1='{y(expected):.1f}' "
                       f"y2='{y(expected):.1f}' stroke='#555'/>")
        if hold is not None:
            below = b_low is not None and hold < b_low
            out.append(f"<circle class='{'flag' if below else 'hold'}' cx='{mid:.1f}' cy='{y(hold):.1f}' r='3.5' "
                       f"fill='{'#c00' if below else '#036'}'><title>{html.escape(str(d.get('date')))}: hold on the "
                       f"analysed wagers {100 * hold:.2f}%</title></circle>")
        out.append(f"<text x='{mid:.1f}' y='{height - 2}' font-size='10' text-anchor='middle'>"
                   f"{html.escape(str(d.get('date')))}</text>")
    out.append("</svg></figure>")
    return "".join(out)


def _html_table(rows: Sequence[dict[str, Any]], columns: list[tuple[str, str, str]],
                flagged: Callable[[dict[str, Any]], bool]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for _, h, _ in columns)
    body = []
    for row in rows:
        cls = " class='flag'" if flagged(row) else ""
        cells = "".join(f"<td>{html.escape(fmt(row.get(c), k))}</td>" for c, _, k in columns)
        body.append(f"<tr{cls}>{cells}</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"
