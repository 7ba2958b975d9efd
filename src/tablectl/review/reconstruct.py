"""One pass over a card event log's records: sessions, rounds, shoes, device event numbers and
the raw material of the anomaly list, in log order.

The pass is the hot loop of ``tablectl review`` (a million lines must take well under a second),
so it does little per line: a dict lookup on the record's class, and for a card a few attribute
reads and list appends. The records are ``tablectl.eventlog.records``' Structs, their fields' types
checked as they were parsed: a handler reads them as they are. It lays each round's cards out as
the log says they went (by position, burns, discards; decisions and corrections), so nothing walks
the rounds again for that. The game's
procedure and the settlement with the rules engine are checked afterwards by
:mod:`tablectl.review.replay`, on the lines the pass gathered for each round (``events``,
``settled``); a review that does not replay keeps no ``events``. Lines no handler needs
(``bank``, most ``state`` lines, ...) are not kept.

Event names and fields are the controller's (``tablectl.table.core``; ``docs/table.md``) and the
log's own (``docs/events.md``).
"""

from __future__ import annotations

import operator
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tablectl.cards import CARD_OF_TEXT
from tablectl.eventlog.records import RECORDS, Envelope
from tablectl.review.model import (
    COMPLETE,
    INTERRUPTED,
    OPEN,
    SETTLED_FIELDS,
    UNKNOWN_CARD,
    VOIDED,
    CsmEvents,
    DeviceNumbers,
    RoundRecord,
    Session,
    ShoeRecord,
    TableSetup,
    card_code,
)

#: lines that record one device event (and carry its ``device`` + ``event_no``); other lines may
#: name a device event too (``violation``, ``identified``) without being its record.
DEVICE_RECORDS = frozenset({
    "drawn", "dealt", "burned", "returned", "discarded", "shoe_loaded", "shuffle_started", "shuffle_done",
    "cut_card", "shoe_empty", "button", "fault", "device_event",
})
CARD_LINES = ("dealt", "burned", "drawn")
#: what every card line carries, read in one C-level call
_card_fields = operator.attrgetter("event_no", "device", "card", "shoe", "round", "to")
_CODE = CARD_OF_TEXT.get  # a card text's byte (model.card_code)
#: what a round_started line carries: RoundRecord's fields after start_seq and start_ts
_round_fields = operator.attrgetter("round", "seats", "wagers", "banker", "banker_stake", "shoe", "dealer", "last_round")
#: a settled line's row (the fields settlement decides, as the rules engine's rows hold them)
_settled_row = operator.attrgetter(*SETTLED_FIELDS)
HELD = "held"
DEVICE_FAULT = "device_fault"
#: why a round ended with its session: (stopped, crashed)
_INTERRUPTIONS = ("the controller stopped during the round", "the controller crashed during the round")


@dataclass(slots=True)
class Hold:
    """The table held (a violation) or stopped by a device fault, from one state line to the next."""

    kind: str  # "held" or "device_fault"
    session: int
    start_seq: int
    start_ts: str
    round_key: tuple[int, int] | None
    end_seq: int | None = None
    end_ts: str | None = None
    ended_to: str | None = None  # the state it left for ("crash"/"stop" when the session ended in it)
    violations: list[int] = field(default_factory=list)


@dataclass(slots=True)
class ViolationRecord:
    """A ``violation`` line and, once it comes, the ``resolved`` line that cleared it."""

    seq: int
    ts: str
    session: int
    kind: str
    round_key: tuple[int, int] | None
    detail: str
    device: str | None
    event_no: int | None
    resolved: Envelope | None = None  # a resolved record


@dataclass(slots=True)
class FaultRecord:
    """A device ``fault`` line and, for a stopping fault, the line that cleared it."""

    seq: int
    ts: str
    session: int
    device: str | None
    event_no: int | None
    fault: str
    detail: str | None
    cleared_seq: int | None = None
    cleared_ts: str | None = None


