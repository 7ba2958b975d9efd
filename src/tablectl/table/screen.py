"""What the table shows (reads the core, changes nothing): the prompt — what the table waits for
next — and the ``TableView`` snapshot the display and the virtual dealer look at, with face-up
cards only and the recent log lines redacted."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tablectl.cards import text
from tablectl.games.procedure import BURN, seat_to
from tablectl.rules.bets import round_wagers
from tablectl.table import lifecycle as lc
from tablectl.table.view import Prompt, SeatView, TableView, redact

if TYPE_CHECKING:
    from tablectl.table.core import TableCore


def prompt(core: TableCore) -> Prompt:
    """What the table waits for next."""
    state = core.state
    if state == lc.HELD:
        return Prompt("identify" if core.alarms.misreads else "resolve")
    if state == lc.DEVICE_FAULT:
        return Prompt("clear_fault")
    if state == lc.OFFLINE:
        return Prompt("none")
    if state == lc.SHUFFLING:
        return Prompt("wait")
    if state == lc.IDLE:
        return Prompt("load_shoe" if core.kind == "shoe" else "shuffle")
    if state == lc.SETTLING:
        return Prompt("return_wagers" if core.voided is not None and core.voided == core.round_no else "end_round")
    out = core.comp.drawn - sum(core.written_off.values()) if core.kind == "csm" else 0
    burns = (BURN,) * len(core.burns_due)
    if state in (lc.READY, lc.RESHUFFLE_DUE):
        if out > 0:
            return Prompt("return_cards", count=out)
        if burns:
            return Prompt("deal", to=burns)
        if state == lc.RESHUFFLE_DUE:
            return Prompt("change_shoe" if core.kind == "shoe" else "shuffle")
        if core.people.dealer is None:
            return Prompt("sign_in")
        if core.people.banked and next_banker(core) is None:
            return Prompt("offer_bank")
        return Prompt("start_round")
    cursor = core.cursor
    assert cursor is not None
    if cursor.unidentified and cursor.expected() is None:
        return Prompt("identify")
    if core.packets and cursor.expected() is not None:
        group = cursor.packet()
        assert group is not None
        return Prompt("packet", to=(group[0].to,), count=group[1])
    rest = cursor.remaining()
    if rest or burns:
        return Prompt("deal", to=burns + tuple(s.to for s in rest))
    if cursor.decision is not None:
        d = cursor.decision
        return Prompt("decide", seat=d.seat, options=d.options, banker=d.banker)
    if cursor.discard:
        return Prompt("discard")
    return Prompt("none")


def next_banker(core: TableCore) -> int | None:
    """Who banks the next round (the round in play: who banks it), by the rotation."""
    if not core.people.banked or core.in_round:
        return core.people.banker
    return core.people.for_round()[0]


class RecentShown:
    """The recent log lines as the display shows them (``redact``): each line is redacted once,
    not again in every view (a view is built after every batch while a display listens)."""

    def __init__(self) -> None:
        self._cache: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}  # id -> (record, shown)

    def __call__(self, recent: Any) -> tuple[dict[str, Any], ...]:
        cache = self._cache
        kept: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}
        shown = []
        for record in recent:
            entry = cache.get(id(record))
            if entry is None or entry[0] is not record:
                entry = (record, redact(record))
            kept[id(record)] = entry
            shown.append(entry[1])
        self._cache = kept
        return tuple(shown)


def view(core: TableCore, recent: RecentShown) -> TableView:
    """A snapshot for the display: face-up cards only."""
    people = core.people
    seats = []
    for seat in range(1, core.config.seats + 1):
        in_play = core.in_round and seat in core.round_seats
        seats.append(
            SeatView(
                seat=seat,
                in_play=in_play,
                banker=seat == people.banker,
                wants_bank=seat in people.wanting,
                wagers=_named(round_wagers(core.game.id, core.round_wagers.get(seat, {}), core.decisions.get(seat, ())), core.bet_names)
                if in_play and core.round_wagers else {},
                cards=_shown(core.layout.get(seat_to(seat), ())) if in_play else (),
                decisions=tuple(core.decisions.get(seat, ())) if in_play else (),
                player=people.players.get(seat),
            )
        )
    dealer = core.layout.get("dealer") or core.layout.get("dp") or []
    return TableView(
        table=core.config.table,
        game=core.game.id,
        state=core.state,
        round=core.round_no or None,
        shoe=core.shoe,
        dealer_id=people.dealer,
        seats=tuple(seats),
        banker_seat=people.banker,
        dealer=_shown(dealer),
        board=tuple(t for t in _shown(core.layout.get("board", ())) if t is not None),
        penetration=core.penetration if core.capped else None,
        cap=core.config.penetration_cap if core.capped else None,
        cards_drawn=core.comp.drawn + core.unread,
        cap_cards=core.cap_cards if core.capped else None,
        last_round=core.last_round_announced or (core.in_round and core.this_round_last),
        cards_out=core.comp.drawn - sum(core.written_off.values()) if core.kind == "csm" else 0,
        prompt=prompt(core),
        alarms=core.alarms.views(),
        settlement=tuple({**line, "bet": core.bet_names.get(line["bet"], line["bet"])} for line in core.settlement)
        if core.bet_names else tuple(core.settlement),
        recent=recent(core.recent),
        processed=dict(core.highest),
        next_banker=next_banker(core),
        shoe_cards=core.size if core.capped else None,
        voided=core.voided,
        banker_stake=core.banker_stake if core.in_round else None,
        bank_could_pay=core.bank_could_pay if core.in_round else None,
        banker_limited=bool(core.game.banker) and bool(getattr(core.settlement_rules, "limit_to_banker_stake", False)),
    )


def _named(wagers: dict[str, int], names: Mapping[str, str]) -> dict[str, int]:
    """``wagers`` keyed by the name the table gives each bet."""
    return {names.get(b, b): v for b, v in wagers.items()} if names else wagers


def _shown(cards: Any) -> tuple[str | None, ...]:
    return tuple(text(c) if up and c is not None else None for c, up in cards)


__all__ = ["RecentShown", "next_banker", "prompt", "view"]
