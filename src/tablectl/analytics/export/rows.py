"""A verified log -> the rows of the surveillance datasets (``tablectl.analytics.dataset.schemas``).

The log is read once, by its review (``tablectl.review.engine.review``): the records the review
reads (its *lines*) give the card events, settled bets, decisions, faults and device identities
as they come; the rounds it checks and its report give what needs the whole table's history:
each round's status and settlement check, violations, holds, anomalies, shoes and the
shuffle-quality figures (:class:`Extractor`).

Every row carries its *anchor*: the ``seq`` from which the log shows everything the row says. An
export takes the rows whose anchor is past what it exported before, so re-running adds only what
is new, and a row is written once. A round's anchor is its last line (a round interrupted by a
stop waits for the next start, which may go on with it); a
shoe's, its end (a shoe still in play where the log ends is written as *open*, to the export's
open rows, which the next export replaces: the shoe again, open or completed); a
face-up card's, its own line; a face-down card's, the ``revealed`` line that shows it — or, if the
round ends without revealing it (a folded hand, a burn), the round's end, the card written with its
value and ``hidden`` (never shown at the table), so a fold can be audited from the cards themselves.
A face-down card never leaves the log before it is revealed or its round is over; one dealt outside
any round (a burn at the shuffle) is written without its value.
"""

from __future__ import annotations

import hashlib
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import orjson

from tablectl.analytics.dataset.schemas import SCHEMAS
from tablectl.analytics.dataset.store import PartWriter
from tablectl.analytics.export.bank_cover import bank_cover
from tablectl.analytics.export.judging import COLUMNS as JUDGED_COLUMNS
from tablectl.analytics.export.judging import NOT_JUDGED, Judge, RoundJudgement
from tablectl.analytics.export.sightings import sightings, value_together
from tablectl.eventlog.records import RECORDS
from tablectl.gamemath.decisions.judge import main_wager
from tablectl.review.engine import ReviewReport
from tablectl.review.model import INTERRUPTED, OPEN, VOIDED, CsmEvents, RoundRecord

CARD_EVENTS = frozenset({"dealt", "burned", "drawn", "returned", "identified"})
CARD_LINES = frozenset({"dealt", "burned", "drawn"})  # card events whose records have every field a card row takes
ROUND_ENDS = frozenset({"round_ended", "round_voided"})
#: the quality analysis that stands for a shoe's device kind (``tablectl.review.shuffle.quality``)
QUALITY_TEST = {"csm": "csm_reentry_lag", "shoe": "card_position_chi_square", "shuffler": "card_position_chi_square"}

Row = dict[str, Any]

# The busiest datasets' rows are made as lists of values in their schema's order (no dict per row):
# the columns, and the places of the values a face-down card's row changes once it is shown.
CARD_COLUMNS = ("table_id", "seq", "ts", "event", "session", "shoe", "round", "card", "position", "face", "hidden",
                "revealed_seq", "device", "event_no", "penetration", "packet")
BET_COLUMNS = ("table_id", "seq", "ts", "round_id", "round", "game", "decks", "rules_id", "dealer", "seat", "player", "bet",
               "wager", "stake", "outcome", "pays", "net")
DECISION_COLUMNS = ("table_id", "seq", "ts", "round_id", "round", "dealer", "seat", "player", "decision", "banker",
                    *JUDGED_COLUMNS)
ROUND_COLUMNS = ("table_id", "round_id", "session", "round", "game", "decks", "rules_id", "dealer", "shoe", "start_seq",
                 "end_seq", "start_ts", "end_ts", "status", "settlement", "seats", "banker", "handle", "win",
                 "theo_win", "theo_var", "violations", "holds", "cards", "penetration", "banker_stake", "bank_max_pay", "cover_binds")
_CARD, _POSITION, _HIDDEN, _REVEALED = (CARD_COLUMNS.index(c) for c in ("card", "position", "hidden", "revealed_seq"))
for _name, _columns in (("cards", CARD_COLUMNS), ("bets", BET_COLUMNS), ("decisions", DECISION_COLUMNS),
                        ("rounds", ROUND_COLUMNS)):
    assert tuple(SCHEMAS[_name].names) == _columns, f"rows.py: the {_name} columns differ from its schema"