@dataclass
class Reconstruction:
    """Everything the pass gathered but the rounds, which it hands on as they close
    (:class:`Reconstructor`'s *on_round*); ``rounds`` holds them when nobody else takes them."""

    table: str | None = None
    first_seq: int | None = None
    last_seq: int | None = None
    first_ts: str | None = None
    last_ts: str | None = None
    lines: int = 0
    sessions: list[Session] = field(default_factory=list)
    rounds: list[RoundRecord] = field(default_factory=list)
    shoes: list[ShoeRecord] = field(default_factory=list)
    devices: dict[str, DeviceNumbers] = field(default_factory=dict)
    violations: list[ViolationRecord] = field(default_factory=list)
    holds: list[Hold] = field(default_factory=list)
    faults: list[FaultRecord] = field(default_factory=list)
    recoveries: list[Any] = field(default_factory=list)  # recovery records
    alarms: list[Any] = field(default_factory=list)  # alarm records
    internal_errors: list[Any] = field(default_factory=list)  # internal_error records
    supervisor_refusals: list[Any] = field(default_factory=list)  # supervisor_refused records
    inputs_rejected: int = 0
    #: ``returned`` / ``identified`` lines of cards a supervisor had written off, coming back
    written_off_returns: list[Any] = field(default_factory=list)
    csm_events: CsmEvents = field(default_factory=CsmEvents)
    #: per session, the lowest and highest round number it started, and the highest of the
    #: sessions before it (for :meth:`round_id`)
    number_spans: dict[int, list[int]] = field(default_factory=dict)
    earlier_high: dict[int, int] = field(default_factory=dict)

    def round_id(self, session: int, number: int) -> str:
        """A round's id in the report: its number, or ``session.number`` when an earlier session of
        the log numbered a round the same (a controller started afresh on the same log)."""
        if number > self.earlier_high.get(session, 0):
            return str(number)
        for s, (lo, hi) in self.number_spans.items():
            if s < session and lo <= number <= hi:
                return f"{session}.{number}"
        return str(number)


