"""``TableCore``: the table's logic for one owner thread — device events and dealer inputs in,
validated placements, violations, state changes and settlements out to the event log.

No threads, no device I/O: the controller (``tablectl.table.controller``) feeds it from its inbox,
commits the log and tells the devices what is persisted. Game-agnostic: everything a game is
comes from its ``GameDef`` (the deal script walked by ``RoundCursor``).

The per-card path is: composition (``Composition.see``) -> penetration cap -> ``judge_card``
(state, burn mark, the procedure's next step) -> place -> one ``log.append``, all in this file.
The lifecycle machine (``lifecycle``, walked by ``lifecycle.take``) moves only for lifecycle
changes. Its parts with one job each: the dealer and the bank's rotation (``people``),
violations, misreads and faults (``alarms``), the prompt and the view (``screen``), going on
after a restart (``takeover``).
"""

from __future__ import annotations

import logging
from collections import Counter, deque
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from tablectl.cards import CARD_TEXT, DECK_SIZE, Composition, text
from tablectl.config import TableConfig
from tablectl.drivers import events as ev
from tablectl.eventlog.records import LOG_INT_MAX
from tablectl.games.procedure import (
    BURN,
    BURN_DEALER_CHANGE,
    BURN_SHUFFLE,
    DISCARD,
    Reveal,
    RoundContext,
    Trade,
)
from tablectl.rounds import RoundHands
from tablectl.rules.errors import SettlementError
from tablectl.rules.settle import settle
from tablectl.table import lifecycle as lc
from tablectl.table import player_id, screen
from tablectl.table.alarms import MAX_OPEN_VIOLATIONS, Alarms, Misread
from tablectl.table.backlog import Backlog
from tablectl.table.backlog import line as backlog_line
from tablectl.table.inputs import (
    INPUT_NAMES,
    BurnNext,
    DealerChange,
    Decision,
    EndRound,
    ExposedCard,
    IdentifyCard,
    InputRejected,
    OfferBank,
    Resolve,
    SeatPlayer,
    ShoeChange,
    StartRound,
    SupervisorDenied,
)
from tablectl.table.people import People
from tablectl.table.procedure import penetration as pen
from tablectl.table.procedure import validation as va
from tablectl.table.procedure.cover import bank_short, bank_stake_limit
from tablectl.table.procedure.cursor import CursorError, RoundCursor
from tablectl.table.procedure.layout import reveal, take_back, trade_out
from tablectl.table.procedure.voiding import returned_wagers
from tablectl.table.restart.resume import LogState
from tablectl.table.restart.takeover import take_over
from tablectl.table.view import Prompt, TableView

#: faults that stop the table until the device clears them
STOPPING_FAULTS = frozenset({ev.FaultKind.JAM, ev.FaultKind.DOOR_OPEN, ev.FaultKind.SENSOR, ev.FaultKind.DISCONNECTED})
EVENTS_LOST = va.EVENTS_LOST
#: Faults the driver raises about the device's events (not the device's own): each a violation.
HOST_FAULT_VIOLATIONS = {ev.FaultKind.EVENTS_LOST: va.EVENTS_LOST, ev.FaultKind.BAD_EVENT: va.BAD_EVENT}
PAST_LAST_ROUND = "past_last_round"

_log = logging.getLogger(__name__)


class EventLogLike(Protocol):
    """What the core needs of ``tablectl.eventlog.EventLog``: a line's fields as keywords
    (``append``) or in one dict (``append_dict``, every card's path: no keyword unpacking)."""

    def append(self, event: str, /, **fields: Any) -> int: ...

    def append_dict(self, event: str, fields: dict[str, Any]) -> int: ...

    def commit(self) -> int: ...

    def end_shoe(self, shoe: int | str | None = None) -> int: ...

    def add_listener(self, listener: Callable[[dict[str, Any]], None]) -> None: ...

    def last_event_no(self, device: str) -> int: ...