def rules_id(game: str | None, rules: dict[str, Any] | None) -> str:
    """A short stable id of a game's house rules and pay tables as logged (``default``: none logged)."""
    if rules is None:
        return "default"
    return hashlib.sha256(orjson.dumps([game, rules], option=orjson.OPT_SORT_KEYS)).hexdigest()[:12]


@dataclass
class _Rows:
    """The rows of an export, as they are made: those anchored past *through* (what earlier
    exports wrote) go to *out*, each with ``table`` and ``date``."""

    table: str
    out: PartWriter
    through: int = 0
    rules: dict[str, dict[str, Any]] = field(default_factory=dict)  # rules_id -> {game, decks, rules}
    open: PartWriter | None = None  # rows of what is still in play where the log ends

    def add(self, dataset: str, anchor: int, ts: str | None, row: Row) -> None:
        if anchor > self.through:
            row["table_id"] = self.table
            row["date"] = (ts or "")[:10]
            self.out.add(dataset, row)

    def put(self, dataset: str, anchor: int, ts: str | None, values: list[Any] | tuple[Any, ...]) -> None:
        """A row as its values in the dataset's column order (``table_id`` first), on the day of *ts*."""
        if anchor > self.through:
            self.out.add_values(dataset, (ts or "")[:10], values)

    def add_open(self, dataset: str, ts: str | None, row: Row) -> None:
        """A row of something still in play: written whatever its anchor (it replaces the last
        export's open rows)."""
        if self.open is not None:
            row["table_id"] = self.table
            row["date"] = (ts or "")[:10]
            self.open.add(dataset, row)


class RoundFacts(NamedTuple):
    """What the rounds dataset takes of a round review checked (the export keeps these, not the
    rounds: a few fields each). A named tuple: one is made per round, at C speed."""

    session: int
    number: int
    shoe: Any
    start_seq: int
    end_seq: int | None
    start_ts: str
    end_ts: str | None
    status: str
    settlement: str
    seats: int
    banker: int | None
    handle: int
    net: int
    violations: int
    resumed_in: tuple[int, ...]
    holds: int = 0
    banker_stake: int | None = None
    wagers: tuple[dict[str, int], ...] = ()  # each seat's wagers placed before the deal

    @classmethod
    def of(cls, r: RoundRecord) -> RoundFacts:
        wagers = r.wagers or {}
        voided = r.status == VOIDED
        return cls(r.session, r.number, r.shoe, r.start_seq, r.end_seq, r.start_ts, r.end_ts, r.status, r.settlement,
                   len(r.seats), r.banker, 0 if voided else _handle(wagers), r.net,
                   len(r.violations), tuple(r.resumed_in), r.holds, r.banker_stake, tuple(wagers.values()))


def _handle(wagers: dict[str, dict[str, int]]) -> int:
    """The stakes of every seat's *wagers* (cents), a stake missing or null counted 0."""
    try:
        total = sum(map(sum, map(dict.values, wagers.values())))  # the stakes are integers (records.SCHEMA)
    except TypeError:
        total = None
    if type(total) is not int:  # not so: each stake as a number (a float, None)
        return sum(int(stake or 0) for placed in wagers.values() for stake in placed.values())
    return total


@dataclass(slots=True)
class _Round:
    key: tuple[int, int]
    round_id: str
    dealer: str | None
    game: str | None
    decks: int | None
    rules_id: str
    ts: str  # the round's start: the day its bets and decisions are counted in
    main: str  # the game's main wager: what a bet the round did not open is counted as
    day: str = ""  # ``ts``'s day
    wagers: dict[str, str] = field(default_factory=dict)
    cards: int = 0
    penetration: float | None = None
    pending: list[tuple[list[Any], str | None]] = field(default_factory=list)  # face-down cards not yet shown
    # decision rows waiting for the round's judgement: (anchor, day, values, seat, place among the seat's)
    decisions: list[tuple[int, str | None, tuple[Any, ...], int, int]] = field(default_factory=list)
    made: dict[int, int] = field(default_factory=dict)  # seat -> decisions logged so far
    players: dict[int, str] = field(default_factory=dict)  # seat -> the player the pit entered (round_started)


