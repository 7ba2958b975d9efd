"""The floor as the pit sees it, folded from log records (pure: no I/O, no clock of its own).

:class:`Floor` takes each table's log records in order (:meth:`Floor.apply`, one line as the
log's typed schema reads it, ``tablectl.eventlog.records.read_line``: every field it reads has the
type the table writes, docs/events.md and docs/table.md) and keeps, per table, a :class:`TableState`:
the game, the lifecycle state, the dealer, penetration, the round in play laid out as the dealer
sees it (face-down cards stay hidden until revealed), and the day's figures (handle, win, the
stakes per wager that the approved math's expected hold is taken from, violations, holds). The
alarms across tables are kept newest first, each with what to do in the table's own words
(``tablectl.table.alarms`` and ``tablectl.table.procedure.validation.WHAT_TO_DO``).

Everything here is data; the caller passes the time (``now``, seconds since the epoch) where
silence matters, and the expected hold's edges (:data:`Edges`) where the math is wanted.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import msgspec
import orjson

from tablectl.drivers import events as ev
from tablectl.eventlog.records import Envelope
from tablectl.table import lifecycle as lc
from tablectl.table.alarms import Alarms
from tablectl.table.procedure import validation as va
from tablectl.table.view import AlarmView, SeatView

#: a table heard nothing from for this long (no line, no word from its publisher) is silent (its tile turns red)
SILENT_AFTER = 30.0
#: alarms kept across the floor (newest first)
MAX_ALARMS = 500
#: points of the hold-through-the-day curve kept per table (the latest)
MAX_CURVE = 2000

#: faults that stop a table (the controller's ``STOPPING_FAULTS``, by the names the log gives them)
STOPPING_FAULT_NAMES = frozenset(k.name.lower() for k in (
    ev.FaultKind.JAM, ev.FaultKind.DOOR_OPEN, ev.FaultKind.SENSOR, ev.FaultKind.DISCONNECTED))

#: what the dealer must do at an ``alarm`` line, by its kind (the controller logs it, the display names it)
ALARM_ADVICE = {
    "past_last_round": "The round was started after the last round was announced: change the shoe after it.",
}
#: a line of a table's log that never came on the stream (the page's own alarm)
MISSING_ADVICE = "Surveillance: compare the collector's copy with the table's log (tablectl review)."
#: a line on a table's subject that the table's own lines do not go on from (the page's own alarm)
FOREIGN_ADVICE = ("Surveillance: someone published on the table's log subject: check who may publish to the broker, "
                  "and trust the collector's verified copy (tablectl review), not this page, for the table.")
#: a fault as the display shows it (``tablectl.table.alarms.Alarms.views``)
FAULT_ADVICE = Alarms(faults={("device", int(ev.FaultKind.JAM)): ""}).views()[0].what_to_do

#: (game, decks, rules) -> the approved math's house edge per wager (None: no math for it)
Edges = Callable[[str, "int | None", "dict[str, Any] | None"], "Mapping[str, float | None] | None"]


def epoch(ts: str) -> float:
    """Seconds since the epoch of a log ``ts`` (``YYYY-MM-DDTHH:MM:SS.ffffffZ``, UTC)."""
    return datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC).timestamp()


@dataclass(slots=True)
class FloorAlarm:
    """One alarm at one table: when, what happened, what to do, and whether it was resolved."""

    table: str
    seq: int
    ts: str
    kind: str
    round: int | None
    what: str
    what_to_do: str
    open: bool = True
    resolved_by: str | None = None
    note: str | None = None


@dataclass(slots=True)
class Position:
    """One place on the layout (a seat, the dealer, the board): its cards (None: face down)."""

    cards: list[str | None] = field(default_factory=list)


@dataclass(slots=True)
class Layout:
    """The round in play (or the last one, until the next starts) as the dealer sees it."""

    round: int
    seats: list[int]
    wagers: dict[int, dict[str, int]]
    banker: int | None
    banker_stake: int | None
    players: dict[int, str]
    positions: dict[str, Position] = field(default_factory=dict)
    decisions: dict[int, list[str]] = field(default_factory=dict)
    settled: list[dict[str, Any]] = field(default_factory=list)
    status: str = "dealing"  # dealing, settled, ended, voided

    def seat_views(self) -> tuple[SeatView, ...]:
        """The seats as the dealer's display holds them (``tablectl.table.view.SeatView``)."""
        out = []
        for seat in sorted(set(self.seats) | ({self.banker} if self.banker is not None else set())):
            pos = self.positions.get(f"seat:{seat}")
            out.append(SeatView(seat, in_play=seat in self.seats, banker=seat == self.banker,
                                wagers=self.wagers.get(seat, {}), cards=tuple(pos.cards) if pos else (),
                                decisions=tuple(self.decisions.get(seat, ())), player=self.players.get(seat)))
        return tuple(out)

    def others(self) -> list[tuple[str, list[str | None]]]:
        """The positions that are not seats (dealer, DP, board), with their cards."""
        return [(name, pos.cards) for name, pos in self.positions.items() if not name.startswith("seat:")]

    def results(self) -> dict[int, int]:
        """Each seat's net over the settled bets (cents; + = the player won)."""
        out: dict[int, int] = {}
        for s in self.settled:
            out[s["seat"]] = out.get(s["seat"], 0) + int(s.get("net") or 0)
        return out