class TableCore(lc.LifecycleModel):
    """One table's state and rules of procedure. Every method runs on the owner thread."""

    def __init__(self, config: TableConfig, log: EventLogLike, *, first_round: int = 1, recent: int = 50,
                 demo_supervisor: bool = False) -> None:
        self.config = config
        self.demo_supervisor = demo_supervisor  # the supervisors are a simulated table's demo one (logged)
        self.game = config.game_def
        self.rules = config.procedure_rules
        self.bet_limits = config.bet_limits
        self.bet_names = config.bet_names
        self._check_wagers = va.WagerCheck(self.game.wagers, self.game.required, self.bet_limits, self.bet_names)
        self.stake_limit = bank_stake_limit(config)
        self.voided: int | None = None  # the round a supervisor voided, until the next one starts
        self.settlement_rules = config.settlement_rules
        self.log = log
        self._write = log.append_dict  # every line the core logs goes through it
        self.source = config.card_device
        self.kind = config.card_driver
        self.packets = self.kind == "shuffler"
        self.capped = self.kind != "csm"
        self.state = lc.OFFLINE  # the lifecycle machine's state, moved only by ``fire``
        self.base = lc.IDLE
        budget_seats = config.seats - (1 if self.game.banker else 0)
        self.budget = self.game.round_budget(max(budget_seats, 1), self.rules) + self.game.dealer_change_burns(self.rules)

        # the shoe (or the shuffle, or the continuous shuffler's content)
        self.shoe: int | None = None
        self.comp = Composition(config.decks)
        self.size = config.decks * DECK_SIZE
        self.cap_cards = pen.cap_cards(self.size, config.penetration_cap)
        self._penetrations = pen.fractions(self.size)
        self.unread = 0  # misread cards not yet identified (they count towards penetration)
        self.exhausted = False
        self.capped_out = False
        self.last_round_announced = False
        self.this_round_last = False
        self.packet_no = 0
        self.marks = 0
        self.burns_due: list[str] = []
        self.written_off: Counter[int] = Counter()

        # the round
        self.round_no = first_round - 1
        self.in_round = False
        self.cursor: RoundCursor | None = None
        self.round_seats: tuple[int, ...] = ()
        self.round_wagers: Mapping[int, Mapping[str, int]] | None = None
        self.banker_stake: int | None = None
        self.bank_could_pay: int | None = None  # the most the bank could pay, when its stake is below it
        self.return_asked: Counter[int] | None = None  # cards out when a round start was refused for them (a slip)
        self.layout: dict[str, list[list[Any]]] = {}  # position -> [[card, face_up], ...]
        self.decisions: dict[int, list[str]] = {}
        self.settlement: list[dict[str, Any]] = []

        self.people = People(self.game.bank_every if self.game.banker else 0, config.seats)
        self.alarms = Alarms()
        self.highest: dict[str, int] = {}
        self.unnumbered: set[str] = set()  # devices with nothing logged: their first event tells where they stand
        self._adopted: Callable[[str], int | None] | None = None
        self._held: Callable[[str], int | None] | None = None
        self.backlog = Backlog()  # events devices held from before this table's session: logged, not judged
        self._quiet = False  # a backlog event is being taken: its violations are not raised
        self.recent: deque[dict[str, Any]] = deque(maxlen=recent)
        self._recent = screen.RecentShown()
        log.add_listener(self.recent.append)
        self._dispatch: dict[type, Callable[[str, Any], None]] = {
            ev.CardDrawn: self._on_card_drawn,
            ev.CardReturned: self._on_card_returned,
            ev.PacketDelivered: self._on_packet,
            ev.CardsDiscarded: self._on_discarded,
            ev.ShoeLoaded: self._on_shoe_loaded,
            ev.ShuffleStarted: self._on_shuffle_started,
            ev.ShuffleDone: self._on_shuffle_done,
            ev.CutCardReached: self._on_cut_card,
            ev.ShoeEmpty: self._on_shoe_empty,
            ev.ButtonPressed: self._on_button,
            ev.Fault: self._on_fault,
        }
        self._inputs: dict[type, Callable[[Any], None]] = {
            StartRound: self._start_round,
            Decision: self._decision,
            BurnNext: self._burn_next,
            ExposedCard: self._exposed_card,
            IdentifyCard: self._identify_card,
            EndRound: self._end_round,
            DealerChange: self._dealer_change,
            ShoeChange: self._shoe_change,
            OfferBank: self._offer_bank,
            SeatPlayer: self._seat_player,
            Resolve: self._resolve,
            SupervisorDenied: self._supervisor_denied,
        }

    # ============================================================== lifecycle guards and helpers

    def active_faults(self) -> Any:
        return self.alarms.faults

    def open_violations(self) -> Any:
        return self.alarms.violations

    def fire(self, trigger: str) -> None:
        """Take the lifecycle transition ``trigger`` (its guards decide; no jump around them)."""
        before = self.state
        lc.take(self, trigger)
        if self.state != before:
            self._write("state", {"from": before, "to": self.state, "trigger": trigger, "round": self.round_no or None})

    def go_online(self, devices: Mapping[str, int] | None = None, resumed: LogState | None = None,
                  identities: Mapping[str, Any] | None = None, adopted: Callable[[str], int | None] | None = None,
                  held: Callable[[str], int | None] | None = None) -> None:
        """The devices are connected: ``devices`` maps each to the highest event number already
        logged for it (events up to it are not taken again); ``resumed``: what the log says was
        in play when the table stopped (``tablectl.table.restart.resume``): a card-reading shoe or a
        continuous shuffler, and the round being dealt from it, are taken over. ``identities``:
        each connected device's ``Identify`` (model, serial number, firmware), logged as
        ``device_identified`` so that surveillance can follow a machine by its serial number.
        ``adopted(name)``: what the driver of a device with nothing logged adopted it after (a
        device used before: its first event, less one), logged as ``device_adopted`` ahead of that
        event; ``held(name)``: the last event such a device held from before this table's session
        (its backlog, ``tablectl.table.backlog``: logged, not judged)."""
        for name, number in (devices or {}).items():
            self.highest[name] = number
            if not number and adopted is not None:
                self.unnumbered.add(name)
        self._adopted, self._held = adopted, held
        for name, last in (resumed.backlog.items() if resumed is not None else ()):
            if self.highest.get(name, 0) < last:  # stopped in the middle of it: the rest is still not judged
                self.backlog.begin(name, last)
        self._write("table_started", {
            "game": self.game.id, "decks": self.config.decks, "cap": self.config.penetration_cap,
            "seats": self.config.seats, "source": self.source, "source_kind": self.kind,
            "house_rules": dict(self.config.house_rules), "pay_tables": dict(self.config.pay_tables),
            "devices": {n: d.driver for n, d in self.config.devices.items()},
            "supervisors": sorted(self.config.supervisors),
            **({"demo_supervisor": True} if self.demo_supervisor else {}),
        })
        for name, ident in (identities or {}).items():
            self._write("device_identified", {
                "name": name, "kind": ident.kind.name.lower(), "model": ident.model, "serial": ident.serial,
                "firmware": ident.firmware,
            })
        self.fire("connect")
        if resumed is not None:
            take_over(self, resumed)

    def go_offline(self, reason: str = "stop", signal: str | None = None) -> None:
        """The table goes offline: ``table_stopped`` says why (``tablectl.table.stopping``), and
        which signal stopped it when one did."""
        if self.state != lc.OFFLINE:
            self._write("table_stopped", {
                "reason": reason, "round": self.round_no or None, **({"signal": signal} if signal else {}),
            })
            self.fire("stop")

    @property
    def penetration(self) -> float:
        n = self.comp.drawn + self.unread
        return self._penetrations[n] if n <= self.size else pen.fraction(n, self.size)

    def _violation(self, kind: str, detail: str, **fields: Any) -> None:
        if self._quiet:
            return  # a device's backlog is not judged
        rnd = fields.pop("round", self.round_no or None)
        seq = self._write("violation", {"kind": kind, "round": rnd, "detail": detail, **fields})
        first_unlisted = not self.alarms.unlisted
        if not self.alarms.violation(va.Violation(kind, rnd, detail, seq, fields)) and first_unlisted:
            _log.warning(
                "table %s: more than %d open violations; further ones are in the event log and counted only",
                self.config.table, MAX_OPEN_VIOLATIONS,
            )
        if self.state in lc.BASE_STATES:
            self.fire("hold")

    def _card_fields(self, device: str, event_no: int) -> dict[str, Any]:
        """The fields every card line carries (penetration is added once the card is counted)."""
        return {"shoe": self.shoe, "round": self.round_no if self.in_round else None, "device": device, "event_no": event_no}

    # ============================================================== device events

    def handle_event(self, device: str, event: ev.DeviceEvent) -> None:
        """One device event, in arrival order."""
        number = event.event_no
        if number:
            if number <= self.highest.get(device, 0):
                return  # already taken (a replay after a reconnect)
            self.highest[device] = number
            if device in self.unnumbered:
                self.unnumbered.discard(device)
                counter = self._adopted(device) if self._adopted is not None else None
                if counter:
                    self._write("device_adopted", {
                        "device": device, "event_no": counter,
                        "detail": f"counter at {counter}, nothing before it expected",
                    })
                held = self._held(device) if self._held is not None else None
                if held is not None and held >= number:
                    self._begin_backlog(device, number, held)
            if self.backlog.last and self.backlog.holds(device, number):  # a dict's truth: no call per event
                self._backlog_event(device, event)
                return
        handler = self._dispatch.get(type(event))
        if handler is None:
            self._write("device_event", {"device": device, "event_no": number, "type": type(event).__name__})
            return
        handler(device, event)

    # --- a device's backlog: logged, taken for the device's state, not judged ----------------

    def _begin_backlog(self, device: str, first: int, last: int) -> None:
        fields = backlog_line(device, first, last)
        self._write("device_backlog", fields)
        _log.warning("table %s: %s", self.config.table, fields["detail"])
        self.backlog.begin(device, last)

    def _backlog_event(self, device: str, event: ev.DeviceEvent) -> None:
        """An event of ``device``'s backlog, through its handler with no violation raised; a card
        drawn is out of the shoe, never dealt (``_backlog_card``)."""
        handler = self._backlog_card if type(event) is ev.CardDrawn else self._dispatch.get(type(event))
        self._quiet = True
        try:
            if handler is None:
                self._write("device_event", {
                    "device": device, "event_no": event.event_no, "type": type(event).__name__,
                })
            else:
                handler(device, event)
        finally:
            self._quiet = False

    def _backlog_card(self, device: str, event: ev.CardDrawn) -> None:
        """A card drawn before this table's session: it counts for the shoe's composition and
        penetration (past the cap, a reshuffle is due) and takes a burn mark, but goes nowhere in
        the procedure: ``drawn``, to the discards; no burn after the shuffle is due any more."""
        if self.marks:
            self.marks -= 1
        card = event.card
        fields = self._card_fields(device, event.event_no)
        if device == self.source:
            if card is None:
                self.unread += 1
            else:
                self.comp.see(card)  # a copy too many is not counted, as when dealt
            self.burns_due = []
            if self.capped:
                fields["penetration"] = self.penetration
                if self.comp.drawn + self.unread > self.cap_cards and not self.capped_out:
                    self.capped_out = True
                    if self.state == lc.READY:
                        self.fire("exhausted")
        self._write("drawn", {"card": _txt(card), "to": DISCARD, "face": "up", **fields})

    # --- cards out of a shoe or a continuous shuffler -------------------------------------

    def _on_card_drawn(self, device: str, event: ev.CardDrawn) -> None:
        marked = False
        if self.marks:
            self.marks -= 1
            marked = True
        card = event.card
        if device != self.source or (card is not None and not self.comp.see(card)):
            self._refuse_card(device, event)
            return
        if card is None:
            self.unread += 1
        penetration = None
        if self.capped:
            number = self.comp.drawn + self.unread
            penetration = self._penetrations[number] if number <= self.size else pen.fraction(number, self.size)
            if number > self.cap_cards:
                self._past_cap(device, event, number, penetration)
                return
        cursor = self.cursor
        step = cursor.expected() if cursor is not None and self.in_round else None
        if step is not None and not marked and not step.burn and not self.burns_due and self.state == lc.IN_ROUND:
            self._deal(card, device, event.event_no, penetration)  # what judge_card says: TO_STEP
            return
        fields = self._card_fields(device, event.event_no)
        if penetration is not None:
            fields["penetration"] = penetration
        verdict = va.judge_card(
            self.state, marked=marked, burn_due=self.burns_due[0] if self.burns_due else None, step=step
        )
        self._apply(verdict, card, device, event.event_no, fields)

    def _refuse_card(self, device: str, event: ev.CardDrawn) -> None:
        """A card from another device than this table's, or one beyond the composition (foreign or a
        copy too many, not counted): drawn, to the discards, and a violation."""
        card = event.card
        self._write("drawn", {"card": _txt(card), "to": DISCARD, "face": "up", **self._card_fields(device, event.event_no)})
        if device != self.source:
            self._violation(va.WRONG_STATE, f"a card from {device}, which is not this table's card device", card=_txt(card))
            return
        assert card is not None  # read, and beyond the composition
        self._violation(
            va.FOREIGN_CARD,
            f"{text(card)} is beyond the composition of {self.config.decks} deck(s): foreign or duplicate",
            card=text(card), device=device, event_no=event.event_no,
        )

    def _past_cap(self, device: str, event: ev.CardDrawn, number: int, penetration: float) -> None:
        """Card ``number`` of the shoe is past the penetration cap: drawn, to the discards, a violation."""
        card = event.card
        fields = self._card_fields(device, event.event_no)
        fields["penetration"] = penetration
        self._write("drawn", {"card": _txt(card), "to": DISCARD, "face": "up", **fields})
        self.capped_out = True
        self._violation(
            va.PENETRATION_CAP,
            f"card {number} of {self.size} is past the cap of {self.cap_cards} ({self.config.penetration_cap:.0%})",
            card=_txt(card), device=device, event_no=event.event_no, penetration=penetration,
        )
        if card is None:
            self._misread(device, event.event_no, "discard", DISCARD, "up")

    def _deal(self, card: int | None, device: str, event_no: int, penetration: float | None, packet: int | None = None,
              *, advance: bool = True) -> None:
        """The card goes to the position the procedure expects next (not a burn), and the procedure
        moves on (``advance``): ``_place``'s usual case, on every card's path, its line made in one go."""
        cursor = self.cursor
        assert cursor is not None
        step = cursor.place(card)
        face_up = step.face_up
        line = {"card": None if card is None else CARD_TEXT[card], "to": step.to, "face": "up" if face_up else "down",
                "shoe": self.shoe, "round": self.round_no, "device": device, "event_no": event_no}
        if penetration is not None:
            line["penetration"] = penetration
        if packet is not None:
            line["packet"] = packet
        self._write("dealt", line)
        self._lay(card, step.to, face_up, device, event_no)
        if card is not None and advance and (cursor.effects or cursor.done):
            self._after_cursor()

    def _apply(self, verdict: va.CardVerdict, card: int | None, device: str, event_no: int, fields: dict[str, Any]) -> None:
        placement = verdict.placement
        if placement == va.TO_STEP:
            self._place(card, device, event_no, fields)
        elif placement == va.TO_DUE_BURN:
            reason = self.burns_due.pop(0)
            self._write("burned", {"card": _txt(card), "to": BURN, "face": "down", "reason": reason, **fields})
            if card is None:
                self._misread(device, event_no, "burn", BURN, "down")
        elif placement == va.TO_EXTRA_BURN:
            self._write("burned", {"card": _txt(card), "to": BURN, "face": "down", "reason": "extra", **fields})
            self._violation(va.BURN_EXTRA, "a card was burned where a card was due", device=device, event_no=event_no)
            if card is None:
                self._misread(device, event_no, "burn", BURN, "down")
        elif placement == va.AFTER_BURNS:
            self.burns_due.clear()
            cursor = self.cursor
            if cursor is not None:
                cursor.skip_burns()
            step = cursor.expected() if cursor is not None else None
            if step is not None and not step.burn:
                self._deal(card, device, event_no, fields.get("penetration"), advance=False)
            else:
                self._write("drawn", {"card": _txt(card), "to": DISCARD, "face": "up", **fields})
                if card is None:
                    self._misread(device, event_no, "discard", DISCARD, "up")
            self._violation(
                va.BURN_MISSING, f"a burn was due ({verdict.where}) and the card was dealt", where=verdict.where,
                device=device, event_no=event_no,
            )
            self._after_cursor()
        else:
            self._write("drawn", {"card": _txt(card), "to": DISCARD, "face": "up", **fields})
            assert verdict.violation is not None
            what = "while the table is " + self.state.replace("_", " ") if verdict.violation == va.WRONG_STATE else "that the round does not need"
            self._violation(verdict.violation, f"a card was drawn {what}", card=_txt(card), device=device, event_no=event_no)
            if card is None:
                self._misread(device, event_no, "discard", DISCARD, "up")

    def _place(
        self, card: int | None, device: str, event_no: int, fields: dict[str, Any], packet: int | None = None, *, advance: bool = True
    ) -> None:
        """The card goes to the procedure's next step (``advance``: and the procedure moves on): a
        position (:meth:`_deal`) or a burn the script asks for. In a round only (``fields``' round)."""
        cursor = self.cursor
        assert cursor is not None
        step = cursor.expected()
        if step is None or not step.burn:
            self._deal(card, device, event_no, fields.get("penetration"), packet, advance=advance)
            return
        cursor.place(card)
        line = {"card": _txt(card), "to": BURN, "face": "down", "reason": step.reason, **fields}
        if packet is not None:
            line["packet"] = packet
        self._write("burned", line)
        if card is None:
            self._misread(device, event_no, "cursor", BURN, "down")
        if card is not None and advance and (cursor.effects or cursor.done):
            self._after_cursor()

    def _lay(self, card: int | None, to: str, face_up: bool, device: str, event_no: int) -> None:
        """The card dealt to ``to`` joins the layout (a misread one is to be identified)."""
        held = self.layout.get(to)  # == lay(self.layout, to, card, face_up)
        if held is None:
            self.layout[to] = [[card, face_up]]
        else:
            held.append([card, face_up])
        if card is None:
            self._misread(device, event_no, "cursor", to, "up" if face_up else "down")

    def _after_cursor(self) -> None:
        """Log what the script reported and finish the round when its procedure is complete."""
        cursor = self.cursor
        if cursor is None:
            return
        for effect in cursor.take_effects() if cursor.effects else ():
            if isinstance(effect, Reveal):
                cards = reveal(self.layout, effect.to)
                self._write("revealed", {
                    "round": self.round_no, "to": effect.to, "cards": [_txt(c) for c, _ in cards], "face": "up",
                })
            elif isinstance(effect, Trade):
                position = trade_out(self.layout, effect.seat, effect.card)
                self._write("traded", {
                    "round": self.round_no, "card": text(effect.card), "seat": effect.seat, "from": position,
                    "to": DISCARD, "face": "up",
                })
        if cursor.done and self.state == lc.IN_ROUND:
            self.complete_round()

    def _misread(self, device: str, event_no: int, where: str, to: str, face: str) -> None:
        if self._quiet:
            return  # a backlog card nobody at this table can turn over
        self.alarms.misreads.append(Misread(where, to, device, event_no, face))
        self._violation(va.MISREAD, f"{device} could not read a card (it went to {to})", device=device, event_no=event_no, to=to)

    # --- cards back into a continuous shuffler ---------------------------------------------------

    def _on_card_returned(self, device: str, event: ev.CardReturned) -> None:
        card = event.card
        if card is None:
            self._write("returned", {"card": None, "to": device, "face": "up", "shoe": self.shoe, "device": device,
                                     "event_no": event.event_no})
            self.alarms.misreads.append(Misread("returned", device, device, event.event_no, "up"))
            self._violation(va.MISREAD, f"{device} could not read a returned card", device=device, event_no=event.event_no)
            return
        owed = self._written_off(card)
        line = {"card": CARD_TEXT[card], "to": device, "face": "up", "shoe": self.shoe, "device": device, "event_no": event.event_no}
        if owed:
            line["written_off"] = True
        self._write("returned", line)
        self._take_back(card, device, event.event_no, owed)

    def _take_back(self, card: int, device: str, event_no: int, owed: bool) -> None:
        """A card back into the continuous shuffler (logged); ``owed``: a copy of it was written off
        (``card_not_returned`` resolved): it is back now."""
        if self.comp.seen(card) == 0:
            self._violation(va.FOREIGN_CARD, f"{text(card)} was returned but never dealt", card=text(card), device=device, event_no=event_no)
            return
        self.comp.give_back(card)
        if owed:
            self.written_off[card] -= 1

    def _written_off(self, card: int) -> bool:
        """Whether a copy of ``card`` out of the continuous shuffler was written off."""
        return self.written_off.get(card, 0) > 0 and self.comp.seen(card) > 0

    # --- packets from a hand-forming shuffler ----------------------------------------------------

    def _on_packet(self, device: str, event: ev.PacketDelivered) -> None:
        cards = event.cards
        fields = self._card_fields(device, event.event_no)
        expected_index = self.packet_no
        self.packet_no = event.packet + 1
        cursor = self.cursor
        group = cursor.packet() if cursor is not None and self.in_round and not self.burns_due else None
        verdict = va.judge_packet(self.state, index=event.packet, expected_index=expected_index, size=len(cards), packet=group)
        place = verdict.placement == va.TO_STEP
        if verdict.placement == va.AFTER_BURNS:
            assert cursor is not None
            cursor.skip_burns()
            group = cursor.packet()
            place = group is not None and not group[0].burn and group[1] == len(cards)
        advance = verdict.placement != va.AFTER_BURNS
        for card in cards:
            if card is not None and not self.comp.see(card):
                self._write("drawn", {
                    "card": text(card), "to": DISCARD, "face": "up", "packet": event.packet, **fields,
                })
                self._violation(va.FOREIGN_CARD, f"{text(card)} is beyond the deck's composition", card=text(card), device=device, event_no=event.event_no)
                place = False
                continue
            if card is None:
                self.unread += 1
            number = self.comp.drawn + self.unread
            fields["penetration"] = self.penetration
            if number > self.cap_cards:
                self._write("drawn", {
                    "card": _txt(card), "to": DISCARD, "face": "up", "packet": event.packet, **fields,
                })
                self.capped_out = True
                self._violation(va.PENETRATION_CAP, f"card {number} is past the cap of {self.cap_cards}", card=_txt(card), device=device, event_no=event.event_no)
                place = False
                continue
            if place and cursor is not None and cursor.expected() is not None:
                self._place(card, device, event.event_no, fields, packet=event.packet, advance=advance)
            else:
                self._write("drawn", {
                    "card": _txt(card), "to": DISCARD, "face": "up", "packet": event.packet, **fields,
                })
                if card is None:
                    self._misread(device, event.event_no, "discard", DISCARD, "up")
        if verdict.violation is not None:
            detail = {
                va.WRONG_POSITION: f"packet {event.packet} of {len(cards)} card(s); the deal needs "
                + (f"packet {expected_index} of {group[1]} to {group[0].to}" if group else "no packet"),
                va.BURN_MISSING: f"a burn was due ({verdict.where}); packet {event.packet} of {len(cards)} card(s) came instead",
                va.TOO_MANY_CARDS: f"packet {event.packet} of {len(cards)} card(s) that the round does not need",
                va.WRONG_STATE: f"packet {event.packet} delivered while the table is {self.state.replace('_', ' ')}",
            }[verdict.violation]
            self._violation(verdict.violation, detail, device=device, event_no=event.event_no, packet=event.packet, where=verdict.where)
        if not advance:
            self._after_cursor()

    def _on_discarded(self, device: str, event: ev.CardsDiscarded) -> None:
        self._write("discarded", {
            "shoe": self.shoe, "round": self.round_no if self.in_round else None, "count": event.count, "to": DISCARD,
            "face": "down", "device": device, "event_no": event.event_no,
        })
        self.exhausted = True
        cursor = self.cursor
        if self.in_round and cursor is not None:
            if cursor.discard:
                expected = self.size - self.comp.drawn - self.unread
                if event.count != expected:
                    self._violation(
                        va.DECK_CHECK, f"{event.count} card(s) discarded; {expected} should have been left",
                        device=device, event_no=event.event_no,
                    )
                cursor.discarded(event.count)
                self._after_cursor()
            else:
                self._violation(
                    va.TOO_FEW_CARDS, "the rest of the deck was discarded before the round's cards were all dealt",
                    device=device, event_no=event.event_no,
                )
        elif self.state == lc.READY:
            self.fire("exhausted")

    # --- shoes and shuffles --------------------------------------------------------------------

    def new_shoe(self, shoe_id: int) -> None:
        """Shoe ``shoe_id`` is in play from now: the last one's end is logged and its counts reset."""
        if self.shoe is not None:
            self.log.end_shoe(self.shoe)
        self.shoe = shoe_id
        self.comp.reset()
        self.unread = 0
        self.written_off.clear()
        self.exhausted = False
        self.capped_out = False
        self.last_round_announced = False
        self.this_round_last = False
        self.packet_no = 0
        self.marks = 0
        self.burns_due = [BURN_SHUFFLE] * self.game.shuffle_burns(self.rules)

    def _between_rounds(self) -> bool:
        return self.state in (lc.IDLE, lc.READY, lc.RESHUFFLE_DUE, lc.SHUFFLING)

    def _on_shoe_loaded(self, device: str, event: ev.ShoeLoaded) -> None:
        ok = event.decks == self.config.decks and event.cards == event.decks * DECK_SIZE
        self._write("shoe_loaded", {
            "shoe": event.shoe_id, "decks": event.decks, "cards": event.cards, "deck_ok": ok, "device": device,
            "event_no": event.event_no,
        })
        if not self._between_rounds():
            self._violation(va.WRONG_STATE, f"a shoe was loaded while the table is {self.state.replace('_', ' ')}", device=device, event_no=event.event_no)
            return
        self.new_shoe(event.shoe_id)
        self.deck_good = ok
        self.fire("shoe_loaded")
        if not ok:
            self._violation(
                va.DECK_CHECK, f"shoe of {event.cards} card(s) in {event.decks} deck(s); the table deals {self.config.decks} full deck(s)",
                device=device, event_no=event.event_no,
            )

    def _on_shuffle_started(self, device: str, event: ev.ShuffleStarted) -> None:
        self._write("shuffle_started", {"shoe": event.shoe_id, "device": device, "event_no": event.event_no})
        if not self._between_rounds():
            self._violation(va.WRONG_STATE, f"a shuffle started while the table is {self.state.replace('_', ' ')}", device=device, event_no=event.event_no)
            return
        self.fire("shuffle_started")

    def _on_shuffle_done(self, device: str, event: ev.ShuffleDone) -> None:
        ok = event.deck_ok and event.decks == self.config.decks
        self._write("shuffle_done", {
            "shoe": event.shoe_id, "decks": event.decks, "cards": event.cards, "deck_ok": ok,
            "missing": {text(c): n for c, n in sorted(event.missing.items())},
            "extra": {text(c): n for c, n in sorted(event.extra.items())}, "foreign": event.foreign, "device": device,
            "event_no": event.event_no,
        })
        if not self._between_rounds():
            self._violation(va.WRONG_STATE, f"a shuffle finished while the table is {self.state.replace('_', ' ')}", device=device, event_no=event.event_no)
            return
        self.new_shoe(event.shoe_id)
        self.deck_good = ok
        self.fire("shuffle_done")
        if not ok:
            parts = []
            if event.missing:
                parts.append("missing " + " ".join(f"{text(c)}x{n}" for c, n in sorted(event.missing.items())))
            if event.extra:
                parts.append("extra " + " ".join(f"{text(c)}x{n}" for c, n in sorted(event.extra.items())))
            if event.foreign:
                parts.append(f"{event.foreign} foreign")
            if event.decks != self.config.decks:
                parts.append(f"{event.decks} deck(s), the table deals {self.config.decks}")
            self._violation(va.DECK_CHECK, "deck check failed: " + "; ".join(parts), device=device, event_no=event.event_no)

    def _on_cut_card(self, device: str, event: ev.CutCardReached) -> None:
        self._write("cut_card", {
            "shoe": self.shoe, "penetration": self.penetration, "device": device, "event_no": event.event_no,
        })

    def _on_shoe_empty(self, device: str, event: ev.ShoeEmpty) -> None:
        self._write("shoe_empty", {"shoe": self.shoe, "device": device, "event_no": event.event_no})
        self.exhausted = True
        if self.state == lc.READY:
            self.fire("exhausted")

    def _on_button(self, device: str, event: ev.ButtonPressed) -> None:
        burn = device == self.source and not self.packets
        self._write("button", {"button": event.button, "burn_mark": burn, "device": device, "event_no": event.event_no})
        if burn:
            self.marks += 1

    def _on_fault(self, device: str, event: ev.Fault) -> None:
        kind = event.kind
        self._write("fault", {
            "fault": kind.name.lower(), "cleared": event.cleared, "detail": event.detail, "device": device,
            "event_no": event.event_no,
        })
        if kind in HOST_FAULT_VIOLATIONS:
            self._violation(HOST_FAULT_VIOLATIONS[kind], f"{device}: {event.detail}", device=device)
            return
        if kind not in STOPPING_FAULTS:
            return  # a power-up or misread notice: logged only
        key = (device, int(kind))
        if event.cleared:
            if self.alarms.faults.pop(key, None) is not None and not self.alarms.faults and self.state == lc.DEVICE_FAULT:
                self.fire("fault_cleared")
                if self.state == lc.IN_ROUND:
                    self._after_cursor()
        else:
            self.alarms.faults[key] = event.detail or kind.name.lower()
            if self.state in lc.BASE_STATES or self.state == lc.HELD:
                self.fire("fault")

    # ============================================================== dealer inputs

    def handle_input(self, inp: Any) -> None:
        """One dealer input; raises ``InputRejected`` when the table cannot take it now (logged
        as ``input_rejected`` with why; a taken input is logged by what it does)."""
        name = INPUT_NAMES[type(inp)]
        handler = self._inputs[type(inp)]
        try:
            handler(inp)
        except InputRejected as e:
            self._write("input_rejected", {
                "input": name, **_input_fields(inp), "reason": str(e), "round": self.round_no or None,
            })
            raise

    def _require(self, *states: str) -> None:
        if self.state not in states:
            raise InputRejected(f"not now: the table is {self.state.replace('_', ' ')}")

    def _start_round(self, inp: StartRound) -> None:
        self._require(lc.READY, lc.RESHUFFLE_DUE)
        game, cfg = self.game, self.config
        seats = tuple(sorted(inp.seats))
        if self.people.dealer is None:
            raise InputRejected("no dealer signed in: d, then the dealer's id")
        if not seats:
            raise InputRejected("no seat in play")
        if len(set(seats)) != len(seats):
            raise InputRejected(f"a seat is named twice: {list(inp.seats)}")
        bad = [s for s in seats if not 1 <= s <= cfg.seats]
        if bad:
            raise InputRejected(f"seat {bad[0]} does not exist (seats 1-{cfg.seats})")
        banker, banked = None, 0
        if game.banker:
            banker, banked = self.people.for_round()
            if banker is None:
                raise InputRejected("no seat wants the bank: offer it first")
            if banker in seats:
                raise InputRejected(f"seat {banker} banks this round and cannot play a hand")
        wagers = None
        if inp.wagers is not None:
            if set(inp.wagers) != set(seats):
                raise InputRejected("wagers must name exactly the seats in play")
            wagers = {s: dict(inp.wagers[s]) for s in seats}
            for seat in seats:
                problem = self._check_wagers(wagers[seat])
                if problem:
                    raise InputRejected(f"seat {seat}: {problem}")
        stake = inp.banker_stake
        if stake is not None:
            if isinstance(stake, bool) or not isinstance(stake, int) or stake < 0:
                raise InputRejected("the banker's stake must be whole cents")
            problem = self.stake_limit.problem(stake) if stake else None
            if problem:
                raise InputRejected(f"the bank's stake: {problem}")
        if self.kind == "csm" and self.comp.drawn > sum(self.written_off.values()):
            out = Counter({c: self.comp.seen(c) for c in range(DECK_SIZE) if self.comp.seen(c)}) - self.written_off
            if out and out != self.return_asked:  # a slip, not yet a floor call: say what to do
                self.return_asked = out
                n = sum(out.values())
                raise InputRejected(
                    f"return the cards to the shuffler first: {n} card{'s' if n != 1 else ''} of round {self.round_no} "
                    "not back (start again with a card missing: the table is held for a supervisor)"
                )
            if out:
                cards = sorted(out.elements())
                self._violation(
                    va.CARD_NOT_RETURNED,
                    f"{len(cards)} card(s) of round {self.round_no} never came back to the shuffler: "
                    + " ".join(text(c) for c in cards),
                    cards=[text(c) for c in cards],
                )
                raise InputRejected("held: cards of the last round are not back in the shuffler")
        self.has_cards_left = not self.exhausted and not self.capped_out and self.comp.drawn + self.unread < self.cap_cards
        if self.state == lc.RESHUFFLE_DUE and not self.has_cards_left:
            raise InputRejected("reshuffle due: no cards left under the cap")
        past_last = self.state == lc.RESHUFFLE_DUE
        round_no = self.round_no + 1
        cursor = RoundCursor(game.script, RoundContext(seats, wagers, banker, self.packets, self.rules))
        could_pay = self._bank_could_pay(cursor.context, stake)
        previous = self.people.banker
        if banker is not None and banker != previous:
            self._write("bank", {"seat": banker, "previous": previous, "round": round_no})
        # a banking game's rotation, for a restarted controller to carry on (tablectl.table.restart.resume)
        rotation = {"banker_hands": banked, "bank_wanted": sorted(self.people.wanting)} if game.banker else {}
        self._write("round_started", {
            "round": round_no, "seats": list(seats),
            "wagers": {str(s): w for s, w in wagers.items()} if wagers is not None else None,
            "banker": banker, "banker_stake": stake, "shoe": self.shoe, "dealer": self.people.dealer,
            "last_round": self.last_round_announced, **rotation,
            **({"bank_could_pay": could_pay} if could_pay is not None else {}),
            # the players the pit entered, seat -> id (every seat's: a restarted controller carries on with them)
            **({"players": {str(s): p for s, p in sorted(self.people.players.items())}} if self.people.players else {}),
        })
        # the round is taken once its line is written: a line the log refuses leaves the table as it was
        self.people.take_round(banker, banked)
        self.round_no = round_no
        self.voided = None
        self.return_asked = None
        self.open_round(cursor, stake, self.last_round_announced)
        if past_last:
            self._write("alarm", {
                "kind": PAST_LAST_ROUND, "round": self.round_no,
                "penetration": self.penetration if self.capped else None,
            })
        self.fire("start_round")
        self._after_cursor()

    def open_round(self, cursor: RoundCursor, banker_stake: int | None, last: bool) -> None:
        """Round ``round_no`` is in play, on ``cursor``'s seats and wagers: nothing dealt yet."""
        ctx = cursor.context
        self.in_round = True
        self.round_seats = ctx.seats
        self.round_wagers = ctx.wagers
        self.banker_stake = banker_stake
        self.bank_could_pay = self._bank_could_pay(ctx, banker_stake)
        self.layout = {}
        self.decisions = {s: [] for s in ctx.seats}
        self.settlement = []
        self.this_round_last = last
        self.cursor = cursor

    def _bank_could_pay(self, ctx: RoundContext, banker_stake: int | None) -> int | None:
        """The most the bank could pay on the round's wagers, when its stake is below it (else None)."""
        return bank_short(self.game.id, ctx.wagers, banker_stake, self.settlement_rules) if ctx.banker is not None else None

    def _decision(self, inp: Decision) -> None:
        self._require(lc.IN_ROUND)
        assert self.cursor is not None
        try:
            asked = self.cursor.decide(inp.seat, inp.decision)
        except CursorError as e:
            raise InputRejected(str(e)) from None
        self._write("decision", {
            "round": self.round_no, "seat": inp.seat, "decision": inp.decision, "banker": asked.banker,
        })
        if not asked.banker:
            self.decisions.setdefault(inp.seat, []).append(inp.decision)
        self._after_cursor()

    def _burn_next(self, inp: BurnNext) -> None:
        self._require(lc.READY, lc.RESHUFFLE_DUE, lc.IN_ROUND)
        if self.packets:
            raise InputRejected("a hand-forming shuffler delivers burns as packets")
        self.marks += 1
        self._write("burn_next", {"round": self.round_no if self.in_round else None, "marks": self.marks})

    def _exposed_card(self, inp: ExposedCard) -> None:
        self._require(lc.IN_ROUND)
        assert self.cursor is not None
        try:
            step, card = self.cursor.retract()
        except CursorError as e:
            raise InputRejected(str(e)) from None
        if card is None:
            raise InputRejected("identify the misread card first")
        take_back(self.layout, step.to, card)
        self._write("corrected", {
            "round": self.round_no, "card": text(card), "from": step.to, "to": BURN, "face": "up", "reason": "exposed",
        })

    def _identify_card(self, inp: IdentifyCard) -> None:
        if not self.alarms.misreads:
            raise InputRejected("no misread card waits to be identified")
        card = inp.card
        if not isinstance(card, int) or not 0 <= card < DECK_SIZE:
            raise InputRejected(f"not a card: {card!r}")
        pending = self.alarms.misreads.pop(0)
        owed = pending.where == "returned" and self._written_off(card)
        self._write("identified", {
            "card": text(card), "to": pending.to, "face": pending.face, "shoe": self.shoe,
            "round": self.round_no if self.in_round else None, "device": pending.device, "event_no": pending.event_no,
            **({"written_off": True} if owed else {}),
        })
        if pending.where == "returned":
            self._take_back(card, pending.device, pending.event_no, owed)
            return
        self.unread -= 1
        if not self.comp.see(card):
            self._violation(va.FOREIGN_CARD, f"{text(card)} (identified) is beyond the composition", card=text(card))
        if pending.where == "cursor" and self.cursor is not None and self.cursor.unidentified:
            step = self.cursor.identify(card)
            for entry in self.layout.get(step.to, []):
                if entry[0] is None:
                    entry[0] = card
                    break
            if self.state == lc.IN_ROUND:
                self._after_cursor()

    def _end_round(self, inp: EndRound) -> None:
        self._require(lc.IN_ROUND, lc.SETTLING)
        self._write("round_ended", {"round": self.round_no, "complete": self.state == lc.SETTLING})
        if self.state == lc.IN_ROUND:
            self._violation(va.TOO_FEW_CARDS, "the round was ended before its procedure was complete")
            return
        self._close_round()

    def _close_round(self) -> None:
        """The dealer collected the round: the bank moves, the penetration outlook is taken."""
        moved = self.people.round_banked()
        if moved is not None:
            self._write("bank", {"seat": moved[0], "previous": moved[1], "round": self.round_no + 1})
        self.in_round = False
        self.cursor = None
        self.layout = {}
        self.marks = 0
        outlook = pen.outlook(self.comp.drawn + self.unread, self.cap_cards, self.budget) if self.capped else pen.OK
        self.needs_reshuffle = self.exhausted or self.capped_out or self.this_round_last or outlook == pen.RESHUFFLE
        if outlook == pen.LAST_ROUND and not self.needs_reshuffle and not self.last_round_announced:
            self.last_round_announced = True
            self._write("last_round", {"round": self.round_no + 1, "shoe": self.shoe, "penetration": self.penetration})
        self.fire("end_round")

    def complete_round(self) -> None:
        """All cards and decisions are in: settle (when the wagers are known) and go to settling."""
        cursor = self.cursor
        assert cursor is not None and cursor.hands is not None
        hands: RoundHands = cursor.hands
        hands.banker_seat = self.people.banker if self.game.banker else None
        hands.banker_stake = self.banker_stake
        if self.round_wagers is not None:
            for seat in hands.seats:
                seat.wagers = dict(self.round_wagers.get(seat.seat, {}))
            try:
                settlement = settle(hands, self.settlement_rules)
            except SettlementError as e:
                self.fire("round_complete")
                self._violation(va.SETTLEMENT_FAILED, str(e))
                return
            write, settled, round_no = self._write, self.settlement.append, self.round_no
            for r in settlement.results:
                line = {"round": round_no, "seat": r.seat, "bet": r.bet, "stake": r.stake, "outcome": r.outcome, "pays": r.pays, "net": r.net}
                write("settled", line)
                settled(line)
        self.fire("round_complete")

    def _dealer_change(self, inp: DealerChange) -> None:
        self._require(lc.IDLE, lc.SHUFFLING, lc.READY, lc.RESHUFFLE_DUE)
        if not inp.dealer:
            raise InputRejected("name the dealer")
        previous = self.people.sign_in(inp.dealer)
        due = 0
        if previous is not None and self.state in (lc.READY, lc.RESHUFFLE_DUE) and not self.burns_due:  # a sign-in is no change
            due = self.game.dealer_change_burns(self.rules)
            self.burns_due += [BURN_DEALER_CHANGE] * due
        self._write("dealer_change", {"dealer": inp.dealer, "previous": previous, "burns_due": due, "shoe": self.shoe})

    def _shoe_change(self, inp: ShoeChange) -> None:
        self._require(lc.IDLE, lc.READY, lc.RESHUFFLE_DUE)
        self._write("shoe_change", {"shoe": self.shoe})
        if self.shoe is not None:
            self.log.end_shoe(self.shoe)
            self.shoe = None
        self.burns_due = []
        self.marks = 0
        self.fire("shoe_removed")

    def _offer_bank(self, inp: OfferBank) -> None:
        if not self.game.banker:
            raise InputRejected(f"{self.game.title} has no banking player")
        if not 1 <= inp.seat <= self.config.seats:
            raise InputRejected(f"seat {inp.seat} does not exist (seats 1-{self.config.seats})")
        moved = self.people.offer(inp.seat, inp.wants, may_take=not self.in_round)
        self._write("offer_bank", {"seat": inp.seat, "wants": inp.wants})
        if moved is not None:
            self._write("bank", {"seat": moved[0], "previous": moved[1], "round": self.round_no + 1})

    def _seat_player(self, inp: SeatPlayer) -> None:
        """A player sits (or leaves): logged at once, counted from the next round to start."""
        if not 1 <= inp.seat <= self.config.seats:
            raise InputRejected(f"seat {inp.seat} does not exist (seats 1-{self.config.seats})")
        if inp.player is None:
            previous = self.people.seat_player(inp.seat, None)
            if previous is None:
                raise InputRejected(f"seat {inp.seat} has no player entered")
            self._write("player_left", {"seat": inp.seat, "player": previous, "round": self.round_no + 1})
            return
        wrong = player_id.problem(inp.player)
        if wrong is not None:
            raise InputRejected(f"seat {inp.seat}: {wrong}")
        previous = self.people.seat_player(inp.seat, inp.player)
        self._write("player_seated", {
            "seat": inp.seat, "player": inp.player, "previous": previous, "round": self.round_no + 1,
        })

    def _resolve(self, inp: Resolve) -> None:
        """A supervisor resolves the hold; with ``void_round``, at any point of a round (held or
        not), resolves any hold and voids the round in one step: its wagers are returned."""
        if inp.void_round and not self.in_round:
            raise InputRejected("no round in play: nothing to void (S resolves a hold)")
        self._require(*((lc.HELD, lc.IN_ROUND, lc.SETTLING) if inp.void_round else (lc.HELD,)))
        if not inp.supervisor:
            raise InputRejected("a supervisor must be named")
        if self.alarms.misreads:
            raise InputRejected("identify the misread card first")
        if self.state != lc.HELD:  # a void with no hold: the round in play goes to be collected
            self.base = self.state
        seqs = [v.seq for v in self.alarms.violations]
        kinds, unlisted = self.alarms.resolved()
        every_kind = set(kinds) | set(unlisted)
        void = (inp.void_round or va.PENETRATION_CAP in every_kind) and self.in_round and self.base in (lc.IN_ROUND, lc.SETTLING)
        self._write("resolved", {
            "supervisor": inp.supervisor, "note": inp.note, "kinds": kinds, "violations": seqs,
            "round": self.round_no or None, "void_round": void, **({"unlisted": unlisted} if unlisted else {}),
        })
        if va.CARD_NOT_RETURNED in every_kind:
            self.written_off = Counter({c: self.comp.seen(c) for c in range(DECK_SIZE) if self.comp.seen(c)})
        if void:
            returned = returned_wagers(self.game.id, self.round_seats, self.round_wagers, self.decisions)
            self._write("round_voided", {
                "round": self.round_no, "reason": ", ".join(kinds + sorted(unlisted)) or "supervisor",
                "returned": returned, **({"banker_stake": self.banker_stake} if self.banker_stake is not None else {}),
            })
            self.voided = self.round_no
            if self.packets:  # the voided round's deck is not dealt on: the next round is shuffled afresh
                self.exhausted = True
            self.cursor = None
            self.settlement = []
            self.base = lc.SETTLING
        if self.capped_out and self.base == lc.READY:
            self.base = lc.RESHUFFLE_DUE
        if self.state == lc.IN_ROUND:  # voided with no hold: nothing more is dealt, the round is collected
            self.fire("round_complete")
            return
        if self.state == lc.SETTLING:
            return
        self.fire("resolve")
        if self.state == lc.IN_ROUND:
            self._after_cursor()

    def _supervisor_denied(self, inp: SupervisorDenied) -> None:
        self._write("supervisor_refused", {
            "supervisor": inp.supervisor, "action": inp.action, "reason": inp.reason, "state": self.state,
            "round": self.round_no or None,
        })

    # ============================================================== the view

    def prompt(self) -> Prompt:
        """What the table waits for next (``tablectl.table.screen``)."""
        return screen.prompt(self)

    def view(self) -> TableView:
        """A snapshot for the display: face-up cards only (``tablectl.table.screen``)."""
        return screen.view(self, self._recent)


