"""Small inline-SVG charts for the HTML review report: no JavaScript, no fonts, no network.

Each function returns one ``<svg>`` element as text, sized in CSS pixels, with every label escaped.
The charts are deliberately plain: bars (penetration per shoe), a timeline (anomalies over the log),
a dial (one figure against its expected value, coloured by verdict), a heat map (residuals) and
paired bars (observed against expected shares).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

VERDICT_COLOURS = {"pass": "#2e7d32", "warn": "#ef8f00", "fail": "#c62828", "n/a": "#757575"}
PALETTE = ("#c62828", "#ef8f00", "#6a1b9a", "#1565c0", "#00838f", "#2e7d32", "#5d4037", "#ad1457", "#455a64", "#9e9d24")


def _num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _text(x: float, y: float, s: str, *, anchor: str = "start", size: int = 11, colour: str = "#222", extra: str = "") -> str:
    return (f'<text x="{_num(x)}" y="{_num(y)}" text-anchor="{anchor}" font-family="sans-serif" font-size="{size}" '
            f'fill="{colour}"{extra}>{escape(s)}</text>')


def _frame(width: int, height: int, title: str, body: list[str]) -> str:
    head = f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img">'
    return "".join([head, f"<title>{escape(title)}</title>", *body, "</svg>"])


def bars(
    labels: Sequence[str],
    values: Sequence[float | None],
    *,
    title: str,
    limit: float | None = None,
    limit_label: str = "",
    markers: Sequence[float | None] = (),
    marker_label: str = "",
    maximum: float = 1.0,
    percent: bool = True,
    width: int = 760,
    height: int = 240,
) -> str:
    """Vertical bars (e.g. penetration per shoe) with an optional limit line and per-bar markers."""
    left, right, top, bottom = 44, 12, 24, 40
    plot_w, plot_h = width - left - right, height - top - bottom
    n = max(1, len(values))
    slot = plot_w / n
    bw = max(1.0, slot * 0.7)
    top_value = max([maximum] + [v for v in values if v is not None])
    body = [_text(left, 15, title, size=12, extra=' font-weight="bold"')]

    def y_of(v: float) -> float:
        return top + plot_h - (v / top_value) * plot_h if top_value else top + plot_h

    for k in range(5):
        tick = top_value * k / 4
        y = y_of(tick)
        body.append(f'<line x1="{left}" y1="{_num(y)}" x2="{width - right}" y2="{_num(y)}" stroke="#e0e0e0"/>')
        body.append(_text(left - 4, y + 4, f"{tick:.0%}" if percent else _num(tick), anchor="end", size=10, colour="#555"))
    for i, v in enumerate(values):
        if v is None:
            continue
        x = left + i * slot + (slot - bw) / 2
        y = y_of(v)
        over = limit is not None and v > limit
        colour = "#c62828" if over else "#1565c0"
        label = escape(f"{labels[i]}: {v:.1%}" if percent else f"{labels[i]}: {_num(v)}")
        body.append(f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(bw)}" height="{_num(top + plot_h - y)}" fill="{colour}">'
                    f"<title>{label}</title></rect>")
    for i, m in enumerate(markers):
        if m is None:
            continue
        x = left + i * slot + slot / 2
        y = y_of(m)
        body.append(f'<circle cx="{_num(x)}" cy="{_num(y)}" r="3" fill="#ef8f00"><title>{escape(f"{labels[i]}: {marker_label} {m:.1%}")}</title></circle>')
    if limit is not None:
        y = y_of(limit)
        body.append(f'<line x1="{left}" y1="{_num(y)}" x2="{width - right}" y2="{_num(y)}" stroke="#c62828" stroke-dasharray="5,3"/>')
        body.append(_text(width - right, y - 4, limit_label, anchor="end", size=10, colour="#c62828"))
    step = max(1, math.ceil(n / 20))
    for i in range(0, len(labels), step):
        x = left + i * slot + slot / 2
        body.append(_text(x, top + plot_h + 14, labels[i], anchor="middle", size=10, colour="#555"))
    body.append(f'<line x1="{left}" y1="{top + plot_h}" x2="{width - right}" y2="{top + plot_h}" stroke="#888"/>')
    if markers and marker_label:
        body.append(f'<circle cx="{left + 6}" cy="{height - 8}" r="3" fill="#ef8f00"/>')
        body.append(_text(left + 14, height - 4, marker_label, size=10, colour="#555"))
    return _frame(width, height, title, body)


def timeline(
    rows: Sequence[str],
    points: Sequence[tuple[int, float, str]],
    spans: Sequence[tuple[int, float, float, str]],
    *,
    start: float,
    end: float,
    title: str,
    boundaries: Sequence[tuple[float, str]] = (),
    axis_label: str = "seq",
    width: int = 760,
) -> str:
    """One row per kind; ``points`` are (row, x, tooltip), ``spans`` (row, x0, x1, tooltip); x in log seq."""
    left, right, top, row_h = 150, 12, 24, 18
    height = top + row_h * max(1, len(rows)) + 30
    plot_w = width - left - right
    extent = max(end - start, 1.0)

    def x_of(v: float) -> float:
        return left + (min(max(v, start), end) - start) / extent * plot_w

    body = [_text(4, 15, title, size=12, extra=' font-weight="bold"')]
    for i, name in enumerate(rows):
        y: float = top + i * row_h
        if i % 2 == 0:
            body.append(f'<rect x="{left}" y="{_num(y)}" width="{plot_w}" height="{row_h}" fill="#f5f5f5"/>')
        body.append(_text(left - 6, y + 13, name, anchor="end", size=10))
    for x, label in boundaries:
        xx = x_of(x)
        body.append(f'<line x1="{_num(xx)}" y1="{top}" x2="{_num(xx)}" y2="{top + row_h * len(rows)}" stroke="#9e9e9e" '
                    f'stroke-dasharray="2,2"><title>{escape(label)}</title></line>')
    for row, x0, x1, tip in spans:
        y = top + row * row_h + 4
        a, b = x_of(x0), x_of(x1)
        colour = PALETTE[row % len(PALETTE)]
        body.append(f'<rect x="{_num(a)}" y="{y}" width="{_num(max(b - a, 2.0))}" height="{row_h - 8}" fill="{colour}" '
                    f'fill-opacity="0.45"><title>{escape(tip)}</title></rect>')
    for row, x, tip in points:
        y = top + row * row_h + row_h / 2
        colour = PALETTE[row % len(PALETTE)]
        body.append(f'<circle cx="{_num(x_of(x))}" cy="{_num(y)}" r="3.5" fill="{colour}"><title>{escape(tip)}</title></circle>')
    base = top + row_h * max(1, len(rows))
    body.append(f'<line x1="{left}" y1="{base}" x2="{width - right}" y2="{base}" stroke="#888"/>')
    for k in range(5):
        v = start + extent * k / 4
        body.append(_text(x_of(v), base + 14, f"{v:,.0f}", anchor="middle", size=10, colour="#555"))
    body.append(_text(width - right, base + 27, axis_label, anchor="end", size=10, colour="#555"))
    return _frame(width, height, title, body)


def dial(figure: float | None, expected: float | None, verdict: str, *, title: str, p_value: float | None,
         width: int = 360, height: int = 70) -> str:
    """One figure on a number line against the value a perfect shuffler gives, coloured by verdict."""
    colour = VERDICT_COLOURS.get(verdict, "#757575")
    body = [_text(4, 14, title, size=11, extra=' font-weight="bold"')]
    body.append(f'<rect x="{width - 56}" y="3" width="52" height="16" rx="3" fill="{colour}"/>')
    body.append(_text(width - 30, 15, verdict.upper(), anchor="middle", size=10, colour="#fff"))
    left, right, y = 14, 14, 42
    if figure is None or expected is None:
        body.append(_text(left, y + 4, "not applicable", size=10, colour="#555"))
        return _frame(width, height, title, body)
    lo = min(0.0, figure, expected)
    hi = max(figure, expected) * 1.25 or 1.0
    span = hi - lo or 1.0

    def x_of(v: float) -> float:
        return left + (v - lo) / span * (width - left - right)

    body.append(f'<line x1="{left}" y1="{y}" x2="{width - right}" y2="{y}" stroke="#9e9e9e" stroke-width="2"/>')
    xe = x_of(expected)
    body.append(f'<line x1="{_num(xe)}" y1="{y - 9}" x2="{_num(xe)}" y2="{y + 9}" stroke="#222" stroke-width="2"/>')
    body.append(_text(xe, y + 22, f"perfect {expected:.3g}", anchor="middle", size=10, colour="#222"))
    xf = x_of(figure)
    body.append(f'<circle cx="{_num(xf)}" cy="{y}" r="6" fill="{colour}"/>')
    p_text = f", p = {p_value:.3g}" if p_value is not None else ""
    body.append(_text(xf, y - 10, f"{figure:.3g}{p_text}", anchor="middle", size=10, colour=colour))
    return _frame(width, height, title, body)


def heatmap(rows: Sequence[str], columns: Sequence[str], values: Sequence[Sequence[float]], *, title: str,
            width: int = 420) -> str:
    """Signed values (standardized residuals) as cells: blue below expectation, red above, white at 0."""
    left, top, bottom = 26, 24, 44
    cell_h = 13
    height = top + cell_h * len(rows) + bottom
    cell_w = (width - left - 8) / max(1, len(columns))
    body = [_text(4, 15, title, size=12, extra=' font-weight="bold"')]
    for i, r in enumerate(rows):
        y = top + i * cell_h
        body.append(_text(left - 4, y + 10, r, anchor="end", size=10))
        for j, v in enumerate(values[i]):
            t = max(-1.0, min(1.0, v / 4.0))
            if t >= 0:
                fill = f"rgb(255,{int(255 * (1 - t))},{int(255 * (1 - t))})"
            else:
                fill = f"rgb({int(255 * (1 + t))},{int(255 * (1 + t))},255)"
            body.append(f'<rect x="{_num(left + j * cell_w)}" y="{y}" width="{_num(cell_w)}" height="{cell_h}" fill="{fill}" '
                        f'stroke="#fff"><title>{escape(f"{r}, positions {columns[j]}: {v:+.2f} sd")}</title></rect>')
    base = top + cell_h * len(rows)
    for j, c in enumerate(columns):
        body.append(_text(left + (j + 0.5) * cell_w, base + 12, c, anchor="middle", size=9, colour="#555"))
    body.append(_text(left, base + 28, "colour: (observed - expected) / sd; full at 4 sd",
                      size=9, colour="#555"))
    return _frame(width, height, title, body)


def paired_bars(labels: Sequence[str], observed: Sequence[float], expected: Sequence[float], *, title: str,
                width: int = 420, height: int = 200) -> str:
    """Observed against expected shares per bucket (e.g. re-entry lags)."""
    left, right, top, bottom = 40, 8, 24, 44
    plot_w, plot_h = width - left - right, height - top - bottom
    top_value = max([0.05, *observed, *expected])
    slot = plot_w / max(1, len(labels))
    body = [_text(4, 15, title, size=12, extra=' font-weight="bold"')]
    for k in range(5):
        v = top_value * k / 4
        y = top + plot_h - v / top_value * plot_h
        body.append(f'<line x1="{left}" y1="{_num(y)}" x2="{width - right}" y2="{_num(y)}" stroke="#e0e0e0"/>')
        body.append(_text(left - 4, y + 4, f"{v:.0%}", anchor="end", size=10, colour="#555"))
    for i, label in enumerate(labels):
        for k, (vals, colour) in enumerate(((observed, "#1565c0"), (expected, "#bdbdbd"))):
            v = vals[i]
            h = v / top_value * plot_h
            x = left + i * slot + slot * (0.12 + 0.38 * k)
            body.append(f'<rect x="{_num(x)}" y="{_num(top + plot_h - h)}" width="{_num(slot * 0.36)}" height="{_num(h)}" '
                        f'fill="{colour}"><title>{escape(f"{label}: {v:.1%}")}</title></rect>')
        body.append(_text(left + (i + 0.5) * slot, top + plot_h + 13, label, anchor="middle", size=9, colour="#555"))
    body.append(f'<rect x="{left}" y="{height - 14}" width="9" height="9" fill="#1565c0"/>')
    body.append(_text(left + 13, height - 6, "observed", size=10, colour="#555"))
    body.append(f'<rect x="{left + 80}" y="{height - 14}" width="9" height="9" fill="#bdbdbd"/>')
    body.append(_text(left + 93, height - 6, "uniform shuffler", size=10, colour="#555"))
    return _frame(width, height, title, body)