@dataclass
class Day:
    """One table's figures for one day (the UTC date of its log lines)."""

    date: str
    rounds: int = 0
    handle: int = 0  # cents: the initial wagers of the rounds started
    win: int = 0  # cents: the bank's win (minus the players' net over every settled bet)
    violations: int = 0
    holds: int = 0
    #: (game, decks, rules as JSON-able tuple key) -> wager -> cents staked: what the expected hold weighs
    stakes: dict[tuple[str, int | None, str], Counter[str]] = field(default_factory=dict)
    #: (round, the hold so far) after each settled round: the day's hold through the day
    hold_curve: deque[tuple[str, float]] = field(default_factory=lambda: deque(maxlen=MAX_CURVE))

    @property
    def hold(self) -> float | None:
        return self.win / self.handle if self.handle else None


@dataclass
class TableState:
    """One table as the pit sees it, folded from its log records."""

    table: str
    game: str | None = None
    decks: int | None = None
    seats: int | None = None
    source_kind: str | None = None  # shoe, csm, shuffler
    rules: dict[str, Any] | None = None
    rules_key: str = "null"
    state: str = lc.OFFLINE
    stopped: bool = False  # the table wrote table_stopped (and nothing since)
    round: int | None = None  # the last round started
    dealer: str | None = None
    penetration: float | None = None
    last_seq: int = 0
    last_ts: str | None = None
    last_heard: float | None = None  # epoch of last_ts (no later than when the line was taken)
    #: when the table's publisher last said it runs with nothing unsent beyond the lines taken (its status)
    alive_heard: float | None = None
    held: Envelope | None = None  # a line that does not follow last_seq, until the next one follows it
    jumped_from: int | None = None  # last_seq before the last jump taken (a held line followed)
    alarms: Alarms = field(default_factory=Alarms)
    layout: Layout | None = None
    day: Day | None = None
    publisher: str | None = None  # the table's publisher, in its own words (tablectl.live.status)
    version: int = 0  # bumped by every record that changed what a page shows

    # ------------------------------------------------------------------ reading

    def heard(self) -> float | None:
        """When the table was last heard from: its last line, or its publisher saying it runs."""
        times = [x for x in (self.last_heard, self.alive_heard) if x is not None]
        return max(times) if times else None

    def silent(self, now: float, after: float = SILENT_AFTER) -> bool:
        """Nothing heard from the table for ``after`` seconds (or ever): no line, no word from its publisher."""
        heard = self.heard()
        return heard is None or now - heard >= after

    def open_alarms(self) -> tuple[AlarmView, ...]:
        """The table's open violations and active faults, with what to do (as its display shows them)."""
        return self.alarms.views()

    def seats_in_play(self) -> list[int]:
        """The seats of the round in play (none between rounds)."""
        lay = self.layout
        return list(lay.seats) if lay is not None and lay.status in ("dealing", "settled") else []

    def expected_hold(self, edges: Edges | None) -> float | None:
        """The approved math's expected hold of the day's wagers: the stake-weighted house edge of
        every wager the math gives an edge for (None: no such wager, or no math)."""
        if self.day is None or edges is None:
            return None
        expected = judged = 0.0
        for (game, decks, rules_key), stakes in self.day.stakes.items():
            found = edges(game, decks, orjson.loads(rules_key))
            if not found:
                continue
            for wager, cents in stakes.items():
                edge = found.get(wager)
                if edge is not None:
                    expected += edge * cents
                    judged += cents
        return expected / judged if judged else None

    def status(self, now: float, after: float = SILENT_AFTER) -> tuple[str, str, str]:
        """(``kind``, one line of what the table is doing, what to do) for its tile: kind is one of
        silent, stopped, held, fault, dealing, shuffling, ready, idle, offline. Silent: nothing heard for
        ``after`` seconds, for how long; a table whose publisher still says it runs keeps its kind and
        says how long it has written no line. The durations count on with ``now``."""
        from tablectl.live.status import duration_text

        if self.stopped:
            head = ("stopped", "stopped", "")
        elif self.state == lc.HELD:
            views = [a for a in self.open_alarms() if a.violation] or list(self.open_alarms())
            why = views[0] if views else None
            head = ("held", f"held: {why.kind.replace('_', ' ')}: {why.detail}" if why else "held",
                    why.what_to_do if why else "Supervisor: resolve.")
        elif self.state == lc.DEVICE_FAULT:
            views = [a for a in self.open_alarms() if not a.violation]
            why = views[0] if views else None
            head = ("fault", f"device fault: {why.detail}" if why else "device fault",
                    why.what_to_do if why else FAULT_ADVICE)
        elif self.state in (lc.IN_ROUND, lc.SETTLING):
            head = ("dealing", f"dealing round {self.round}", "")
        elif self.state == lc.SHUFFLING:
            head = ("shuffling", "shuffling", "")
        elif self.state == lc.RESHUFFLE_DUE:
            head = ("ready", "reshuffle due", "")
        else:
            head = (self.state, self.state.replace("_", " "), "")
        if self.silent(now, after):
            heard = self.heard()
            quiet = "never heard" if heard is None else f"silent for {duration_text(now - heard)}"
            return ("silent", f"{quiet} (was: {head[1]})", head[2])
        if self.last_heard is not None and now - self.last_heard >= after:
            return (head[0], f"{head[1]}: no lines for {duration_text(now - self.last_heard)} (the table runs)", head[2])
        return head


