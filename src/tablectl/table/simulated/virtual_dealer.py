"""The virtual dealer: plays rounds at a table as a dealer would, through the same two doors a
human uses — the dealer-input API (``TableController``) and the devices themselves (the
simulators' control API: pulling a card from the shoe, pressing its burn button, returning
cards to a continuous shuffler, asking the shuffler for a packet).

It follows the table's prompt (what the procedure waits for); its players decide by the game
math's optimal strategy, wrong at the ``player_errors`` rate, and seats given a profile play it
(``tablectl.table.simulated.players``, ``tablectl.table.simulated.profiles``).
With a mistake rate it commits procedure errors on purpose and writes each one it committed as a
JSON line ``{"round": R, "kind": K}``; each kind is one the controller must flag in that round
(``EXPECTED_VIOLATION``). When the table is held, it resolves as the supervisor.

Device faults (the simulators' ``--fault``) are met as a dealer meets them: a jam or an open door
stops the device (and the table): the attendant clears it and the dealer carries on where the
device stopped (the card is drawn again, the rest of the cards returned); a link that is down is
waited for. A misread card is turned over and named (``identify_card``) before the supervisor
resolves the hold; a hold the device's faults explain (a packet cut short by a jam, a foreign or
missing card, a failed deck check) is resolved by the supervisor too, and a batch shuffler's deck
that failed its check is replaced. A hold that neither a mistake nor a fault explains stops the
dealer (``DealerError``).

Where a player banks, the banking player's stake covers the most the bank could pay on the
round's wagers (``tablectl.rules.settle.max_bank_pay``, rounded up to $100) in
:data:`COVERS_TABLE` of the rounds, else it is $100 to $5,000 (a limit to it may then bind).
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import IO, Any

from tablectl.drivers.events import CardDrawn, CardReturned, DeviceEvent, PacketDelivered
from tablectl.rules.settle import max_bank_pay
from tablectl.simulators.device import SimDevice
from tablectl.simulators.model import DeviceRefused
from tablectl.table import lifecycle as lc
from tablectl.table.controller import TableController
from tablectl.table.inputs import InputRejected
from tablectl.table.procedure import validation as va
from tablectl.table.simulated.players import Players
from tablectl.table.simulated.profiles import Profile
from tablectl.table.view import Prompt, TableView

SKIP_BURN = "skip_burn"
EXTRA_CARD = "extra_card"
NO_BURN_AT_DEALER_CHANGE = "no_burn_at_dealer_change"
CARD_PAST_CAP = "card_past_cap"
CARD_NOT_RETURNED = "card_not_returned"
MISTAKES = (SKIP_BURN, EXTRA_CARD, NO_BURN_AT_DEALER_CHANGE, CARD_PAST_CAP, CARD_NOT_RETURNED)

EXPECTED_VIOLATION: dict[str, str] = {
    SKIP_BURN: va.BURN_MISSING,
    EXTRA_CARD: va.TOO_MANY_CARDS,
    NO_BURN_AT_DEALER_CHANGE: va.BURN_MISSING,
    CARD_PAST_CAP: va.PENETRATION_CAP,
    CARD_NOT_RETURNED: va.CARD_NOT_RETURNED,
}
"""The violation kind the controller must raise, in the same round, for each mistake."""

SUPERVISOR = "virtual-supervisor"
COVERS_TABLE = 0.9
"""The share of rounds whose banking player (DP or player-dealer) stakes enough to cover every
wager on the table at its top payouts, as a player-dealer typically does."""
_RETRIES = 20  # tries at one action or input through device faults before giving up
CONTENT_FAULTS = ("foreign", "extra", "missing")
"""Faults that change what the device holds: their cards stay in it (until a load), and holds
of the kinds in ``CONTENT_HOLDS`` may follow long after."""
CONTENT_HOLDS = frozenset({va.FOREIGN_CARD, va.DECK_CHECK, va.WRONG_STATE})


class DealerError(RuntimeError):
    """The virtual dealer could not go on (the table did not answer, or answered unexpectedly)."""


@dataclass
class DealerReport:
    """What a virtual dealer did."""

    rounds: int = 0
    cards: int = 0
    decisions: int = 0
    shoes: int = 0
    dealer_changes: int = 0
    resolutions: int = 0
    mistakes: list[dict[str, Any]] = field(default_factory=list)
    faults_cleared: int = 0  # jams and open doors the attendant cleared
    misreads_named: int = 0  # misread cards turned over and identified
    fault_resolutions: int = 0  # holds the device's faults explained, resolved by the supervisor
    link_waits: int = 0  # times the dealer waited for a device's link to come back
    decks_replaced: int = 0  # a batch shuffler's deck that failed its check, replaced by a fresh one


def default_dealers(table: str, count: int = 3) -> tuple[str, ...]:
    """The dealers of a simulated table when none are named: ids of this table's own
    (``ocp-1/D1`` ...), so a floor of simulated tables never mixes two tables' dealers in one row."""
    return tuple(f"{table}/D{n}" for n in range(1, count + 1))