class Reconstructor:
    """Feed it the log's records in order (:meth:`feed`), then :meth:`finish`.

    *setup*: what to assume for a session whose ``table_started`` is not in the log (a slice).
    *keep_events* False: keep no round's lines (``RoundRecord.events`` stays empty) when the rounds
    will not be replayed: most of the log's lines, in memory for nothing.
    *on_round*: takes each round, in log order, once no line to come can change it (the next round
    has started, or the log ended), with its ``id`` set; the reconstruction keeps none of them
    then. Default: they go to ``Reconstruction.rounds``. The rounds a batch of records releases
    are handed on when :meth:`feed` has taken the whole batch (a block's rounds, checked together
    after the block: the reconstruction's loop and the rounds' check each run unbroken), and those
    :meth:`finish` releases before it returns.
    """

    def __init__(self, setup: TableSetup | None = None, *, keep_events: bool = True,
                 on_round: Callable[[RoundRecord], None] | None = None) -> None:
        self.setup = setup
        # every round's events when they are not kept: appending to it keeps nothing
        self.unkept: deque[Any] | None = None if keep_events else deque(maxlen=0)
        self.out = Reconstruction()
        self.on_round = on_round if on_round is not None else self.out.rounds.append
        self.pending: list[RoundRecord] = []  # rounds started and not handed on yet
        self.released: list[RoundRecord] = []  # rounds released by the batch being fed, in order, for on_round
        self.session: Session | None = None
        self.round: RoundRecord | None = None
        self.shoe: ShoeRecord | None = None  # the shoe the table deals from now
        self.shoe_by_id: dict[Any, ShoeRecord] = {}
        self.hold: Hold | None = None
        self.open_violations: dict[int, ViolationRecord] = {}
        self.open_faults: dict[tuple[Any, str], FaultRecord] = {}
        self.misread_at: dict[tuple[Any, Any], tuple[list[Any], int, int]] = {}
        self._shoe_before: tuple[ShoeRecord | None, ShoeRecord | None] = (None, None)
        self._shoe_event: tuple[Any, Any] = (None, None)
        self.source: str | None = None
        self.csm = False
        # device numbering: the fast path keeps only the last number per device
        self._last: dict[Any, int] = {}
        self._gdev: Any = None
        self._gno: int = 0
        self._base: dict[str, int] = {}  # the first line's event_nos snapshot
        self._numbers: dict[Any, DeviceNumbers] = {}
        self._batch: list[Any] = []  # the records being fed
        self._before: Any = None  # the record before the batch (the last one fed before)
        h: dict[str, Callable[[Any], None]] = {
            "dealt": self._card, "burned": self._card, "drawn": self._card,
            "decision": self._decision, "corrected": self._corrected, "traded": self._traded,
            "revealed": self._in_round, "identified": self._identified, "discarded": self._discarded,
            "settled": self._settled, "round_started": self._round_started, "round_ended": self._round_ended,
            "round_voided": self._round_voided, "state": self._state, "returned": self._returned,
            "violation": self._violation, "resolved": self._resolved, "fault": self._fault,
            "shoe_loaded": self._shoe_start, "shuffle_done": self._shoe_start, "shoe_change": self._shoe_change,
            "shoe_resumed": self._shoe_resumed, "round_resumed": self._round_resumed,
            "cut_card": self._cut_card, "last_round": self._last_round, "shuffle_started": self._numbered,
            "shoe_empty": self._numbered, "button": self._numbered, "device_event": self._numbered,
            "device_adopted": self._device_adopted,
            "log_opened": self._log_opened, "recovery": self._recovery, "rotated": self._rotated,
            "table_started": self._table_started, "table_stopped": self._table_stopped,
            "alarm": self._alarm, "internal_error": self._internal_error, "input_rejected": self._input_rejected,
            "supervisor_refused": self._supervisor_refused,
        }
        self._handlers = {RECORDS[kind]: handler for kind, handler in h.items()}

    # ------------------------------------------------------------------ the loop

    def feed(self, records: list[Envelope]) -> None:
        """Take a batch of records (log order)."""
        if not records:
            return
        if self.out.first_seq is None:
            self.out.first_seq = records[0].seq
            self.out.first_ts = records[0].ts
        if self._batch:
            self._before = self._batch[-1]
        self._batch = records
        get = self._handlers.get
        try:
            for rec in records:
                h = get(rec.__class__)
                if h is not None:
                    h(rec)
        finally:
            if self.released:
                self._hand_on()

    def _hand_on(self) -> None:
        """Give *on_round* the rounds released so far, in log order (none is held after)."""
        released, self.released = self.released, []
        on_round = self.on_round
        for rnd in released:
            on_round(rnd)

    def _release(self) -> None:
        """Hand on the rounds no line still to come can change (nor their session's game and
        rules): all but the one being played, and but those of the session whose game is not
        known yet (its ``table_started`` may come)."""
        session = self.session
        waiting = session.index if session is not None and session.game is None else None
        kept = []
        released = self.released
        for rnd in self.pending:
            if rnd is self.round or rnd.session == waiting:
                kept.append(rnd)
            else:
                rnd.id = self.out.round_id(rnd.session, rnd.number)
                released.append(rnd)  # handed on when the batch is taken (feed), or by finish
        self.pending = kept

    def _previous(self, rec: Any) -> Any:
        """The record before *rec* (of the batch being fed): for the few handlers that close a
        round or a session at the line before (rare: not worth tracking on every line)."""
        batch = self._batch
        for i in range(len(batch)):
            if batch[i] is rec:
                return batch[i - 1] if i else self._before
        return None

    def _number(self, rec: Any) -> None:
        n = rec.event_no
        if not n:
            return
        dev = rec.device
        self._gno = n
        self._gdev = dev
        last = self._last.get(dev)
        if last is not None and n == last + 1:
            self._last[dev] = n
        else:
            self._irregular(dev, n, rec.seq, rec.ts, last)

    def _device_adopted(self, rec: Any) -> None:
        """A device used before, new to the log, adopted at its counter: its first event is
        expected right after it (a later one leaves a gap)."""
        dev = rec.device
        if dev not in self._last:
            self._base[str(dev)] = max(self._base.get(str(dev), 0), rec.event_no)

    def _irregular(self, dev: Any, n: int, seq: int, ts: str | None, last: int | None) -> None:
        nums = self._numbers.get(dev)
        if nums is None:
            nums = self._numbers[dev] = DeviceNumbers(str(dev))
        if last is None:  # the device's first event in the log (or in the slice given)
            self._last[dev] = n
            base = self._base.get(str(dev))
            if base is None or n == base + 1:
                nums.first = n
            elif n > base + 1:
                nums.first = base + 1
                nums.gaps.append([base + 1, n - 1])
            else:
                nums.first = n
                nums.duplicates.append({"event_no": n, "seq": seq, "ts": ts})
            return
        if n > last:
            nums.gaps.append([last + 1, n - 1])
            self._last[dev] = n
            return
        for i, (a, b) in enumerate(nums.gaps):
            if a <= n <= b:
                nums.out_of_order.append({"event_no": n, "seq": seq, "ts": ts})
                pieces: list[list[int]] = [[a, n - 1]] if n > a else []
                if n < b:
                    pieces.append([n + 1, b])
                nums.gaps[i : i + 1] = pieces
                return
        if n < nums.first:
            nums.out_of_order.append({"event_no": n, "seq": seq, "ts": ts})
            if n < nums.first - 1:
                nums.gaps.insert(0, [n + 1, nums.first - 1])
            nums.first = n
            return
        nums.duplicates.append({"event_no": n, "seq": seq, "ts": ts})

    # ------------------------------------------------------------------ cards

    def _card(self, rec: Any) -> None:
        """A card line (``dealt``, ``burned``, ``drawn``; a quarter of a log's lines: one call, no
        more): device numbers; for a card from the table's card source, its shoe's sequence and
        penetration; for a card of the round being played, the round's lines and layout."""
        n, dev, card, shoe_id, number, to = _card_fields(rec)
        if self.session is None:
            self._session(rec)
        # the cards of one packet are lines of one device event: the same number, in a row
        if n and (n != self._gno or dev != self._gdev or rec.packet is None):
            self._gno = n
            self._gdev = dev
            last = self._last.get(dev)
            if last is not None and n == last + 1:
                self._last[dev] = n
            else:
                self._irregular(dev, n, rec.seq, rec.ts, last)
        if dev == self.source:
            code = _CODE(card, UNKNOWN_CARD)  # card_code(card), without the call
            if self.csm:
                csm = self.out.csm_events
                if card is None:
                    self.misread_at[(dev, n)] = (csm.cards, len(csm))
                csm.append(CsmEvents.DISPENSE, code, rec.seq)
            shoe = self.shoe_by_id.get(shoe_id)
            if shoe is not None:
                cards = shoe.cards  # cards_drawn is their number (set at the end)
                if card is None and not self.csm:
                    self.misread_at[(dev, n)] = (cards, len(cards))
                cards.append(code)
                pen = rec.penetration
                if pen is not None and (shoe.max_penetration is None or pen > shoe.max_penetration):
                    shoe.max_penetration = pen
        rnd = self.round
        if rnd is not None and number == rnd.number:
            rnd.events.append(rec)
            event = rec.event
            if event == "dealt":
                rnd.positions.setdefault(to, []).append(card)
            elif event == "burned":
                rnd.burns.append(card)
            else:
                rnd.discards.append(card)

    def _returned(self, rec: Any) -> None:
        self._number(rec)
        if rec.written_off:
            self.out.written_off_returns.append(rec)
        if rec.device == self.source and self.csm:
            events = self.out.csm_events
            card = rec.card
            if card is None:
                self.misread_at[(rec.device, rec.event_no)] = (events.cards, len(events))
            events.append(CsmEvents.RETURN, card_code(card), rec.seq)

    def _identified(self, rec: Any) -> None:
        if rec.written_off:
            self.out.written_off_returns.append(rec)
        rnd = self.round
        if rnd is not None and rec.round == rnd.number:
            rnd.events.append(rec)
            to = rec.to  # the misread card in the round's layout gets its name
            pile = rnd.burns if to == "burn" else rnd.discards if to == "discard" else rnd.positions.get(to)
            if pile is not None and None in pile:
                pile[pile.index(None)] = rec.card
        where = self.misread_at.pop((rec.device, rec.event_no), None)
        if where is not None:
            target, index = where
            target[index] = card_code(rec.card)

    def _discarded(self, rec: Any) -> None:
        self._number(rec)
        self._in_round(rec)

    def _in_round(self, rec: Any) -> None:
        rnd = self.round
        if rnd is not None and rec.round == rnd.number:
            rnd.events.append(rec)

    def _decision(self, rec: Any) -> None:
        rnd = self.round
        if rnd is not None and rec.round == rnd.number:
            rnd.events.append(rec)
            rnd.decisions.append({"seat": rec.seat, "decision": rec.decision, "banker": bool(rec.banker)})

    def _corrected(self, rec: Any) -> None:
        """An exposed card taken back from a position and burned."""
        rnd = self.round
        if rnd is not None and rec.round == rnd.number:
            rnd.events.append(rec)
            text, frm = rec.card, rec.from_
            _remove_last(rnd.positions.get(frm, []), text)
            rnd.burns.append(text)
            rnd.corrections.append({"seq": rec.seq, "card": text, "from": frm, "to": rec.to, "reason": rec.reason})

    def _traded(self, rec: Any) -> None:
        """A card traded away (One for the Money): off the position, onto the discards."""
        rnd = self.round
        if rnd is not None and rec.round == rnd.number:
            rnd.events.append(rec)
            text, frm = rec.card, rec.from_
            _remove_last(rnd.positions.get(frm, []), text)
            rnd.discards.append(text)

    def _settled(self, rec: Any) -> None:
        rnd = self.round
        if rnd is not None and rec.round == rnd.number:
            rnd.settled.append(_settled_row(rec))

    # ------------------------------------------------------------------ rounds

    def _round_started(self, rec: Any) -> None:
        session = self.session
        if session is None:
            session = self._session(rec)
        if self.round is not None:
            self._close_round(self._previous(rec) or rec, INTERRUPTED, "a new round started before it ended")
        number, seats, wagers, banker, banker_stake, shoe, dealer, last_round = _round_fields(rec)
        rnd = RoundRecord(  # positionally (a round every 17 lines: keywords cost a third more)
            session.index, number, rec.seq, rec.ts, seats, wagers, banker, banker_stake, shoe, dealer, last_round,
        )
        if rec.players:  # who sits where, as the pit entered them (player_seated / player_left before it)
            rnd.players = rec.players
        if self.unkept is not None:
            rnd.events = self.unkept
        session.rounds += 1
        self._open(rnd)
        shoe = self.shoe_by_id.get(rnd.shoe)
        if shoe is not None:
            shoe.rounds += 1

    def _open(self, rnd: RoundRecord) -> None:
        """*rnd* is the round being played: the ones before it go on (:meth:`_release`)."""
        self.round = rnd
        if self.pending:
            self._release()
        self.pending.append(rnd)
        number = rnd.number
        span = self.out.number_spans.get(rnd.session)
        if span is None:
            self.out.number_spans[rnd.session] = [number, number]
        elif number < span[0]:
            span[0] = number
        elif number > span[1]:
            span[1] = number

    def _round_ended(self, rec: Any) -> None:
        rnd = self.round
        if rnd is None or rec.round != rnd.number:
            return
        rnd.events.append(rec)
        if rec.complete:  # _close_round(rec, COMPLETE or VOIDED), inline
            if rnd.status != VOIDED:
                rnd.status = COMPLETE
            rnd.end_seq = rec.seq
            rnd.end_ts = rec.ts
            self.round = None

    def _round_voided(self, rec: Any) -> None:
        rnd = self.round
        if rnd is None and (rnd := self._interrupted(rec.round)) is not None:
            # a restarted controller voided the round its previous session left (not taken over)
            if rnd.problems and rnd.problems[-1] in _INTERRUPTIONS:
                rnd.problems.pop()
        if rnd is not None and rec.round == rnd.number:
            rnd.events.append(rec)
            rnd.status = VOIDED
            if rnd.voided_by is None:
                rnd.voided_by = rec

    def _close_round(self, last: Any, status: str, why: str | None = None) -> None:
        """End the round at line *last* (for an interrupted round: the line before the interruption)."""
        rnd = self.round
        assert rnd is not None
        if status == INTERRUPTED and rnd.status == VOIDED:
            status = VOIDED
        rnd.status = status
        rnd.end_seq = last.seq
        rnd.end_ts = last.ts
        if why:
            rnd.problems.append(why)
        self.round = None

    # ------------------------------------------------------------------ shoes

    def _shoe_start(self, rec: Any) -> None:
        self._number(rec)
        session = self._session(rec)
        if self.source is not None and rec.device != self.source:
            return
        if self.shoe is not None and self.shoe.end_seq is None:
            self.shoe.end_seq = rec.seq
            self.shoe.ended_by = "reloaded" if rec.event == "shoe_loaded" else "shuffled"
        shoe = ShoeRecord(
            shoe=rec.shoe, session=session.index, device=rec.device, kind=session.source_kind,
            start_seq=rec.seq, start_ts=rec.ts, decks=rec.decks, size=rec.cards,
            deck_ok=rec.deck_ok, cap=session.cap if session.source_kind != "csm" else None,
        )
        self._shoe_before = (self.shoe, self.shoe_by_id.get(shoe.shoe))
        self._shoe_event = (rec.device, rec.event_no)
        self.shoe = shoe
        self.shoe_by_id[shoe.shoe] = shoe
        self.out.shoes.append(shoe)

    def _shoe_resumed(self, rec: Any) -> None:
        """A restarted controller took over the shoe in play: that shoe's record goes on (its cards,
        penetration, rounds), across the sessions."""
        session = self._session(rec)
        device = rec.device
        if self.source is not None and device != self.source:
            return
        shoe_id = rec.shoe
        shoe = next((s for s in reversed(self.out.shoes) if s.shoe == shoe_id and s.device == device and s.end_seq is None), None)
        if shoe is None:  # a slice that starts after the shoe did: what the line says was drawn from it
            cards = bytearray(map(card_code, rec.cards))  # a continuous shuffler's: only the cards still out
            drawn, pen = rec.drawn, rec.penetration
            shoe = ShoeRecord(
                shoe=shoe_id, session=session.index, device=device, kind=session.source_kind, start_seq=rec.seq,
                start_ts=rec.ts, decks=session.decks, cap=session.cap, cards=cards,
                unseen=max(0, drawn - len(cards)) if type(drawn) is int else 0,
                max_penetration=pen,
            )
            self.out.shoes.append(shoe)
        shoe.resumed_in.append(session.index)
        self.shoe = shoe
        self.shoe_by_id[shoe_id] = shoe

    def _round_resumed(self, rec: Any) -> None:
        """A restarted controller went on with the round its previous session was in: the round the
        interruption closed is open again, and its record goes on (cards, decisions, settlement)."""
        self._session(rec)
        rnd = self._interrupted(rec.round)
        if rnd is None or self.round is not None:
            return  # a slice that starts after the round did, or a line that matches no round
        rnd.status, rnd.end_seq, rnd.end_ts = OPEN, None, None
        if rnd.problems and rnd.problems[-1] in _INTERRUPTIONS:
            rnd.problems.pop()
        rnd.resumed_in.append(self.out.sessions[-1].index)
        self.round = rnd

    def _interrupted(self, number: int) -> RoundRecord | None:
        """The last round numbered *number* not handed on yet, if an interruption closed it."""
        rnd = next((r for r in reversed(self.pending) if r.number == number), None)
        return rnd if rnd is not None and rnd.status == INTERRUPTED else None

    def _shoe_refused(self, v: ViolationRecord) -> None:
        """The controller did not take the shoe just loaded (the table was not between rounds)."""
        shoe = self.shoe
        assert shoe is not None
        shoe.end_seq = v.seq
        shoe.ended_by = "not taken: the table was not between rounds"
        previous, same_id = self._shoe_before
        self.shoe = previous
        if same_id is not None:
            self.shoe_by_id[shoe.shoe] = same_id
        else:
            self.shoe_by_id.pop(shoe.shoe, None)
        if previous is not None and previous.end_seq == shoe.start_seq:
            previous.end_seq, previous.ended_by = None, "log end"

    def _shoe_change(self, rec: Any) -> None:
        shoe = self.shoe_by_id.get(rec.shoe)
        if shoe is not None and shoe.end_seq is None:
            shoe.end_seq = rec.seq
            shoe.ended_by = "shoe change"

    def _cut_card(self, rec: Any) -> None:
        self._number(rec)
        shoe = self.shoe_by_id.get(rec.shoe)
        if shoe is not None:
            shoe.cut_card = rec.penetration

    def _last_round(self, rec: Any) -> None:
        shoe = self.shoe_by_id.get(rec.shoe)
        if shoe is not None and shoe.last_round_at is None:
            shoe.last_round_at = rec.round

    _numbered = _number

    # ------------------------------------------------------------------ holds, violations, faults

    def _state(self, rec: Any) -> None:
        to = rec.to
        hold = self.hold
        if hold is not None:
            frm = rec.from_
            if frm != HELD and frm != DEVICE_FAULT:
                return
            if to == HELD or to == DEVICE_FAULT:  # held <-> device fault: one stop, its kind changes
                hold.kind = to if to == DEVICE_FAULT else hold.kind
                return
            hold.end_seq = rec.seq
            hold.end_ts = rec.ts
            hold.ended_to = to
            self.hold = None
        elif to == HELD or to == DEVICE_FAULT:
            session = self._session(rec)
            rnd = self.round
            self.hold = Hold(to, session.index, rec.seq, rec.ts, (rnd.session, rnd.number) if rnd else None)
            if rnd is not None:
                rnd.holds += 1
            self.out.holds.append(self.hold)

    def _violation(self, rec: Any) -> None:
        session = self._session(rec)
        rnd = self.round
        number = rec.round
        key = (session.index, number) if number is not None else None
        if rnd is not None and number == rnd.number:
            rnd.events.append(rec)
            rnd.violations.append(rec.seq)
        v = ViolationRecord(
            rec.seq, rec.ts, session.index, rec.kind, key, rec.detail,
            rec.device, rec.event_no,
        )
        self.out.violations.append(v)
        self.open_violations[v.seq] = v
        if v.kind == "wrong_state" and self.shoe is not None and (v.device, v.event_no) == self._shoe_event:
            self._shoe_refused(v)
        if self.hold is not None:
            self.hold.violations.append(v.seq)

    def _resolved(self, rec: Any) -> None:
        self._in_round(rec)
        # a resolve closes every open violation; past the controller's cap the line lists only
        # the first ones by seq and counts the rest by kind ("unlisted")
        closing = list(self.open_violations) if rec.unlisted else rec.violations or ()
        for seq in closing:
            v = self.open_violations.pop(seq, None)
            if v is not None:
                v.resolved = rec

    def _fault(self, rec: Any) -> None:
        self._number(rec)
        session = self._session(rec)
        kind = rec.fault
        key = (rec.device, kind)
        if rec.cleared:
            f = self.open_faults.pop(key, None)
            if f is not None:
                f.cleared_seq = rec.seq
                f.cleared_ts = rec.ts
            return
        f = FaultRecord(rec.seq, rec.ts, session.index, rec.device, rec.event_no, kind,
                        rec.detail)
        self.out.faults.append(f)
        self.open_faults[key] = f

    def _alarm(self, rec: Any) -> None:
        self._session(rec)
        self.out.alarms.append(rec)

    def _internal_error(self, rec: Any) -> None:
        self.out.internal_errors.append(rec)

    def _supervisor_refused(self, rec: Any) -> None:
        self.out.supervisor_refusals.append(rec)

    def _input_rejected(self, rec: Any) -> None:
        self.out.inputs_rejected += 1

    # ------------------------------------------------------------------ sessions

    def _session(self, rec: Any) -> Session:
        session = self.session
        if session is None:  # a log slice that starts inside a session
            session = self._new_session(rec, "unknown")
            setup = self.setup
            if setup is not None:
                session.game, session.decks, session.cap, session.seats = setup.game, setup.decks, setup.cap, setup.seats
                session.source, session.source_kind = setup.source, setup.source_kind
                self.source = setup.source
                self.csm = setup.source_kind == "csm"
        return session

    def _new_session(self, rec: Any, opened_by: str) -> Session:
        session = Session(len(self.out.sessions) + 1, rec.seq, rec.ts, opened_by)
        self.out.sessions.append(session)
        self.out.earlier_high[session.index] = max((hi for _, hi in self.out.number_spans.values()), default=0)
        self.session = session
        self._gno = 0
        return session

    def _end_session(self, rec: Any, ended_by: str | None) -> None:
        session = self.session
        if session is None:
            return
        last = self._previous(rec) or rec
        if self.round is not None:
            why = _INTERRUPTIONS[ended_by == "crash"]
            self._close_round(last, INTERRUPTED, why)
        if self.hold is not None:
            self.hold.ended_to = ended_by or "stop"
            self.hold = None
        if session.end_seq is None:
            session.end_seq = last.seq
            session.end_ts = last.ts
        if session.ended_by.startswith("stopped"):
            if ended_by == "crash":
                session.ended_by += ", then crashed before the log was closed"
        elif ended_by is not None:
            session.ended_by = ended_by
        self.session = None
        self.shoe = None
        self.shoe_by_id = {}
        self.open_faults = {}

    def _snapshot(self, rec: Any) -> None:
        if rec.seq == self.out.first_seq:
            nos = rec.event_nos
            if nos is not None and not self._last:
                self._base = nos

    def _log_opened(self, rec: Any) -> None:
        self._snapshot(rec)
        self._end_session(rec, "closed")
        self._new_session(rec, "new" if rec.previous is None else "clean")

    def _recovery(self, rec: Any) -> None:
        self._snapshot(rec)
        self._end_session(rec, "crash")
        self.out.recoveries.append(rec)
        self._new_session(rec, "recovery")

    def _rotated(self, rec: Any) -> None:
        self._snapshot(rec)

    def _table_started(self, rec: Any) -> None:
        session = self._session(rec)
        if session.game is not None:  # a second start without a log boundary
            self._end_session(rec, "restarted")
            session = self._new_session(rec, "unknown")
        session.game = rec.game
        session.decks = rec.decks
        session.cap = rec.cap
        session.seats = rec.seats
        session.source = rec.source
        session.source_kind = rec.source_kind
        session.devices = rec.devices if rec.devices is not None else {}
        rules = {k: v for k, v in (("house_rules", rec.house_rules), ("pay_tables", rec.pay_tables)) if v is not None}
        session.rules = rules or None
        if self.out.table is None:
            self.out.table = rec.table
        self.source = session.source
        self.csm = session.source_kind == "csm"

    def _table_stopped(self, rec: Any) -> None:
        session = self._session(rec)
        session.ended_by = f"stopped: {rec.reason}"
        session.end_seq = rec.seq
        session.end_ts = rec.ts

    # ------------------------------------------------------------------ the end

    def finish(self, lines: int) -> Reconstruction:
        """Close what is still open and return the reconstruction."""
        out = self.out
        self._handlers = {}  # bound methods of self: a reference cycle that would keep `out` alive
        last = self._batch[-1] if self._batch else self._before
        out.lines = lines
        if last is not None:
            out.last_seq = last.seq
            out.last_ts = last.ts
            if out.table is None:
                out.table = last.table
        if self.round is not None and last is not None:
            self.round.status = OPEN if self.round.status != VOIDED else VOIDED
            self.round.problems.append("the log ends during the round")
            self.round = None
        if self.session is not None and last is not None:
            session = self.session
            if session.end_seq is None or session.end_seq < last.seq:
                session.end_seq = last.seq
                session.end_ts = last.ts
            if self.hold is not None:
                self.hold.ended_to = "log end"
            self.session = None
        for shoe in out.shoes:
            shoe.cards_drawn = shoe.unseen + len(shoe.cards)
        # device numbers
        for dev, last_no in self._last.items():
            nums = self._numbers.get(dev)
            if nums is None:
                nums = self._numbers[dev] = DeviceNumbers(str(dev))
            nums.last = last_no
            nums.distinct = last_no - nums.first + 1 - nums.missing
        out.devices = {str(k): v for k, v in sorted(self._numbers.items(), key=lambda kv: str(kv[0]))}
        self._release()
        self._hand_on()
        return out


def _remove_last(cards: list[str | None], card: Any) -> bool:
    """Take the last copy of *card* off *cards*."""
    for i in range(len(cards) - 1, -1, -1):
        if cards[i] == card:
            del cards[i]
            return True
    return False