class Floor:
    """Every table's state and the alarms across tables, from the tables' log records."""

    def __init__(self, *, max_alarms: int = MAX_ALARMS) -> None:
        self.tables: dict[str, TableState] = {}
        self.alarms: deque[FloorAlarm] = deque(maxlen=max_alarms)
        self._by_seq: dict[tuple[str, int], FloorAlarm] = {}
        self.version = 0
        self.alarms_version = 0  # bumped by every alarm added or resolved

    def table(self, table: str) -> TableState:
        t = self.tables.get(table)
        if t is None:
            t = self.tables[table] = TableState(table)
        return t

    def apply_all(self, records: Iterable[Envelope], now: float | None = None) -> set[str]:
        """Apply records in order; the tables whose tile changed."""
        return {r.table for r in records if self.apply(r, now)}

    def apply(self, record: Envelope, now: float | None = None) -> list[Envelope]:
        """Take one record of a table's log, in the order the stream carries it; the records taken
        (shown), in order: none, this one, or a held one and this one.

        A record at or below the table's last seq is a repeat (a stream delivering again) and is
        not taken. One that does not follow the last (a jump ahead, or a seq 1 opening a new log)
        is held aside: when the next one follows it, both are taken (an honest gap: an alarm says
        which lines are missing); when the table's lines go on from the last seq instead, the held
        one was not the table's and is dropped, with an alarm naming the table and its seq. A jump
        taken is undone the same way if the table's lines then go on from where they were before
        it. ``now``: when the record was taken (seconds since the epoch); a table counts as heard
        no later than that, whatever its ts says."""
        t = self.table(record.table)
        seq, held = record.seq, t.held
        if held is not None and seq == held.seq + 1:
            t.held = None
            return [*self._jump(t, held, now), *self._take(record, now)]
        back = t.jumped_from is not None and seq == t.jumped_from + 1
        if seq == t.last_seq + 1 or back:
            if held is not None:
                t.held = None
                self._dropped(t, held, record)
            if back and seq != t.last_seq + 1:
                self.external_alarm(t.table, record.ts, "foreign_line",
                                    f"the lines taken after seq {seq - 1:,} (to seq {t.last_seq:,}) were not the "
                                    f"table's: its own go on from seq {seq - 1:,}, and so does the page (its figures "
                                    "may still hold what those lines said)", FOREIGN_ADVICE)
                t.last_seq, t.jumped_from = seq - 1, None
            return self._take(record, now)
        if (seq <= t.last_seq and not _opens_log(record)) or (held is not None and seq == held.seq):
            return []
        if held is not None:
            self._dropped(t, held, record)
        t.held = record
        return []

    def _jump(self, t: TableState, held: Envelope, now: float | None) -> list[Envelope]:
        """Take a held record the next one followed (an honest gap, or a new log)."""
        before = t.last_seq
        if before and held.seq > before + 1:
            self.external_alarm(t.table, held.ts, "lines_missing",
                                f"seq {before + 1:,} to {held.seq - 1:,} never came on the stream; the page "
                                f"goes on from seq {held.seq:,}", MISSING_ADVICE)
        taken = self._take(held, now)
        self.tables[t.table].jumped_from = before or None
        return taken

    def _dropped(self, t: TableState, held: Envelope, record: Envelope) -> None:
        """The alarm of a held record the next one did not follow."""
        self.external_alarm(t.table, record.ts, "foreign_line",
                            f"a line claiming to be seq {held.seq:,} ({_event(held)}) was not followed by the "
                            f"table's own lines (the next is seq {record.seq:,}): not the table's, not shown",
                            FOREIGN_ADVICE)

    def _take(self, record: Envelope, now: float | None) -> list[Envelope]:
        table, seq = record.table, record.seq
        rec: dict[str, Any] = msgspec.to_builtins(record)  # the handlers read it as the line's fields
        t = self.table(table)
        if seq <= t.last_seq:  # a new log under the same table id (log_opened at seq 1)
            t = self.tables[table] = TableState(table)
        t.last_seq, t.last_ts = seq, record.ts
        try:
            heard = epoch(record.ts)
        except ValueError:
            heard = now if now is not None else t.last_heard
        t.last_heard = heard if now is None or heard is None else min(heard, now)
        if t.stopped and rec.get("event") not in ("checkpoint", "table_stopped", "state"):
            t.stopped = False
        day = _day(t, rec)
        handler = _HANDLERS.get(str(rec.get("event")))
        if handler is not None:
            handler(self, t, day, rec)
        t.version += 1
        self.version += 1
        return [record]

    # ------------------------------------------------------------------ alarms

    def alarm(self, t: TableState, rec: Mapping[str, Any], kind: str, what: str, what_to_do: str) -> FloorAlarm:
        a = FloorAlarm(t.table, rec["seq"], str(rec.get("ts", "")), kind, _int(rec.get("round")), what, what_to_do)
        self.alarms.appendleft(a)
        self.alarms_version += 1
        self._by_seq[(t.table, a.seq)] = a
        if len(self._by_seq) > 4 * (self.alarms.maxlen or MAX_ALARMS):
            kept = {(x.table, x.seq) for x in self.alarms}
            self._by_seq = {k: v for k, v in self._by_seq.items() if k in kept}
        return a

    def external_alarm(self, table: str, ts: str, kind: str, what: str, what_to_do: str) -> FloorAlarm:
        """An alarm about a table that is not a line of its log (the collector's, on the alarm subject)."""
        a = FloorAlarm(table, 0, ts, kind, None, what, what_to_do)
        self.alarms.appendleft(a)
        self.alarms_version += 1
        self.version += 1
        return a

    def publisher(self, table: str, status: Mapping[str, Any], now: float) -> bool:
        """A table's publisher told its state (``tablectl.<table>.status``); True when its line changed.
        Connected, with no line beyond those taken, it is heard from: the table runs, and writes nothing."""
        from tablectl.live.status import PublisherStatus, status_text

        try:
            unreachable = status.get("unreachable_s")
            s = PublisherStatus(table, int(status.get("published_seq") or 0), int(status.get("log_seq") or 0),
                                bool(status.get("connected")),
                                None if unreachable is None else now - float(unreachable))
        except (TypeError, ValueError):
            return False
        t = self.table(table)
        if s.connected and s.log_seq <= t.last_seq and t.last_heard is not None and not t.stopped:
            t.alive_heard = now  # it runs, and the page has every line it wrote
        text = status_text(s, now)
        changed, t.publisher = text != t.publisher, text
        return changed

    def resolved(self, table: str, seqs: Iterable[int], supervisor: str, note: str) -> None:
        for s in seqs:
            a = self._by_seq.get((table, s))
            if a is not None:
                a.open, a.resolved_by, a.note = False, supervisor, note
                self.alarms_version += 1


