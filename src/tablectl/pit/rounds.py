"""Each table's rounds of the day as review rebuilds them: its reconstruction (sessions, rounds,
cards by position) and its replay through the game's deal script and the rules engine, fed one log
record at a time (as the log's typed schema reads it), the same code ``tablectl review`` runs over
a log's files."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from tablectl.eventlog.records import Envelope
from tablectl.review.engine import RoundChecker
from tablectl.review.model import RoundRecord
from tablectl.review.reconstruct import Reconstructor
from tablectl.review.report.text import round_lines

#: rounds kept per table (the latest)
MAX_ROUNDS = 300


@dataclass(frozen=True, slots=True)
class RoundSummary:
    """One round as the table view lists it, with review's own text of it."""

    id: str
    number: int
    date: str
    start_ts: str
    status: str
    settlement: str
    dealer: str | None
    net: int  # the players' net (cents)
    problems: tuple[str, ...]
    lines: tuple[str, ...]  # ``tablectl.review.report.text.round_lines``


def summary(rnd: RoundRecord) -> RoundSummary:
    """The table view's summary of a round review has checked."""
    return RoundSummary(rnd.id, rnd.number, rnd.start_ts[:10], rnd.start_ts, rnd.status, rnd.settlement,
                        rnd.dealer, rnd.net, tuple(rnd.problems), tuple(round_lines(rnd)))


class TableRounds:
    """One table's log, line by line, through review's reconstruction and replay."""

    def __init__(self, keep: int = MAX_ROUNDS) -> None:
        self.rounds: deque[RoundSummary] = deque(maxlen=keep)
        self.builder = Reconstructor(None, keep_events=True)
        self.checker = RoundChecker(self.builder.out, None, True, self._take)
        self.builder.on_round = self.checker
        self.version = 0  # rounds taken ever

    def _take(self, rnd: RoundRecord) -> None:
        self.rounds.append(summary(rnd))
        self.version += 1

    def feed(self, record: Envelope) -> None:
        """One record of the table's log, in order."""
        self.builder.feed([record])

    def since(self, version: int) -> list[RoundSummary] | None:
        """The rounds taken after the book's ``version``, oldest first; None when some of them are
        no longer kept."""
        n = self.version - version
        if n > len(self.rounds) or n < 0:
            return None
        return list(self.rounds)[len(self.rounds) - n:]

    def today(self, date: str) -> list[RoundSummary]:
        """The rounds that started on ``date`` (``YYYY-MM-DD``), newest first."""
        return [r for r in reversed(self.rounds) if r.date == date]


class RoundBook:
    """Every table's :class:`TableRounds`."""

    def __init__(self, keep: int = MAX_ROUNDS) -> None:
        self.keep = keep
        self.tables: dict[str, TableRounds] = {}

    def feed(self, table: str, record: Envelope) -> None:
        t = self.tables.get(table)
        if t is None:
            t = self.tables[table] = TableRounds(self.keep)
        t.feed(record)

    def of(self, table: str) -> TableRounds | None:
        return self.tables.get(table)


__all__ = ["MAX_ROUNDS", "RoundBook", "RoundSummary", "TableRounds", "summary"]
