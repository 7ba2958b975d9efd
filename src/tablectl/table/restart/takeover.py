"""Taking over after a restart: a new ``TableCore`` goes on from what its log says was in play
(``tablectl.table.restart.resume.fold``) — the dealer on duty and the bank's rotation, the shoe (or
continuous shuffler) with every card drawn from it, and the round being dealt, so the next card
goes where it would have gone. Each thing taken over is logged (``duty_resumed``,
``shoe_resumed``, ``round_resumed``) or why not (``shoe_not_resumed``); a bank that the log left
due to move on (its banker's hands done: a voided hand the dealer had not collected counts as
collected) moves on as the round's collection would have moved it (``bank``)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from tablectl.cards import text
from tablectl.games.procedure import BURN_DEALER_CHANGE, RoundContext
from tablectl.table import lifecycle as lc
from tablectl.table.procedure.voiding import returned_wagers
from tablectl.table.restart.resume import LogState, RoundRebuilt, ShoeInPlay, rebuild_round

if TYPE_CHECKING:
    from tablectl.table.core import TableCore


def take_over(core: TableCore, resumed: LogState) -> None:
    """Go on from ``resumed``: duty and a void still shown, then the shoe and the round in play
    (a hand-forming shuffler shuffles for every round: there is no shoe to go on with, so its
    round in play is voided, and the round after a void comes from a fresh shuffle); between
    rounds, the bank then moves on if it is due to."""
    if core.packets:
        resumed = _void_shuffled_round(core, resumed)
    _resume_duty(core, resumed)
    core.voided = resumed.voided  # shown until the next round starts
    _resume_play(core, resumed)
    if not core.in_round:
        moved = core.people.move_on()
        if moved is not None:
            core.log.append("bank", seat=moved[0], previous=moved[1], round=core.round_no + 1)


def _resume_play(core: TableCore, resumed: LogState) -> None:
    """The shoe (or continuous shuffler) in play and its round, when they can be taken over."""
    if core.packets:
        return
    shoe = resumed.shoe
    if shoe is None or shoe.device != core.source:
        if resumed.not_resumed:
            core.log.append("shoe_not_resumed", reason=resumed.not_resumed)
        return
    rebuilt = None
    if shoe.round:
        try:
            rebuilt = _rebuild_round(core, shoe.round)
        except (KeyError, TypeError, ValueError) as e:  # CursorError and CardError are ValueErrors
            why = f"shoe {shoe.shoe}: round {shoe.round[0].get('round')} in play does not fit its procedure: {e}"
            core.log.append("shoe_not_resumed", reason=why)
            return
    _resume_shoe(core, shoe)
    if rebuilt is not None:
        _resume_round(core, shoe.round[0], rebuilt)


def _void_shuffled_round(core: TableCore, resumed: LogState) -> LogState:
    """A hand-forming shuffler shuffles for every round, so its round in play at the stop cannot be
    dealt on: ``shoe_not_resumed`` says so, and the round is voided as a supervisor's void would void
    it (``round_voided``, reason ``not_resumed``: every wager returned, the bets its decisions made
    included, and the bank's stake). Returns ``resumed`` as after a void the dealer had not collected:
    ``VOID N`` shown until the next round, the hand banked. A round whose settlement was logged
    stands: the dealer pays and collects it."""
    records = resumed.round_in_play
    if not records:
        return resumed
    start = records[0]
    number = start.get("round")
    why = resumed.not_resumed or f"shuffle {start.get('shoe')}: a hand-forming shuffler shuffles for every round"
    if any(r["event"] == "settled" for r in records):
        core.log.append("shoe_not_resumed", reason=f"{why}; round {number} was settled before the stop: the dealer pays and collects it")
        return resumed
    core.log.append("shoe_not_resumed", reason=f"{why}; round {number} in play is void, every wager returned")
    decisions: dict[int, list[str]] = {}
    for r in records[1:]:
        if r["event"] == "decision" and not r.get("banker"):
            decisions.setdefault(r["seat"], []).append(r["decision"])
    stake = start.get("banker_stake")
    core.log.append(
        "round_voided", round=number, reason="not_resumed",
        returned=returned_wagers(core.game.id, start["seats"], _wagers(start), decisions),
        **({"banker_stake": stake} if stake is not None else {}),
    )
    bank = resumed.bank
    if bank is not None and bank.banker is not None:  # a voided hand counts as banked, as if collected
        bank = replace(bank, hands=bank.hands + 1)
    return replace(resumed, voided=number, bank=bank, round_in_play=())


def _wagers(start: dict[str, Any]) -> dict[int, dict[str, int]] | None:
    """The wagers of a ``round_started`` line, by seat number."""
    wagers = start.get("wagers")
    return {int(s): dict(w) for s, w in wagers.items()} if wagers is not None else None


def _resume_duty(core: TableCore, resumed: LogState) -> None:
    """Carry on with the dealer on duty and the bank's rotation as the log left them."""
    bank = resumed.bank if core.game.banker else None
    core.people.players = dict(resumed.players)  # the log has them: nothing to log again
    if resumed.dealer is None and bank is None:
        return
    people = core.people
    people.dealer = resumed.dealer
    rotation: dict[str, Any] = {}
    if bank is not None:
        people.banker, people.hands, people.wanting = bank.banker, bank.hands, set(bank.wanting)
        rotation = {"banker": bank.banker, "banker_hands": bank.hands, "bank_wanted": sorted(bank.wanting)}
    core.log.append("duty_resumed", dealer=people.dealer, **rotation)


def _resume_shoe(core: TableCore, shoe: ShoeInPlay) -> None:
    """Go on dealing from the shoe (or continuous shuffler) in play: every card drawn from it and
    not returned counts again (composition, penetration, the cap, the cards a continuous shuffler
    must get back), as do the last-round announcement, the end of the shoe, the dealer-change
    burns not dealt yet, the dealer's burn marks not used yet and the cards a supervisor wrote
    off; the burns after its shuffle were due only before its first card."""
    core.new_shoe(shoe.shoe)
    for c in shoe.cards:
        if c is None:
            core.unread += 1
        else:
            core.comp.see(c)  # a foreign card fails here as it did when drawn: not counted
    if shoe.drawn:
        core.burns_due = []
    core.burns_due += [BURN_DEALER_CHANGE] * shoe.dealer_change_burns
    core.marks = shoe.burn_marks
    core.written_off = Counter(shoe.written_off)
    core.last_round_announced = shoe.last_round_announced
    core.exhausted = shoe.exhausted
    core.capped_out = core.capped and core.comp.drawn + core.unread > core.cap_cards
    core.needs_reshuffle = shoe.state == lc.RESHUFFLE_DUE or core.capped_out
    core.log.append(
        "shoe_resumed", shoe=shoe.shoe, cards=[None if c is None else text(c) for c in shoe.cards],
        last_round_announced=shoe.last_round_announced, exhausted=shoe.exhausted,
        penetration=core.penetration, burns_due=list(core.burns_due), burn_marks=core.marks,
        written_off=[text(c) for c in shoe.written_off], drawn=shoe.drawn, device=shoe.device,
    )
    core.fire("shoe_resumed")


def _rebuild_round(core: TableCore, records: tuple[dict[str, Any], ...]) -> RoundRebuilt:
    start = records[0]
    seats = tuple(start["seats"])
    ctx = RoundContext(seats, _wagers(start), start.get("banker"), core.packets, core.rules)
    return rebuild_round(records, core.game.script, ctx)


def _resume_round(core: TableCore, start: dict[str, Any], rebuilt: RoundRebuilt) -> None:
    """Go on with the round that was in play: its procedure stands where its logged lines left
    it, so the next card goes where it would have gone; a round whose cards and decisions were
    all in is settled (once: what was logged stands) and waits for the dealer to collect."""
    core.round_no = start["round"]
    core.open_round(rebuilt.cursor, start.get("banker_stake"), bool(start.get("last_round")))
    core.layout, core.decisions, core.settlement = rebuilt.layout, rebuilt.decisions, rebuilt.settlement
    assert core.cursor is not None
    cards = sum(len(held) for held in core.layout.values())
    core.log.append("round_resumed", round=core.round_no, cards=cards, settled=bool(core.settlement), complete=core.cursor.done)
    core.fire("round_resumed")
    if core.cursor.done:
        if core.settlement:
            core.fire("round_complete")
        else:
            core.complete_round()


__all__ = ["take_over"]