class _Pass:
    """The line-by-line part of the extraction."""

    def __init__(self, out: _Rows) -> None:
        from tablectl.games import GAMES

        self.games = GAMES
        self.out = out
        self.add_values = out.out.add_values  # a row past ``out.through``, straight to its writer
        self.session = 0
        self.game: str | None = None
        self.decks: int | None = None
        self.rules_id = "default"
        self.dealer: str | None = None
        self.mains: dict[str | None, str] = {}  # game -> its main wager (``main_wager``)
        self.rounds: dict[tuple[int, int], _Round] = {}
        self.round_by_start: dict[int, _Round] = {}
        self.identities: dict[str, list[tuple[int, Row]]] = defaultdict(list)
        self.devices: list[tuple[int, str, Row]] = []  # (seq, ts, row): written once the device numbers are known
        # each kind of record this pass reads -> its handler (one dict lookup per line, by the
        # record's class: ``tablectl.eventlog.records.RECORDS``); other kinds are not read
        by_kind: dict[str, Callable[[Any], None]] = {
            **dict.fromkeys(CARD_EVENTS, self._any_card), **dict.fromkeys(CARD_LINES, self._card),
            "settled": self._settled, "decision": self._decision,
            "revealed": self._revealed, "round_started": self._round_started,
            **dict.fromkeys(ROUND_ENDS, self._round_ended), "round_resumed": self._round_resumed,
            "fault": self._fault, "device_identified": self._device_identified,
            "dealer_change": self._dealer, "duty_resumed": self._dealer,
            "log_opened": self._session_start, "recovery": self._session_start, "table_started": self._table_started,
        }
        self.handlers: dict[type, Callable[[Any], None]] = {RECORDS[k]: h for k, h in by_kind.items()}

    def feed(self, rec: Any) -> None:
        handler = self.handlers.get(rec.__class__)
        if handler is not None:
            handler(rec)

    def _fault(self, rec: Any) -> None:
        seq = rec.seq
        self.out.add("faults", seq, rec.ts, {
            "seq": seq, "ts": rec.ts, "device": rec.device, "fault": rec.fault,
            "cleared": bool(rec.cleared), "detail": _text(rec.detail),
            "event_no": rec.event_no, "round": rec.round,
        })

    def _device_identified(self, rec: Any) -> None:
        seq = rec.seq
        row = {"seq": seq, "ts": rec.ts, "device": rec.name, "kind": rec.kind,
               "model": rec.model, "serial": rec.serial, "firmware": rec.firmware}
        self.identities[str(rec.name)].append((seq, row))
        self.devices.append((seq, rec.ts, row))

    def _dealer(self, rec: Any) -> None:
        self.dealer = rec.dealer

    def _session_start(self, rec: Any) -> None:
        self.session += 1
        self.dealer = None

    def _table_started(self, rec: Any) -> None:
        self.game, self.decks = rec.game, rec.decks
        logged = None
        if rec.house_rules is not None or rec.pay_tables is not None:
            logged = {"house_rules": rec.house_rules or {}, "pay_tables": rec.pay_tables or {}}
        self.rules_id = rules_id(self.game, logged)
        self.out.rules[self.rules_id] = {"game": self.game, "decks": self.decks, "rules": logged}

    # --- rounds ---------------------------------------------------------------------------------

    def _round_started(self, rec: Any) -> None:
        key = (self.session, rec.round)
        dealer = rec.dealer or self.dealer
        main = self.mains.get(self.game)
        if main is None:
            game = self.games.get(self.game or "")
            main = self.mains[self.game] = main_wager(game.wagers if game else ())
        ts = rec.ts
        rnd = _Round(key, f"{self.session}.{rec.round}", dealer, self.game, self.decks, self.rules_id, ts, main, ts[:10])
        wagers = rnd.wagers
        for placed in (rec.wagers or {}).values():
            for bet in placed:
                wagers[bet] = bet
        wagers.setdefault(main, main)
        if rec.players:
            rnd.players = {int(seat): player for seat, player in rec.players.items()}
        self.rounds[key] = rnd
        self.round_by_start[rec.seq] = rnd

    def _round_resumed(self, rec: Any) -> None:
        """A restarted controller went on with a round of an earlier session: its lines in this
        session belong to that round (its id, dealer, face-down cards still to reveal)."""
        number = rec.round
        for session in range(self.session - 1, 0, -1):
            rnd = self.rounds.get((session, number))
            if rnd is not None:
                self.rounds[self.session, number] = rnd
                return

    def _round_of(self, rec: Any) -> _Round | None:
        number = getattr(rec, "round", None)  # a returned card's line has none
        return None if number is None else self.rounds.get((self.session, number))

    def _round_ended(self, rec: Any) -> None:
        rnd = self._round_of(rec)
        if rnd is None:
            return
        for row, ts in rnd.pending:  # never revealed at the table: written now the round is over
            row[_HIDDEN] = True
            self.out.put("cards", rec.seq, ts, row)
        rnd.pending.clear()

    # --- cards ----------------------------------------------------------------------------------

    def _card(self, rec: Any) -> None:
        """A dealt, burned or drawn card: its record has every field of the row (:data:`CARD_LINES`)."""
        seq, number, p, face = rec.seq, rec.round, rec.penetration, rec.face
        rnd = None if number is None else self.rounds.get((self.session, number))
        if rnd is not None:
            rnd.cards += 1
            if p is not None and (rnd.penetration is None or p > rnd.penetration):
                rnd.penetration = float(p)
        if face == "down":
            self._face_down(rec, number, rnd, p, rec.packet)
        elif seq > self.out.through:  # else exported before
            ts, shoe = rec.ts, rec.shoe
            self.add_values("cards", ts[:10], (
                self.out.table, seq, ts, rec.event, self.session, None if shoe is None else str(shoe), number, rec.card,
                rec.to, face, False, None, rec.device, rec.event_no, p, rec.packet))

    def _any_card(self, rec: Any) -> None:
        """A returned or identified card (a returned card's line names no round)."""
        number = getattr(rec, "round", None)
        rnd = None if number is None else self.rounds.get((self.session, number))
        p = getattr(rec, "penetration", None)
        if rnd is not None:
            rnd.cards += 1
            if p is not None and (rnd.penetration is None or p > rnd.penetration):
                rnd.penetration = float(p)
        if rec.face == "down":
            self._face_down(rec, number, rnd, p, getattr(rec, "packet", None))
        elif rec.seq > self.out.through:  # else exported before
            self.add_values("cards", rec.ts[:10], self._card_row(rec, number, p, getattr(rec, "packet", None)))

    def _card_row(self, rec: Any, number: int | None, p: Any, packet: int | None) -> list[Any]:
        shoe = rec.shoe
        return [self.out.table, rec.seq, rec.ts, rec.event, self.session, None if shoe is None else str(shoe), number,
                rec.card, rec.to, rec.face, False, None, rec.device, rec.event_no, p, packet]

    def _face_down(self, rec: Any, number: int | None, rnd: _Round | None, p: Any, packet: int | None) -> None:
        """A face-down card: it waits for the line that shows it, or its round's end."""
        row = self._card_row(rec, number, p, packet)
        if rnd is not None:
            rnd.pending.append((row, rec.ts))
        else:  # face down outside a round (a burn at the shuffle): never revealed
            row[_CARD], row[_HIDDEN] = None, True
            self.out.put("cards", rec.seq, rec.ts, row)

    def _revealed(self, rec: Any) -> None:
        rnd = self._round_of(rec)
        if rnd is None:
            return
        shown = list(rec.cards or [])
        keep = []
        for row, ts in rnd.pending:
            if row[_POSITION] == rec.to and row[_CARD] in shown:
                shown.remove(row[_CARD])
                row[_REVEALED] = rec.seq
                self.out.put("cards", rec.seq, ts, row)
            else:
                keep.append((row, ts))
        rnd.pending = keep

    # --- money and decisions ----------------------------------------------------------------------

    def _settled(self, rec: Any) -> None:
        seq = rec.seq
        if seq <= self.out.through:
            return  # exported before
        number, bet, seat = rec.round, rec.bet, rec.seat
        rnd = self.rounds.get((self.session, number))
        # ``pays`` is text (records.SCHEMA)
        if rnd is None:
            self.add_values("bets", rec.ts[:10], (
                self.out.table, seq, rec.ts, None, number, self.game, self.decks, self.rules_id, self.dealer, seat, None,
                bet, bet, rec.stake, rec.outcome, rec.pays or None, rec.net))
        else:
            self.add_values("bets", rnd.day, (
                self.out.table, seq, rec.ts, rnd.round_id, number, rnd.game, rnd.decks, rnd.rules_id, rnd.dealer, seat,
                rnd.players.get(seat), bet, _or(rnd.wagers.get(bet), rnd.main), rec.stake, rec.outcome,
                rec.pays or None, rec.net))

    def _decision(self, rec: Any) -> None:
        rnd = self._round_of(rec)
        index = 0
        if rnd is not None and not rec.banker:
            index = rnd.made.get(rec.seat, 0)
            rnd.made[rec.seat] = index + 1
        if rec.seq <= self.out.through:
            return  # exported before
        head = (self.out.table, rec.seq, rec.ts, rnd.round_id if rnd else None, rec.round,
                rnd.dealer if rnd else self.dealer, rec.seat, rnd.players.get(rec.seat) if rnd else None,
                _text(rec.decision), bool(rec.banker))
        if rnd is None or rec.banker:  # a banker's choices are not judged as a player's
            self.out.put("decisions", rec.seq, rnd.ts if rnd else rec.ts, (*head, *NOT_JUDGED))
        else:  # written once the round is judged (or, never judged, at the export's end)
            rnd.decisions.append((rec.seq, rnd.ts, head, rec.seat, index))

    def done(self, r: RoundFacts) -> _Round | None:
        """What this pass kept of round *r*, let go: the round is over (no line to come names it)."""
        mine = self.round_by_start.pop(r.start_seq, None)
        if mine is not None:
            for session in (mine.key[0], *r.resumed_in):
                if self.rounds.get((session, mine.key[1])) is mine:
                    del self.rounds[session, mine.key[1]]
        return mine

    def identity(self, device: str | None, seq: int) -> Row | None:
        """The device's identity as last logged before ``seq``."""
        found = self.identities.get(str(device)) or []
        i = bisect_right([s for s, _ in found], seq)
        return found[i - 1][1] if i else (found[0][1] if found else None)


