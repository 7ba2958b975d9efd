"""The pit page's HTML: the Jinja2 templates (``templates/``, every value autoescaped) and what
each one is given. A page and its live updates are made of the same fragments: a tile, the
alarm list, a table's layout and its rounds, so an update is the fragment rendered again."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import jinja2

from tablectl.pit.rounds import RoundBook, RoundSummary
from tablectl.pit.state import SILENT_AFTER, Edges, Floor, TableState
from tablectl.rules.bets import money as signed_money


def money(cents: Any) -> str:
    """``$12``, ``-$12.50``; empty for no amount."""
    if type(cents) is not int:
        return ""
    return signed_money(cents)


def pct(x: Any) -> str:
    return f"{x:.1%}" if isinstance(x, (int, float)) else "–"


def clock(ts: Any) -> str:
    """``HH:MM:SS`` of a log ts (UTC)."""
    return ts[11:19] if isinstance(ts, str) and len(ts) >= 19 else ""


def environment() -> jinja2.Environment:
    """The templates, autoescaping every value (HTML and SVG alike)."""
    env = jinja2.Environment(loader=jinja2.PackageLoader("tablectl.pit", "templates"), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters.update(money=money, pct=pct, clock=clock)
    return env


@dataclass
class Tile:
    """What a tile shows of one table."""

    table: str
    game: str
    round: int | None
    kind: str
    status: str
    what_to_do: str
    dealer: str | None
    penetration: float | None
    seats: list[int]
    last_ts: str | None
    handle: int
    win: int
    hold: float | None
    expected: float | None
    rounds: int
    violations: int
    holds: int
    publisher: str | None


def tile(t: TableState, now: float, edges: Edges | None, silent_after: float = SILENT_AFTER) -> Tile:
    """The tile of one table at ``now``."""
    kind, status, todo = t.status(now, silent_after)
    day = t.day
    return Tile(t.table, t.game or "?", t.round, kind, status, todo, t.dealer, t.penetration, t.seats_in_play(),
                t.last_ts, day.handle if day else 0, day.win if day else 0, day.hold if day else None,
                t.expected_hold(edges), day.rounds if day else 0, day.violations if day else 0,
                day.holds if day else 0, t.publisher)


def rounds_count(n: int, date: str) -> str:
    """The line above a table's rounds."""
    return f"{n} round(s) checked on {date} (a round is listed once the next one has started)."


class Views:
    """Renders the page's fragments and pages from the floor state and the rounds."""

    def __init__(self, floor: Floor, rounds: RoundBook, edges: Edges | None = None, *,
                 silent_after: float = SILENT_AFTER, now: Any = time.time, login: bool = False) -> None:
        self.floor, self.rounds, self.edges = floor, rounds, edges
        self.silent_after, self.now, self.login = silent_after, now, login
        self.env = environment()

    def _render(self, name: str, **values: Any) -> str:
        return self.env.get_template(name).render(login=self.login, **values)

    def tile_of(self, table: str) -> Tile:
        return tile(self.floor.table(table), self.now(), self.edges, self.silent_after)

    def tile(self, table: str) -> str:
        return self._render("_tile.html", t=self.tile_of(table))

    def alarms(self) -> str:
        return self._render("_alarms.html", alarms=list(self.floor.alarms))

    def layout(self, table: str) -> str:
        t = self.floor.table(table)
        return self._render("_layout.html", t=t, lay=t.layout)

    def rounds_today(self, table: str) -> tuple[str, int, list[RoundSummary]]:
        """The table's day (``YYYY-MM-DD``), how many rounds its book has taken ever (its version),
        and the day's rounds listed, newest first."""
        t = self.floor.table(table)
        book = self.rounds.of(table)
        date = t.day.date if t.day else datetime.fromtimestamp(self.now(), UTC).strftime("%Y-%m-%d")
        return date, book.version if book else 0, book.today(date) if book else []

    def rounds_of(self, table: str) -> str:
        """The table's rounds of the day, the whole list."""
        date, _, rounds = self.rounds_today(table)
        return self._render("_rounds.html", rounds=rounds, date=date, count=rounds_count(len(rounds), date))

    def round_row(self, r: RoundSummary) -> str:
        """One round of the list (``id="round-<id>"``): what a table's view is sent as a round is listed."""
        return self._render("_round.html", r=r)

    def floor_page(self, feed_status: str) -> str:
        tables = sorted(self.floor.tables)
        return self._render("floor.html", tiles=[self.tile(n) for n in tables], alarms=self.alarms(),
                            feed=feed_status)

    def table_page(self, table: str, feed_status: str) -> str:
        return self._render("table.html", table=table, tile=self.tile(table), layout=self.layout(table),
                            rounds=self.rounds_of(table), feed=feed_status)

    def page(self, name: str, **values: Any) -> str:
        return self._render(name, **values)


__all__ = ["Tile", "Views", "clock", "environment", "money", "pct", "rounds_count", "tile"]