# ---------------------------------------------------------------------- the handlers


def _event(record: Envelope) -> str:
    return str(getattr(record, "event", ""))  # each kind's Struct names its kind (tablectl.eventlog.records)


def _opens_log(record: Envelope) -> bool:
    return record.seq == 1 and _event(record) == "log_opened"


def _int(x: Any) -> int | None:
    return x if type(x) is int else None


def _day(t: TableState, rec: Mapping[str, Any]) -> Day:
    date = str(rec.get("ts", ""))[:10]
    if t.day is None or (date and date > t.day.date):
        t.day = Day(date)
    return t.day


def _table_started(f: Floor, t: TableState, day: Day, rec: Mapping[str, Any]) -> None:
    t.game = rec.get("game") if isinstance(rec.get("game"), str) else t.game
    t.decks = _int(rec.get("decks"))
    t.seats = _int(rec.get("seats"))
    t.source_kind = rec.get("source_kind") if isinstance(rec.get("source_kind"), str) else None
    hr, pt = rec.get("house_rules"), rec.get("pay_tables")
    t.rules = {"house_rules": hr, "pay_tables": pt} if isinstance(hr, dict) and isinstance(pt, dict) else None
    try:
        t.rules_key = orjson.dumps(t.rules, option=orjson.OPT_SORT_KEYS).decode()
    except orjson.JSONEncodeError:  # nested deeper than orjson writes: no rules a table writes
        t.rules, t.rules_key = None, "null"
    t.stopped = False
    t.alarms = Alarms()