class Extractor:
    """The rows of one table's log for an export, made as the review reads it: :meth:`lines` takes
    the log's records (the review's *lines*), :meth:`round` each round the review checked (its
    *rounds*: written at once, and let go), and :meth:`finish` the review's report, for what needs
    the whole log (the rounds a stop interrupted, shoes, devices, anomalies). Nothing is kept of a
    round once it is written: the memory does not grow with the log. Rows anchored past *through*
    go to *out*."""

    def __init__(self, table: str, out: PartWriter, through: int = 0, open_out: PartWriter | None = None) -> None:
        self._rows = _Rows(table, out, through, open=open_out)
        self._pass = _Pass(self._rows)
        self._judge = Judge()
        self._settlement: dict[str, Any] = {}  # rules id -> the settlement rules review replays with
        self._waiting: list[RoundFacts] = []  # rounds a stop interrupted: final once a later session starts

    def lines(self, records: list[Any]) -> None:
        # each record's handler found by its class (``_Pass.handlers``), the lookups at C speed
        for handler, rec in zip(map(self._pass.handlers.get, map(type, records)), records):
            if handler is not None:
                handler(rec)

    def round(self, rnd: RoundRecord) -> None:
        """A round the review checked: its row is written now (and what the line pass kept of it
        let go), unless a stop interrupted it (written at :meth:`finish`)."""
        facts = RoundFacts.of(rnd)
        if facts.status in (INTERRUPTED, OPEN) or facts.end_seq is None:
            self._waiting.append(facts)
            return
        mine = self._pass.done(facts)
        if mine is not None:
            judged = self._judged(rnd, mine)
            if judged is not None and judged.judged and rnd.hands is not None:
                _sighting_rows(self._rows, mine, sightings(rnd.hands, judged.judged, self._settlement.get(mine.rules_id),
                                                           mine.decks or 1))
            if mine.decisions:
                _decision_rows(self._rows, mine, judged)
            _round_row(self._rows, facts, mine, facts.end_seq, judged)

    def _judged(self, rnd: RoundRecord, mine: _Round) -> RoundJudgement | None:
        """The round's decisions judged, and its theoretical win (None: not settled by the replay)."""
        hands = rnd.hands
        if hands is None or mine.game is None:
            return None
        logged = self._rows.rules.get(mine.rules_id, {}).get("rules")
        settlement = self._settlement.get(mine.rules_id)
        if settlement is None:
            from tablectl.review.replay import game_rules

            try:
                settlement = game_rules(mine.game, logged, "export").settlement
            except ValueError:
                return None
            self._settlement[mine.rules_id] = settlement
        value_together(hands, settlement, mine.decks or 1)
        return self._judge.round(hands, settlement, mine.decks, logged, mine.rules_id)

    @property
    def rules(self) -> dict[str, dict[str, Any]]:
        """The house rules and pay tables the rows name (rules id -> game, decks, rules)."""
        return self._rows.rules

    def finish(self, report: ReviewReport) -> None:
        numbers = report.recon.devices
        for seq, ts, row in self._pass.devices:
            n = numbers.get(str(row["device"]))
            row["event_no_first"] = n.first if n else None
            row["event_no_last"] = n.last if n else None
            row["event_nos_missing"] = n.missing if n else None
            row["event_nos_duplicated"] = len(n.duplicates) if n else None
            self._rows.add("devices", seq, ts, row)
        _rounds(self._rows, self._pass, report, self._waiting)
        for mine in self._pass.round_by_start.values():  # rounds never judged: their decisions as logged
            _decision_rows(self._rows, mine, None)
        _shoes(self._rows, self._pass, report)
        for a in report.anomalies:
            if a.seq is not None:  # a finding about the log as a whole has no line to anchor it
                self._rows.add("anomalies", a.seq, a.ts, {
                    "seq": a.seq, "ts": a.ts, "kind": a.kind, "round_id": a.round, "device": a.device,
                    "detail": a.detail, "resolution": a.resolution, "location": a.where,
                })