def _txt(card: int | None) -> str | None:
    return None if card is None else text(card)


def _loggable(value: Any) -> Any:
    """``value`` as a log line can hold it: an integer beyond 64 bits becomes text (its digits, or
    its size when they are too many to write), in a list or a mapping too (its keys as text)."""
    if isinstance(value, int) and not -LOG_INT_MAX - 1 <= value <= LOG_INT_MAX:
        bits = value.bit_length()
        return str(value) if bits <= 1024 else f"an integer of {bits} bits"
    if isinstance(value, Mapping):
        return {str(_loggable(k)): _loggable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_loggable(v) for v in value]
    return value


def _input_fields(inp: Any) -> dict[str, Any]:
    """An input's fields as JSON values (cards as text, wagers keyed by seat text; a number the log
    cannot hold as text)."""
    fields: dict[str, Any] = {}
    for name in inp.__dataclass_fields__:
        value = getattr(inp, name)
        if name == "wagers" and value is not None:
            value = {s: dict(w) for s, w in value.items()}
        elif name == "seats":
            value = list(value)
        elif name == "card" and isinstance(value, int) and 0 <= value < DECK_SIZE:
            value = text(value)
        fields[name] = _loggable(value)
    return fields


__all__ = ["EVENTS_LOST", "PAST_LAST_ROUND", "STOPPING_FAULTS", "EventLogLike", "TableCore"]
