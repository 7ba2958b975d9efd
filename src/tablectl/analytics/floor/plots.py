"""Inline SVG plots for the floor report view, made on the server (no script, every label
escaped): the hold through the day per table, and theoretical win against actual win per table."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from tablectl.review.report.svg import PALETTE


def _n(x: float) -> str:
    return f"{x:.1f}"


def hold_through_day(series: dict[str, Sequence[tuple[str, float]]], *, width: int = 760, height: int = 260) -> str:
    """One line per table: its hold so far after each round of the day (x: time of day, UTC)."""
    left, right, top, bottom = 52, 150, 24, 28
    pw, ph = width - left - right, height - top - bottom
    pts = {t: [(_seconds(ts), h) for ts, h in s if _seconds(ts) is not None] for t, s in series.items()}
    ys = [h for s in pts.values() for _, h in s]
    xs = [x for s in pts.values() for x, _ in s]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img">',
           "<title>Hold through the day, per table</title>",
           f'<text x="{left}" y="15" font-size="12" font-weight="bold">Hold through the day, per table</text>']
    if not ys:
        out.append(f'<text x="{left}" y="{top + 20}" font-size="11">No settled round today yet.</text></svg>')
        return "".join(out)
    lo, hi = min(min(ys), 0.0), max(max(ys), 0.0)
    if hi - lo < 1e-9:
        hi = lo + 0.01
    x0, x1 = min(xs), max(xs)
    if x1 - x0 < 1:
        x1 = x0 + 1

    def px(x: float) -> float:
        return left + (x - x0) / (x1 - x0) * pw

    def py(y: float) -> float:
        return top + (hi - y) / (hi - lo) * ph

    for v in (lo, 0.0, hi):
        out.append(f'<line x1="{left}" x2="{left + pw}" y1="{_n(py(v))}" y2="{_n(py(v))}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 4}" y="{_n(py(v) + 4)}" font-size="10" text-anchor="end">{v:.0%}</text>')
    for v in (x0, x1):
        out.append(f'<text x="{_n(px(v))}" y="{height - 8}" font-size="10" text-anchor="middle">{_clock(v)}</text>')
    for i, (table, s) in enumerate(sorted(pts.items())):
        colour = PALETTE[i % len(PALETTE)]
        if s:
            path = " ".join(f"{_n(px(x))},{_n(py(y))}" for x, y in s)
            out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="{path}"/>')
        ly = top + 12 * i + 8
        if ly < height - bottom:
            out.append(f'<text x="{left + pw + 8}" y="{_n(ly)}" font-size="10" fill="{colour}">{escape(table)}'
                       f'{": " + format(s[-1][1], ".1%") if s else ""}</text>')
    out.append("</svg>")
    return "".join(out)


def theo_against_actual(rows: Sequence[dict[str, object]], *, width: int = 760, bar: int = 14) -> str:
    """Per table, the theoretical win (the play made, the approved math) beside the actual win (rows in cents, plotted in dollars)."""
    rows = [r for r in rows if isinstance(r.get("theo_win"), (int, float)) or isinstance(r.get("win"), (int, float))]
    height = 40 + len(rows) * (2 * bar + 8)
    left, right = 110, 20
    vals = [float(v) / 100 for r in rows for v in (r.get("theo_win"), r.get("win")) if isinstance(v, (int, float))]
    lo, hi = min(vals + [0.0]), max(vals + [0.0])
    if hi - lo < 1e-9:
        hi = lo + 1

    def px(v: float) -> float:
        return left + (v - lo) / (hi - lo) * (width - left - right)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img">',
           "<title>Theoretical win against actual win, per table</title>",
           '<text x="4" y="15" font-size="12" font-weight="bold">Theoretical win (grey) against actual win (blue), per table, $</text>']
    zero = px(0.0)
    out.append(f'<line x1="{_n(zero)}" x2="{_n(zero)}" y1="24" y2="{height - 4}" stroke="#999"/>')
    for i, r in enumerate(rows):
        y = 30 + i * (2 * bar + 8)
        out.append(f'<text x="{left - 4}" y="{y + bar + 3}" font-size="10" text-anchor="end">{escape(str(r.get("table_id")))}</text>')
        for j, (key, colour) in enumerate((("theo_win", "#9e9e9e"), ("win", "#1565c0"))):
            v = r.get(key)
            if not isinstance(v, (int, float)):
                continue
            a, b = sorted((zero, px(float(v) / 100)))
            out.append(f'<rect x="{_n(a)}" y="{y + j * bar}" width="{_n(max(b - a, 1))}" height="{bar - 2}" fill="{colour}">'
                       f'<title>{escape(key)}: {"-" if v < 0 else ""}${abs(float(v)) / 100:,.2f}</title></rect>')
    out.append("</svg>")
    return "".join(out)


def _seconds(ts: str) -> float | None:
    try:
        return int(ts[11:13]) * 3600 + int(ts[14:16]) * 60 + float(ts[17:26])
    except (ValueError, IndexError):
        return None


def _clock(s: float) -> str:
    s = int(s)
    return f"{s // 3600:02d}:{s % 3600 // 60:02d}:{s % 60:02d}"


__all__ = ["hold_through_day", "theo_against_actual"]