def _rounds(out: _Rows, lines: _Pass, report: ReviewReport, rounds: Iterable[RoundFacts]) -> None:
    """The rows of the rounds a stop interrupted (or the log ends in)."""
    sessions = report.recon.sessions
    next_start = {a.index: b.start_seq for a, b in zip(sessions, sessions[1:], strict=False)}
    for r in rounds:
        mine = lines.round_by_start.get(r.start_seq)
        anchor = r.end_seq
        if r.status in (INTERRUPTED, OPEN):  # final once a later start did not go on with it
            anchor = next_start.get(max([r.session, *r.resumed_in]))
        if anchor is None or r.end_seq is None or mine is None:  # the log ends in the round: written once it ends
            continue
        _round_row(out, r, mine, anchor, None)


def _decision_rows(out: _Rows, mine: _Round, judged: RoundJudgement | None) -> None:
    """The round's decision rows waiting for its judgement, with it (None: not judged)."""
    found = judged.decisions if judged is not None else {}
    for anchor, day, head, seat, index in mine.decisions:
        out.put("decisions", anchor, day, (*head, *found.get((seat, index), NOT_JUDGED)))
    mine.decisions.clear()


def _sighting_rows(out: _Rows, mine: _Round, found: list[Any]) -> None:
    """The round's sightings (``analytics.export.sightings``), each anchored and dated as its decision's row."""
    lines = {(seat, index): (anchor, day, head) for anchor, day, head, seat, index in mine.decisions}
    for s in found:
        at = lines.get((s.seat, s.decision))
        if at is None:
            continue
        anchor, day, head = at
        out.put("sightings", anchor, day, (out.table, anchor, mine.round_id, head[4], mine.dealer, s.seat, s.decision,
                                           s.hypothesis, s.options, s.choice, s.own, s.hidden))