def _state(f: Floor, t: TableState, day: Day, rec: Mapping[str, Any]) -> None:
    to = rec.get("to")
    if isinstance(to, str):
        if to == lc.HELD and t.state != lc.HELD:
            day.holds += 1
        t.state = to


def _dealer_change(f: Floor, t: TableState, day: Day, rec: Mapping[str, Any]) -> None:
    d = rec.get("dealer")
    t.dealer = d if isinstance(d, str) else None


def _round_started(f: Floor, t: TableState, day: Day, rec: Mapping[str, Any]) -> None:
    n = _int(rec.get("round"))
    t.round = n
    if isinstance(rec.get("dealer"), str):
        t.dealer = rec["dealer"]
    wagers: dict[int, dict[str, int]] = {}
    raw = rec.get("wagers")
    if isinstance(raw, dict):
        for seat, bets in raw.items():
            if isinstance(bets, dict) and str(seat).isdecimal():
                wagers[int(seat)] = {str(b): v for b, v in bets.items() if type(v) is int}
    players = rec.get("players") if isinstance(rec.get("players"), dict) else {}
    seats = [s for s in rec.get("seats") or [] if type(s) is int]
    t.layout = Layout(n or 0, seats, wagers, _int(rec.get("banker")), _int(rec.get("banker_stake")),
                      {int(k): str(v) for k, v in players.items() if str(k).isdecimal()})
    day.rounds += 1
    if t.game is not None:
        stakes = day.stakes.setdefault((t.game, t.decks, t.rules_key), Counter())
        for bets in wagers.values():
            for bet, cents in bets.items():
                day.handle += cents
                stakes[bet] += cents


def _card(f: Floor, t: TableState, day: Day, rec: Mapping[str, Any]) -> None:
    p = rec.get("penetration")
    if isinstance(p, (int, float)):
        t.penetration = float(p)
    if rec.get("event") != "dealt":
        return
    lay = t.layout
    to = rec.get("to")
    if lay is None or not isinstance(to, str) or _int(rec.get("round")) != lay.round:
        return
    card = rec.get("card") if rec.get("face") != "down" else None
    lay.positions.setdefault(to, Position()).cards.append(card if isinstance(card, str) else None)


def _revealed(f: Floor, t: TableState, day: Day, rec: Mapping[str, Any]) -> None:
    lay = t.layout
    to, cards = rec.get("to"), rec.get("cards")
    if lay is None or not isinstance(to, str) or not isinstance(cards, list) or _int(rec.get("round")) != lay.round:
        return
    lay.positions.setdefault(to, Position()).cards = [c if isinstance(c, str) else None for c in cards]