class VirtualDealer:
    """A dealer at ``controller``'s table working the simulated card device ``sim``: ``play(rounds)``."""

    def __init__(
        self,
        controller: TableController,
        sim: SimDevice,
        *,
        seed: int | None = None,
        mistakes: float = 0.0,
        mistakes_log: IO[str] | None = None,
        dealer_change_rate: float = 0.02,
        timeout: float = 10.0,
        player_errors: float = 0.0,
        profiles: Mapping[int, Profile] | None = None,
        on_decision: Callable[[dict[str, Any]], None] | None = None,
        dealers: Sequence[str] = (),
    ) -> None:
        self.controller = controller
        self.config = controller.config
        #: who deals, in turn: the first on duty, then each relief in order (one name: no change)
        self.dealers = tuple(dealers) or default_dealers(self.config.table)
        self._limits = self.config.bet_limits
        self.game = self.config.game_def
        self.device = self.config.card_device
        self.kind = self.config.card_driver
        self.sim = sim
        self.rng = random.Random(seed)
        self.profiles = dict(profiles or {})
        self.players = Players(self.game.id, self.config.decks, self.rng, errors=player_errors, profiles=profiles,
                               rules=self.config.settlement_rules if profiles else None,
                               profile_seed=None if seed is None else seed + 1, on_decision=on_decision)
        self._dealt: dict[str, list[int | None]] = {}  # this round's cards by position, in order
        self.mistake_rate = mistakes
        self.mistakes_log = mistakes_log
        self.dealer_change_rate = dealer_change_rate
        self.timeout = timeout
        self.report = DealerReport()
        self._dealer_no = 0
        self._armed: str | None = None  # the mistake to commit in this round
        self._ignore_cap = False  # card past the cap: deal on past the last round
        self._held_back: list[int] = []  # cards kept from the shuffler (card not returned)
        self._out: list[int] = []  # cards out of the continuous shuffler, to return
        self._last_event = 0
        self._unread: list[int] = []  # faces of misread cards not yet named to the table, in order
        self._faults_met = 0  # the device's faults fired as of the last resolution

    # --- the game ---------------------------------------------------------------------------

    def play(self, rounds: int) -> DealerReport:
        """Play ``rounds`` complete rounds (a round the table is in the middle of first: a
        restarted controller goes on with it)."""
        view = self._snapshot()
        if view.dealer_id is None:  # no round starts without a dealer on duty
            self._do(lambda: self.controller.dealer_change(self._next_dealer()))
        for seat, profile in sorted(self.profiles.items()):  # the pit enters who sits where
            if profile.player is not None and next((s.player for s in view.seats if s.seat == seat), None) != profile.player:
                self._do(lambda seat=seat, player=profile.player: self.controller.seat_player(seat, player))  # type: ignore[misc]
        if self.kind == "csm":
            self._pick_up()
        if view.state in (lc.IN_ROUND, lc.SETTLING) and view.round is not None:
            self.players.new_round(view.round)
            self._finish_round(view, view.round)
        if self.game.banker:
            for seat in range(1, self.config.seats + 1):
                self._do(lambda seat=seat: self.controller.offer_bank(seat, True))  # type: ignore[misc]
        for i in range(rounds):
            self._play_round(last=i == rounds - 1)
            self.report.rounds += 1
        self._return_cards(final=True)
        return self.report

    def _play_round(self, *, last: bool = False) -> None:
        self._dealt = {}
        self._arm(last=last)
        view = self._ready()
        seats, wagers, stake = self._bets(view)
        while True:
            try:
                self._input(self.controller.start_round(seats, wagers, banker_stake=stake))
                break
            except InputRejected:
                view = self._snapshot()
                if view.prompt.action == "return_cards" and view.state not in (lc.HELD, lc.DEVICE_FAULT):
                    continue  # a card kept back (its mistake): asked to return it first, it starts again and is held
                if view.state in (lc.HELD, lc.DEVICE_FAULT):
                    self._resolve(view)
                    view = self._ready()
                    continue
                raise
        view = self._snapshot()
        assert view.round is not None
        self.players.new_round(view.round)
        self._finish_round(view, view.round)

    def _finish_round(self, view: TableView, round_no: int) -> None:
        """Deal and decide as the table asks until the round is settled; then collect it."""
        while view.state != lc.SETTLING or view.prompt.action not in ("end_round", "return_wagers"):
            view = self._step(view, round_no)
        self._collect(round_no)
        self._do(self.controller.end_round)

    def _step(self, view: TableView, round_no: int) -> TableView:
        """One action for the table's prompt in a round; returns the next view."""
        p = view.prompt
        if view.state == lc.HELD or view.state == lc.DEVICE_FAULT:
            self._resolve(view)
        elif p.action == "deal":
            self._deal(p, view, round_no)
        elif p.action == "packet":
            self._packet(p, view, round_no)
        elif p.action == "decide":
            cards = self._dealt.get(f"seat:{p.seat}", [])
            choice = self.players.decide(p.options, cards, seat=p.seat, table=self._dealt)  # type: ignore[arg-type]
            self._do(lambda: self.controller.decide(p.seat, choice))  # type: ignore[arg-type]
            self.report.decisions += 1
        elif p.action == "discard":
            self._sync(self._act(self.sim.discard_rest))
        elif p.action in ("end_round", "return_wagers"):
            return view
        else:
            raise DealerError(f"round {round_no}: the table is {view.state} and asks for {p.action!r}")
        return self._snapshot()

    # --- before a round -----------------------------------------------------------------------

    def _arm(self, *, last: bool = False) -> None:
        """Choose this round's mistake (if any) among those the table and game allow (a card kept
        back in the last round is not a mistake the table could see: no round follows)."""
        self._armed = None
        if self.mistake_rate <= 0 or self.rng.random() >= self.mistake_rate:
            return
        kinds = [EXTRA_CARD]
        if self.kind != "shuffler":
            kinds.append(SKIP_BURN)  # committed only if the round has a burn to skip
        if self.kind != "shuffler" and self.game.dealer_change_burns(self.config.procedure_rules) and len(self.dealers) > 1:
            kinds.append(NO_BURN_AT_DEALER_CHANGE)
        if self.kind == "shoe":
            kinds.append(CARD_PAST_CAP)
        if self.kind == "csm" and not last:
            kinds.append(CARD_NOT_RETURNED)
        kind = self.rng.choice(kinds)
        if kind == CARD_PAST_CAP:
            self._ignore_cap = True  # committed when a card past the cap is drawn
        else:
            self._armed = kind

    def _ready(self) -> TableView:
        """Bring the table to "start a round": shoe, shuffle, burns due, returns, holds."""
        changed = False
        while True:
            view = self._snapshot()
            p = view.prompt
            if view.state in (lc.HELD, lc.DEVICE_FAULT):
                self._resolve(view)
            elif p.action == "load_shoe":
                self._sync(self._act(self.sim.load))
                self.report.shoes += 1
            elif p.action == "change_shoe":
                if self._ignore_cap and view.state == lc.RESHUFFLE_DUE and (view.cap_cards or 0) > view.cards_drawn:
                    return view  # the mistake: deal on past the last round
                self._do(self.controller.shoe_change)
            elif p.action == "shuffle":
                self._sync(self._act(self.sim.start_shuffle))
                self.report.shoes += 1
            elif p.action == "wait":
                time.sleep(0.001)
            elif p.action == "return_cards":
                if not self._out:
                    return view  # a card kept back (the mistake): the table flags it at the round start
                self._return_cards()
            elif p.action == "deal" and all(t == "burn" for t in p.to):
                if self._armed in (SKIP_BURN, NO_BURN_AT_DEALER_CHANGE):
                    if self._armed == NO_BURN_AT_DEALER_CHANGE and not changed:
                        changed = True
                        self._change_dealer()
                    return view  # the burn is skipped in the round (the mistake)
                for _ in p.to:
                    self._burn()
                self._sync_last()
            elif p.action == "start_round":
                if not changed and view.state == lc.READY and self._wants_dealer_change():
                    changed = True
                    self._change_dealer()
                    continue
                return view
            else:
                raise DealerError(f"before a round the table is {view.state} and asks for {p.action!r}")

    def _change_dealer(self) -> None:
        self._do(lambda: self.controller.dealer_change(self._next_dealer()))
        self.report.dealer_changes += 1

    def _next_dealer(self) -> str:
        dealer = self.dealers[self._dealer_no % len(self.dealers)]
        self._dealer_no += 1
        return dealer

    def _wants_dealer_change(self) -> bool:
        if len(self.dealers) < 2:
            return False
        if self._armed == NO_BURN_AT_DEALER_CHANGE:
            return True
        return self.rng.random() < self.dealer_change_rate

    def _bets(self, view: TableView) -> tuple[list[int], dict[int, dict[str, int]], int | None]:
        cfg, game = self.config, self.game
        open_seats = [s for s in range(1, cfg.seats + 1) if not game.banker or s != view.banker_seat]
        n = self.rng.randint(1, len(open_seats))
        seats = sorted(self.rng.sample(open_seats, n))
        wagers: dict[int, dict[str, int]] = {}
        for seat in seats:
            w: dict[str, int] = {}
            required = list(game.required)
            if len(required) > 1:
                chosen = [b for b in required if self.rng.random() < 0.7] or [self.rng.choice(required)]
            else:
                chosen = required
            for bet in chosen:
                w[bet] = self._amount()
            for bet in game.wagers:
                if bet not in w and bet not in game.required and self.rng.random() < 0.4:
                    w[bet] = self._amount(side=True, bet=bet)
            wagers[seat] = w
        stake = self._banker_stake(wagers) if game.banker else None
        return seats, wagers, stake

    def _banker_stake(self, wagers: dict[int, dict[str, int]]) -> int:
        """What the banking player puts up: in :data:`COVERS_TABLE` of the rounds enough to cover
        the most the bank could pay on the table's wagers (rounded up to $100), else $100 to
        $5,000 (then a limit to the stake may cut the bank's payouts)."""
        stake = 100 * self.rng.randint(1, 50) * 100
        bound = max_bank_pay(self.game.id, wagers.values(), self.config.settlement_rules)
        if bound is not None and self.rng.random() < COVERS_TABLE:
            stake = max(stake, -(-bound // 10_000) * 10_000)
        return stake

    def _amount(self, *, side: bool = False, bet: str | None = None) -> int:
        low, high = self.config.min_bet // 100, self.config.max_bet // 100
        if side:
            high = max(low, high // 5)
        limit = self._limits.get(bet) if bet is not None else None
        if limit is not None:  # within the bet's own limits, in whole dollars
            high = min(high, limit.maximum // 100)
            low = min(max(low, -(-limit.minimum // 100)), high)
        return 100 * self.rng.randint(max(low, 1), max(high, 1))

    # --- the cards ----------------------------------------------------------------------------

    def _deal(self, p: Prompt, view: TableView, round_no: int) -> None:
        """Deal the positions the prompt lists (burns with the burn button). A mistake stops the
        dealing at the card that shows it (the table holds there)."""
        drawn = view.cards_drawn
        skipped = False
        for i, position in enumerate(p.to):
            burn = position == "burn"
            shows = any(t != "burn" for t in p.to[i + 1 :])  # a card after it would show the skip
            if burn and self._armed in (SKIP_BURN, NO_BURN_AT_DEALER_CHANGE) and not skipped and shows:
                self._record(round_no, self._armed)
                self._armed = None
                skipped = True
                continue
            if self._ignore_cap and view.cap_cards is not None and drawn + 1 > view.cap_cards:
                self._record(round_no, CARD_PAST_CAP)
                self._ignore_cap = False
                self._burn() if burn else self._draw(position)
                break
            unread = len(self._unread)
            self._burn() if burn else self._draw(position)
            drawn += 1
            if skipped and not burn:
                break  # the card that shows the skipped burn: the table holds
            if len(self._unread) > unread:
                break  # a misread card: the table holds until it is named (the rest is dealt after)
        else:
            # an extra card only in a round still being dealt (not one the table voided meanwhile);
            # one past the cap is seen as the cap's violation, so it is that mistake or none
            if self._armed == EXTRA_CARD:
                self._sync_last()  # the round's state, once the table has taken every card dealt
                if self._snapshot().state == lc.IN_ROUND:
                    past_cap = view.cap_cards is not None and drawn + 1 > view.cap_cards
                    if not past_cap or self._ignore_cap:
                        self._record(round_no, CARD_PAST_CAP if past_cap else EXTRA_CARD)
                        self._ignore_cap = self._ignore_cap and not past_cap
                        self._draw()
                    self._armed = None
        self._sync_last()

    def _packet(self, p: Prompt, view: TableView, round_no: int) -> None:
        events = self._deliver(p.count)
        hand = self._dealt.setdefault(p.to[0], [])
        for e in events:
            if isinstance(e, CardDrawn):
                hand.append(e.card)
            elif isinstance(e, PacketDelivered):
                hand.extend(e.cards)
        if self._armed == EXTRA_CARD and self._snapshot().prompt.action != "packet":
            self._record(round_no, EXTRA_CARD)
            self._armed = None
            self._deliver(1)

    def _deliver(self, count: int) -> list[DeviceEvent]:
        """A packet from the shuffler; one a jam cut short is what it is (the table judges it):
        the attendant clears the jam and the dealer goes on as the table asks. Its events."""
        events = self._act(lambda: self.sim.deliver_packet(count))
        self.report.cards += sum(len(e.cards) for e in events if isinstance(e, PacketDelivered))
        if self._blocked():
            self._clear()
        self._sync_last()
        return events

    def _burn(self) -> None:
        self._act(lambda: self.sim.press_button(0))
        self._draw()

    def _draw(self, position: str | None = None) -> None:
        """One card out of the device: drawn again after a jam (or an open door) that kept it in."""
        for _ in range(_RETRIES):
            events = self._act(self.sim.draw)
            drawn = [e for e in events if isinstance(e, CardDrawn)]
            for e in drawn:
                self.report.cards += 1
                face = e.card if e.card is not None else next(iter(self.sim.faces(e.event_no)), None)
                if position is not None:
                    self._dealt.setdefault(position, []).append(face)
                if self.kind == "csm" and face is not None:
                    self._out.append(face)
            if drawn or not self._blocked():
                return
            self._clear()
        raise DealerError(f"{self.device}: no card came out in {_RETRIES} tries")

    def _collect(self, round_no: int) -> None:
        """After the round: the cards go back into a continuous shuffler (one palmed, by mistake)."""
        if self.kind != "csm":
            return
        if self._armed == CARD_NOT_RETURNED and self._out:
            self._held_back.append(self._out.pop(self.rng.randrange(len(self._out))))
            self._record(round_no, CARD_NOT_RETURNED)
            self._armed = None
        self._return_cards()

    def _pick_up(self) -> None:
        """Cards out of the continuous shuffler that this dealer did not draw (it took over a
        table after a restart) are returned with the round's cards, as a dealer would gather
        everything on the layout."""
        known = Counter(self._out) + Counter(self._held_back)
        self._out += sorted((Counter(self.sim.cards_out()) - known).elements())

    def _return_cards(self, *, final: bool = False) -> None:
        if self.kind != "csm":
            return
        cards, self._out = self._out, []
        if final:
            cards += self._held_back
            self._held_back = []
        self._give_back(cards)

    def _give_back(self, cards: Sequence[int]) -> None:
        """Cards into the continuous shuffler; after a jam (or an open door) stops the in-feed,
        the attendant clears it and the rest go in."""
        todo = list(cards)
        for _ in range(_RETRIES):
            if not todo:
                self._sync_last()
                return
            events = self._act(lambda: self.sim.return_cards(todo))
            taken = sum(isinstance(e, CardReturned) for e in events)
            todo = todo[taken:]
            if todo and not self._blocked():
                raise DealerError(f"{self.device}: the shuffler took {taken} card(s) and refused the rest")
            if todo:
                self._clear()
        raise DealerError(f"{self.device}: {len(todo)} card(s) would not go back in {_RETRIES} tries")

    # --- the supervisor -----------------------------------------------------------------------

    def _resolve(self, view: TableView) -> None:
        if view.state == lc.DEVICE_FAULT:
            self._device_fault(view)
            return
        named = self._name_misreads()
        fired = self._fired()
        content = any(self.sim.model.faults.fired[k] for k in CONTENT_FAULTS)
        by_fault = bool(named or fired > self._faults_met or (content and {a.kind for a in view.alarms} <= CONTENT_HOLDS))
        if not self.report.mistakes and not by_fault:
            kinds = ", ".join(f"{a.kind} ({a.detail})" for a in view.alarms)
            when = f"round {view.round}" if view.round else "between rounds"
            raise DealerError(f"{when}: the table is held without a mistake of mine: {kinds}")
        void = any(a.kind == va.PENETRATION_CAP for a in view.alarms)
        note = "device fault met by the virtual dealer" if by_fault else "virtual dealer's mistake"
        self._input(self.controller.resolve(SUPERVISOR, note=note, void_round=void))
        self._faults_met = fired
        self._unread.clear()
        self.report.resolutions += 1
        self.report.fault_resolutions += by_fault
        if any(a.kind == va.CARD_NOT_RETURNED for a in view.alarms) and self._held_back:
            found, self._held_back = self._held_back, []
            self._give_back(found)
        if self.kind == "shuffler" and any(a.kind == va.DECK_CHECK for a in view.alarms):
            self._act(self.sim.load)  # the failed deck is replaced: the next shuffle checks a fresh one
            self.report.decks_replaced += 1

    def _name_misreads(self) -> int:
        """Turn over each misread card the table waits for and name it (``identify_card``), oldest
        first; how many were named."""
        named = 0
        while self._unread:
            try:
                self._input(self.controller.identify_card(self._unread[0]))
            except InputRejected:  # none waits: the table did not take that one as a card to name
                self._unread.clear()
                break
            self._unread.pop(0)
            named += 1
        self.report.misreads_named += named
        return named

    def _device_fault(self, view: TableView) -> None:
        """The table is stopped by a device fault: the attendant clears a jam or an open door; a
        link that is down is waited for (the driver reconnects)."""
        if self.sim.model.active_faults:
            self._clear()
            return
        self.report.link_waits += 1
        deadline = time.monotonic() + 3 * self.timeout
        while time.monotonic() < deadline:
            time.sleep(0.02)
            if self._snapshot().state != lc.DEVICE_FAULT:
                return
        kinds = ", ".join(f"{a.kind} ({a.detail})" for a in view.alarms)
        raise DealerError(f"round {view.round}: the table stayed stopped by a device fault: {kinds}")

    # --- the device ---------------------------------------------------------------------------

    def _act(self, action: Callable[[], list[DeviceEvent]]) -> list[DeviceEvent]:
        """One action at the device; one it refuses for a jam or an open door is done again once
        the attendant has cleared that."""
        for _ in range(_RETRIES):
            try:
                events = action()
            except DeviceRefused:
                if not self._blocked():
                    raise
                self._clear()
                continue
            self._see(events)
            return events
        raise DealerError(f"{self.device}: still refused after {_RETRIES} clearances")

    def _blocked(self) -> bool:
        """A jam or an open door stops the device."""
        return bool(self.sim.model.blocked)

    def _clear(self) -> None:
        """The attendant clears the device's faults (the jam removed, the door shut)."""
        events = self.sim.clear_fault()
        self.report.faults_cleared += 1
        self._sync(events)

    def _fired(self) -> int:
        """How many faults the device has had (the simulator's count: a dealer sees the jam, the
        odd card, the short packet)."""
        return sum(self.sim.model.faults.fired.values())

    def _see(self, events: Sequence[DeviceEvent]) -> None:
        """Note the events' numbers; a misread card's face is read (turned over) for the table."""
        self._note(events)
        for e in events:
            unread = (isinstance(e, (CardDrawn, CardReturned)) and e.card is None) or (
                isinstance(e, PacketDelivered) and None in e.cards
            )
            if unread:
                self._unread.extend(self.sim.faces(e.event_no))

    # --- talking to the table -----------------------------------------------------------------

    def _record(self, round_no: int, kind: str) -> None:
        entry = {"round": round_no, "kind": kind}
        self.report.mistakes.append(entry)
        if self.mistakes_log is not None:
            self.mistakes_log.write(json.dumps(entry) + "\n")
            self.mistakes_log.flush()

    def _input(self, future: Any) -> None:
        future.result(self.timeout)

    def _do(self, make: Callable[[], Future[Any]]) -> None:
        """A dealer input; refused because a device fault stopped the table (or a hold the dealer
        can resolve), it is given again once that is dealt with."""
        for _ in range(_RETRIES):
            try:
                self._input(make())
                return
            except InputRejected:
                view = self._snapshot()
                if view.state not in (lc.HELD, lc.DEVICE_FAULT):
                    raise
                self._resolve(view)
        raise DealerError(f"an input refused {_RETRIES} times through holds and device faults")

    def _snapshot(self) -> TableView:
        return self.controller.snapshot(self.timeout)

    def _note(self, events: Sequence[DeviceEvent]) -> None:
        for e in events:
            if e.event_no > self._last_event:
                self._last_event = e.event_no

    def _sync(self, events: Sequence[DeviceEvent]) -> None:
        self._note(events)
        self._sync_last()

    def _sync_last(self) -> None:
        if self._last_event and not self.controller.wait_processed(self.device, self._last_event, self.timeout):
            raise DealerError(
                f"{self.device}: event {self._last_event} not taken by the table within {self.timeout:g} s"
            )