def _round_row(out: _Rows, r: RoundFacts, mine: _Round, anchor: int, judged: RoundJudgement | None) -> None:
    theo_win, theo_var = (judged.theo_win, judged.theo_var) if judged is not None else (None, None)
    out.put("rounds", anchor, r.start_ts, (
        out.table, mine.round_id, r.session, r.number, mine.game, mine.decks, mine.rules_id, mine.dealer,
        _text(r.shoe), r.start_seq, r.end_seq, r.start_ts, r.end_ts, r.status, r.settlement, r.seats, r.banker,
        r.handle, -r.net, theo_win, theo_var, r.violations, r.holds, mine.cards, mine.penetration,
        *bank_cover(mine.game, mine.rules_id, out.rules.get(mine.rules_id, {}).get("rules"), r.banker_stake, r.wagers)))


def _shoes(out: _Rows, lines: _Pass, report: ReviewReport) -> None:
    serial_of = {id(s): (lines.identity(s.device, s.start_seq) or {}).get("serial") for s in report.recon.shoes}
    serials = set(serial_of.values())
    by_serial: dict[Any, dict[str, Any]] = {}
    if len(serials) <= 1:  # one device served the log: the review's figures are its own
        by_serial = {serial: _results(report.quality) for serial in serials}
    else:  # each serial judged on its own loads only
        for serial in serials:
            mine = [s for s in report.recon.shoes if serial_of[id(s)] == serial]
            by_serial[serial] = _results(_quality_of(report.recon, mine))
    # a shoe (or a continuous shuffler's load) still in play when its session stopped ends with the
    # session once a later one has started (that one may have taken it over: then it goes on)
    # (anchored at the next session's first line: where the log shows it)
    sessions = report.recon.sessions
    session_end = {a.index: (a.end_seq, b.start_seq) for a, b in zip(sessions, sessions[1:], strict=False)}
    for s in report.recon.shoes:
        end, anchor = (s.end_seq, s.end_seq) if s.end_seq is not None else session_end.get(s.session, (None, None))
        ident = lines.identity(s.device, s.start_seq) or {}
        q = by_serial.get(serial_of[id(s)], {}).get(QUALITY_TEST.get(s.kind or "", ""))
        still_open = end is None or anchor is None  # in play where the log ends: an open row, replaced next time
        row = {
            "session": s.session, "shoe": _text(s.shoe), "device": s.device, "kind": s.kind,
            "serial": ident.get("serial"), "model": ident.get("model"), "start_seq": s.start_seq,
            "end_seq": end, "start_ts": s.start_ts, "decks": s.decks, "size": s.size,
            "deck_ok": s.deck_ok, "cards_drawn": s.cards_drawn, "max_penetration": s.max_penetration,
            "rounds": s.rounds, "ended_by": s.ended_by,
            "quality_test": q.name if q else None, "quality_figure": q.figure if q else None,
            "quality_expected": q.expected if q else None, "quality_p": q.p_value if q else None,
            "quality_verdict": str(q.verdict) if q else None, "quality_samples": q.samples if q else None,
            "quality_through_seq": report.recon.last_seq, "open": still_open,
        }
        if still_open:
            row["end_seq"] = row["ended_by"] = None
            out.add_open("shoes", s.start_ts, row)
        elif anchor is not None:
            out.add("shoes", anchor, s.start_ts, row)