def _traded(f: Floor, t: TableState, day: Day, rec: Mapping[str, Any]) -> None:
    lay, seat, card = t.layout, _int(rec.get("seat")), rec.get("card")
    if lay is None or seat is None:
        return
    pos = lay.positions.get(f"seat:{seat}")
    if pos is not None and card in pos.cards:
        pos.cards.remove(card)


def _decision(f: Floor, t: TableState, day: Day, rec: Mapping[str, Any]) -> None:
    lay, seat = t.layout, _int(rec.get("seat"))
    if lay is not None and seat is not None and _int(rec.get("round")) == lay.round:
        lay.decisions.setdefault(seat, []).append(str(rec.get("decision")))


def _settled(f: Floor, t: TableState, day: Day, rec: Mapping[str, Any]) -> None:
    net = rec.get("net")
    if type(net) is int:
        day.win -= net
    lay = t.layout
    if lay is not None and _int(rec.get("round")) == lay.round and _int(rec.get("seat")) is not None:
        lay.settled.append({k: rec.get(k) for k in ("seat", "bet", "stake", "outcome", "pays", "net")})
        lay.status = "settled"


def _round_ended(f: Floor, t: TableState, day: Day, rec: Mapping[str, Any]) -> None:
    lay = t.layout
    if lay is not None and _int(rec.get("round")) == lay.round:
        lay.status = "ended"
        if day.handle:
            day.hold_curve.append((str(rec.get("ts", "")), day.win / day.handle))


def _round_voided(f: Floor, t: TableState, day: Day, rec: Mapping[str, Any]) -> None:
    lay = t.layout
    if lay is not None and _int(rec.get("round")) == lay.round:
        lay.status = "voided"


def _shuffled(f: Floor, t: TableState, day: Day, rec: Mapping[str, Any]) -> None:
    if t.source_kind != "csm":  # a continuous shuffler has no penetration
        t.penetration = 0.0


def _violation(f: Floor, t: TableState, day: Day, rec: Mapping[str, Any]) -> None:
    kind = str(rec.get("kind"))
    detail = str(rec.get("detail", ""))
    day.violations += 1
    t.alarms.violation(va.Violation(kind, _int(rec.get("round")), detail, rec["seq"]))
    f.alarm(t, rec, kind, detail, va.WHAT_TO_DO.get(kind, "Supervisor: resolve."))


def _resolved(f: Floor, t: TableState, day: Day, rec: Mapping[str, Any]) -> None:
    t.alarms.resolved()
    seqs = [s for s in rec.get("violations") or [] if type(s) is int]
    f.resolved(t.table, seqs, str(rec.get("supervisor", "")), str(rec.get("note") or ""))


def _fault(f: Floor, t: TableState, day: Day, rec: Mapping[str, Any]) -> None:
    name = str(rec.get("fault", ""))
    if name not in STOPPING_FAULT_NAMES:
        return
    key = (str(rec.get("device", "")), int(ev.FaultKind[name.upper()]))
    detail = rec.get("detail") or name
    if rec.get("cleared"):
        t.alarms.faults.pop(key, None)
        return
    t.alarms.faults[key] = str(detail)
    f.alarm(t, rec, name, f"{key[0]}: {detail}", FAULT_ADVICE)


def _alarm(f: Floor, t: TableState, day: Day, rec: Mapping[str, Any]) -> None:
    kind = str(rec.get("kind"))
    f.alarm(t, rec, kind, kind.replace("_", " "), ALARM_ADVICE.get(kind, "Supervisor: look at the table."))


def _table_stopped(f: Floor, t: TableState, day: Day, rec: Mapping[str, Any]) -> None:
    t.stopped = True


_HANDLERS: dict[str, Callable[[Floor, TableState, Day, Mapping[str, Any]], None]] = {
    "table_started": _table_started, "state": _state, "dealer_change": _dealer_change,
    "duty_resumed": _dealer_change, "round_started": _round_started, "dealt": _card, "burned": _card,
    "drawn": _card, "revealed": _revealed, "traded": _traded, "decision": _decision, "settled": _settled,
    "round_ended": _round_ended, "round_voided": _round_voided, "shoe_loaded": _shuffled,
    "shuffle_done": _shuffled, "shuffle_started": _shuffled, "violation": _violation,
    "resolved": _resolved, "fault": _fault, "alarm": _alarm, "table_stopped": _table_stopped,
}


__all__ = ["SILENT_AFTER", "Day", "Edges", "Floor", "FloorAlarm", "Layout", "TableState", "epoch"]
