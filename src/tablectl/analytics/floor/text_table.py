"""A plain-text table that fits a width (pure): the columns that fit, by priority; a number, an id
or a figure is never split across lines; only free text (a finding's detail, a note) wraps, at
spaces. For the floor report on a terminal or through a pipe at 80 columns."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

GAP = 2  # spaces between columns
MARK = 2  # the flag gutter: "! " on a flagged row
PROSE = 30  # a wrapping column is given at least this much (or all it needs) before a column of a later rank


@dataclass(frozen=True, slots=True)
class Column:
    """One column: its heading, whether its cells are free text that may wrap (else right-aligned
    when numeric, never split), and its rank (0 first: shown before any column of a higher rank)."""

    heading: str
    numeric: bool = False
    wraps: bool = False
    rank: int = 0


@dataclass(frozen=True, slots=True)
class Fitted:
    """The lines of a table and the headings of the columns left out to fit."""

    lines: list[str]
    left_out: list[str]


def _need(column: Column, cells: Sequence[str]) -> int:
    """The width a column takes unwrapped: its widest cell, or its heading's longest word."""
    return max([len(w) for w in column.heading.split()] + [len(c) for c in cells] + [1])


def _least(column: Column, cells: Sequence[str]) -> int:
    """The narrowest a column is laid out: a wrapping column :data:`PROSE` wide (less if it needs
    less, more if a word is longer)."""
    need = _need(column, cells)
    if not column.wraps:
        return need
    longest = max([len(w) for w in column.heading.split()] + [len(w) for c in cells for w in c.split()] + [1])
    return max(longest, min(need, PROSE))


def fit(columns: Sequence[Column], rows: Sequence[Sequence[str]], flagged: Sequence[bool],
        width: int | None) -> Fitted:
    """``rows`` (cells as text, in ``columns``' order) laid out in at most ``width`` characters
    (None: every column, unwrapped). Columns are taken by rank, the first of each rank first,
    while they fit at their narrowest; the ones taken are shown in their own order, wrapping
    columns sharing out what room is left. Column 0 is always shown."""
    cells = [[row[i] for row in rows] for i in range(len(columns))]
    need = [_need(c, cells[i]) for i, c in enumerate(columns)]
    if width is None:
        chosen = list(range(len(columns)))
        widths = {i: max(need[i], len(columns[i].heading)) for i in chosen}
    else:
        order = sorted(range(len(columns)), key=lambda i: (i != 0, columns[i].rank, i))
        chosen, used = [], MARK - GAP
        for i in order:
            least = _least(columns[i], cells[i])
            if i == 0 or used + GAP + least <= width:
                chosen.append(i)
                used += GAP + least
        chosen.sort()
        widths = {i: _least(columns[i], cells[i]) for i in chosen}
        room = width - (MARK - GAP) - sum(GAP + w for w in widths.values())
        for i in chosen:  # wrapping columns widen back towards their unwrapped width while there is room
            if columns[i].wraps and room > 0:
                extra = min(room, need[i] - widths[i])
                widths[i] += extra
                room -= extra
        for i in chosen:  # ... then headings go on one line where there is room for them
            if room > 0 and len(columns[i].heading) > widths[i]:
                extra = min(room, len(columns[i].heading) - widths[i])
                widths[i] += extra
                room -= extra
    lines = _block([columns[i].heading for i in chosen], [widths[i] for i in chosen],
                   [columns[i] for i in chosen], heading=True, mark="  ")
    lines.append(" " * MARK + (" " * GAP).join("-" * widths[i] for i in chosen))
    for row, flag in zip(rows, flagged):
        lines += _block([row[i] for i in chosen], [widths[i] for i in chosen], [columns[i] for i in chosen],
                        heading=False, mark="! " if flag else "  ")
    left_out = [columns[i].heading for i in range(len(columns)) if i not in chosen]
    return Fitted([line.rstrip() for line in lines], left_out)


def _block(texts: Sequence[str], widths: Sequence[int], columns: Sequence[Column], *, heading: bool,
           mark: str) -> list[str]:
    """One row (or the heading) as lines: a heading wraps at spaces, as a wrapping cell does."""
    split = [textwrap.wrap(t, w, break_long_words=False, break_on_hyphens=False) or [""]
             if (heading or c.wraps) else [t] for t, w, c in zip(texts, widths, columns)]
    height = max(len(s) for s in split)
    out = []
    for n in range(height):
        parts = []
        for s, w, c in zip(split, widths, columns):
            # headings sit on their last lines, over the cells
            k = n - (height - len(s)) if heading else n
            text = s[k] if 0 <= k < len(s) else ""
            parts.append(text.rjust(w) if c.numeric else text.ljust(w))
        out.append((mark if n == 0 else "  ") + (" " * GAP).join(parts))
    return out