def _results(sections: Iterable[Any]) -> dict[str, Any]:
    """Test name -> the first result of that name among quality *sections*."""
    results: dict[str, Any] = {}
    for section in sections:
        for result in section.results:
            results.setdefault(result.name, result)
    return results


def _quality_of(recon: Any, shoes: list[Any]) -> list[Any]:
    """The review's shuffle-quality analyses (``tablectl.review.shuffle.quality.analyse``) of *shoes* only:
    their shoes or shuffles, and the continuous shuffler's stream during their loads."""
    from types import SimpleNamespace

    from tablectl.review.shuffle.quality import analyse

    last = recon.last_seq or 0
    session_end = {x.index: x.end_seq for x in recon.sessions}
    # a load never unloaded ends with its session (a later session's loads are another's)
    spans = [(s.start_seq, s.end_seq if s.end_seq is not None else session_end.get(s.session) or last)
             for s in shoes if s.kind == "csm"]
    events = CsmEvents()
    if spans:
        for kind, card, seq in recon.csm_events:
            if any(a <= seq <= b for a, b in spans):
                events.append(CsmEvents.KINDS.index(kind), card, seq)
    kinds = {s.kind for s in shoes}
    sessions = [x for x in recon.sessions if x.source_kind in kinds]
    return analyse(SimpleNamespace(shoes=shoes, sessions=sessions, csm_events=events))  # type: ignore[arg-type]


def _or(value: Any, otherwise: Any) -> Any:
    return otherwise if value is None else value


def _text(value: Any) -> str | None:
    return None if value is None else str(value)
