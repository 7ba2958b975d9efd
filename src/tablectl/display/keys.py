"""The display's key map (pure): a key and the display state (and the table's last view) give the
next display state and, at most, one action: a dealer input to submit, a supervisor request to
check and submit, or quit.

Keys (case matters)::

    ?  h     help: every key and what the marks mean (any key closes it)
    n        new round: the seats not sitting out (all, unless toggled with space), less the seat
             that banks it, each on its standing wagers; clears the selection
    1-9      select a seat          0 / Esc   clear the selection
    space    the selected seat sits out of (or back into) the rounds that follow
    $        the selected seat's wagers (``25``, ``ante 25 pairplus 5``; the bets typed change only
             those bets, ``tie 5`` adds a side bet to the wager it stands on; kept for the next
             rounds; typed during a round: from the next round); on the banking seat: what it
             puts up as the bank's stake (at most what the bank could pay at the table's limits,
             ``tablectl.table.procedure.cover.bank_stake_limit``). The seat stays selected: ``$`` again adds to it
    P        the selected seat's player: type the player's card number or id (checked as
             ``tablectl.table.player_id`` checks it; a bad id is refused in one line, nothing
             logged); taken at any time, it counts from the next round to start
    L        the selected seat's player leaves (asks to confirm), from the next round
    o        the selected seat wants (or no longer wants) the bank (DP / player-dealer); with no
             seat selected and no seat banking: the first seat in play takes it
    r p f c t e s l   the decision of the seat that decides now (or the selected seat):
             r raise / play / bet (flop, turn, river)   p play   f fold   c check   t trade
             e extend (war)   s stand / surrender   l DP declines the war
    b        the next card is a burn          x  the last card was exposed: make it a burn
    i        identify a misread card (type it: QH, TD, 10D)
    E        end of round (paid and collected); before the round's cards are all dealt it asks
             first (y ends it short, any other key keeps it)
    d        dealer sign-in / dealer change (type the dealer's id)
    C        shoe change (asks to confirm)
    S        supervisor: resolve the hold (id, credential; the credential is checked before the
             note is asked for)
    V        supervisor: void the round in play at any point, held or not (asks to confirm, then
             id, credential, note): every wager is returned; refused at once with no round in play
    Q        quit (asks to confirm; says so when a round is in play)
    Enter    simulated devices only (``--simulate`` at the keys): the device does the next thing
             the table asks (one card, a burn with the burn button, a packet, a shuffle, ...)
    w        simulated devices only: draw one card, whatever the table expects

A confirmation (``(y/n)``) is answered by one key: ``y`` does it, any other key cancels.

While a text prompt is open every printable key is text: Enter answers the field, Backspace erases,
Esc cancels. Key names are single characters or ``enter``, ``backspace``, ``escape``, ``tab``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tablectl.cards import CardError, card
from tablectl.display import wagers as w
from tablectl.display.state import DisplayState, PromptField, TextPrompt
from tablectl.table import player_id
from tablectl.table.inputs import (
    BurnNext,
    Decision,
    DealerChange,
    DealerInput,
    EndRound,
    ExposedCard,
    IdentifyCard,
    OfferBank,
    SeatPlayer,
    ShoeChange,
    StartRound,
)
from tablectl.table.lifecycle import IN_ROUND
from tablectl.table.view import TableView

ENTER = "enter"
BACKSPACE = "backspace"
ESCAPE = "escape"
TAB = "tab"

#: decision key -> the options it stands for, first match in the awaited options wins
DECISION_KEYS: dict[str, tuple[str, ...]] = {
    "r": ("raise", "play", "flop", "turn", "river"),
    "p": ("play",),
    "f": ("fold",),
    "c": ("check",),
    "t": ("trade",),
    "e": ("extend",),
    "s": ("stand", "surrender"),
    "l": ("dp-declines",),
}

#: the key help line (the decision keys of the awaited decision are added to it)
HELP = "? help · n round · 1-9 seat · $ wager · spc sit out · o bank · E end · d dealer · S resolve · Q quit"
SIM_HELP = "Enter device step · "

#: the help overlay: every key, then what the marks on the screen mean
HELP_KEYS: tuple[tuple[str, str], ...] = (
    ("n", "new round: the seats in play less the bank, on their wagers"),
    ("1-9 / 0", "select a seat / clear the selection (Esc too)"),
    ("space", "the selected seat sits out (or plays again)"),
    ("$", "wagers (25; a side bet alone adds on); the bank: its stake"),
    ("o", "the seat wants/declines the bank; alone: first seat takes it"),
    ("r p f c t e s l", "the decision in yellow: raise play fold check trade extend..."),
    ("b / x", "the next card is a burn / the last card was exposed: burn it"),
    ("i", "identify a misread card (QH, TD, 10D)"),
    ("E", "end of round: paid and collected (mid-round: y confirms)"),
    ("d / P L", "dealer sign-in or change / the seat's player id, player leaves"),
    ("C", "shoe change (y confirms)"),
    ("S / V", "supervisor: resolve the hold / void the round (y confirms)"),
    ("Enter / w", "simulated devices: do what the table asks / draw one card"),
    ("Q", "quit (y confirms)"),
)
HELP_MARKS: tuple[tuple[str, str], ...] = (
    ("▶", "the selected seat"),
    ("◆ DECIDES", "the table waits for it"),
    ("BANK / DP", "banks this round"),
    ("◆ DP/BANK", "the bank's seat decides"),
    ("NA $5", "no action: bank ran out"),
    ("+$7 CAP", "win capped by the bank"),
    ("VOID 3", "voided: wagers returned"),
    ("⚑", "wants the bank"),
    ("next:", "wagers it plays next"),
    ("▒▒", "a face-down card"),
    ("│", "the cap on the bar"),
    ("⚠", "an alarm: act on it"),
)


@dataclass(frozen=True, slots=True)
class SupervisorRequest:
    """A supervisor action typed at the display: to be checked against the configured credential
    hashes before it becomes a ``Resolve`` input. The secret never leaves the display process."""

    supervisor: str
    secret: str
    note: str = ""
    void_round: bool = False


@dataclass(frozen=True, slots=True)
class SupervisorCheck:
    """A supervisor's id and credential typed at the display, to be checked before the note is
    asked for; a refusal closes the prompt. The secret never leaves the display process."""

    supervisor: str
    secret: str
    void_round: bool = False


@dataclass(frozen=True, slots=True)
class Quit:
    """The person at the keys asked to quit (and confirmed)."""


@dataclass(frozen=True, slots=True)
class DeviceStep:
    """Simulated device: do the next thing the table asks of it (``Enter``)."""


@dataclass(frozen=True, slots=True)
class DeviceDraw:
    """Simulated device: draw one card, whatever the table expects (``w``)."""


Action = DealerInput | SupervisorRequest | SupervisorCheck | Quit | DeviceStep | DeviceDraw


@dataclass(frozen=True, slots=True)
class KeyResult:
    """The display state after a key, and the action it asks for (None: none)."""

    state: DisplayState
    action: Action | None = None


def option_key(option: str) -> str | None:
    """The key that chooses ``option`` in a decision (for the key help), or None."""
    for key, options in DECISION_KEYS.items():
        if option in options and key != "p":
            return key
    return "p" if option == "play" else None


def decision_help(view: TableView | None) -> str:
    """``seat 3: [r] raise  [c] check  [t] trade`` for the awaited decision, or ""."""
    if view is None or view.prompt.action != "decide":
        return ""
    p = view.prompt
    who = f"seat {p.seat}" + (" (bank)" if p.banker else "")
    parts = [f"[{option_key(o) or '?'}] {o}" for o in p.options]
    return f"{who}: " + "  ".join(parts)


_SUPERVISOR_FIELDS = (
    PromptField("supervisor id"),
    PromptField("credential", hidden=True),
    PromptField("note (optional)", optional=True),
)


def _open(state: DisplayState, purpose: str, *fields: PromptField) -> KeyResult:
    return KeyResult(replace(state, prompt=TextPrompt(purpose, tuple(fields)), status="", status_error=False))


def _confirm(state: DisplayState, purpose: str, question: str) -> KeyResult:
    return KeyResult(replace(state, prompt=TextPrompt(purpose, (PromptField(f"{question} (y/n)"),), yes_no=True), status="", status_error=False))


def _error(state: DisplayState, text: str) -> KeyResult:
    return KeyResult(state.with_status(text, error=True))


def round_in_play(view: TableView | None) -> bool:
    """Whether a round is in play (dealt, settling, or held in the middle): a seat is in it."""
    return view is not None and any(s.in_play for s in view.seats)


def bank_seat(view: TableView | None) -> int | None:
    """The seat that banks the next round (or the round in play), if the game has a bank."""
    if view is None:
        return None
    return view.next_banker if view.next_banker is not None else view.banker_seat


def _banked(view: TableView | None) -> bool:
    from tablectl.games import GAMES

    game = GAMES.get(view.game) if view is not None else None
    return bool(game is not None and game.banker)


def handle_key(key: str, state: DisplayState, view: TableView | None) -> KeyResult:
    """What ``key`` does, given the display state and the last view of the table."""
    if state.prompt is not None:
        return _prompt_key(key, state, state.prompt, view)
    if state.help:
        return KeyResult(replace(state, help=False))
    if key in ("?", "h"):
        return KeyResult(replace(state, help=True))
    seats = {s.seat for s in view.seats} if view is not None else set()

    if key in ("0", ESCAPE):
        return KeyResult(replace(state, selected=None, status=""))
    if len(key) == 1 and key.isdigit():
        seat = int(key)
        if view is not None and seat not in seats:
            return _error(state, f"no seat {seat} at this table")
        return KeyResult(replace(state, selected=seat, status=f"seat {seat} selected", status_error=False))
    if key == " ":
        if state.selected is None:
            return _error(state, "select a seat first (1-9)")
        out = set(state.sitting_out) ^ {state.selected}
        now = "sits out (space again: plays)" if state.selected in out else "plays again"
        return KeyResult(replace(state, sitting_out=frozenset(out), status=f"seat {state.selected} {now}", status_error=False))
    if key == "n":
        return _new_round(state, view, seats)
    if key == "$":
        return _wager_prompt(state, view)
    if key == "o":
        return _offer_bank(state, view, seats)
    if key in ("P", "L"):
        return _player_prompt(key, state, view)
    if key in DECISION_KEYS:
        return _decision(key, state, view)
    if key == "b":
        return KeyResult(state.with_status("next card: burn"), BurnNext())
    if key == "x":
        return KeyResult(state.with_status("last card exposed: burn it"), ExposedCard())
    if key == "E":
        if view is not None and view.state == IN_ROUND:
            return _confirm(state, "end", f"round {view.round} is not all dealt: end it short?")
        return KeyResult(state.with_status("end of round"), EndRound())
    if key == "i":
        return _open(state, "identify", PromptField("misread card (e.g. QH, TD)"))
    if key == "d":
        signed_in = view is not None and view.dealer_id
        return _open(state, "dealer", PromptField("new dealer id" if signed_in else "dealer sign-in: dealer id"))
    if key == "C":
        return _confirm(state, "shoe_change", "change the shoe?")
    if key in ("S", "V") and not state.supervisors:
        return _error(state, "no supervisor is configured for this table: add one with `tablectl supervisor add CONFIG ID`")
    if key == "V":
        if not round_in_play(view):
            return _error(state, "no round in play: nothing to void (S resolves a hold)")
        return _confirm(state, "void_confirm", f"void round {view.round}: every wager returned?")  # type: ignore[union-attr]
    if key == "S":
        return _supervisor_prompt(state, "resolve")
    if key == "Q":
        if round_in_play(view):
            return _confirm(state, "quit", f"round {view.round} is in play: quit anyway?")  # type: ignore[union-attr]
        return _confirm(state, "quit", "quit the table display?")
    if key in (ENTER, "w"):
        if not state.simulated:
            return _error(state, "the devices are real: deal at the device" if key == "w" else "nothing to confirm")
        return KeyResult(state, DeviceStep() if key == ENTER else DeviceDraw())
    return KeyResult(state)


def _supervisor_prompt(state: DisplayState, purpose: str) -> KeyResult:
    fields = _SUPERVISOR_FIELDS
    if state.supervisor_hint:
        fields = (PromptField(f"supervisor id ({state.supervisor_hint})"), *fields[1:])
    return _open(state, purpose, *fields)


def _new_round(state: DisplayState, view: TableView | None, seats: set[int]) -> KeyResult:
    bank = bank_seat(view)
    if _banked(view) and bank is None:
        return _error(state, "no seat has the bank: select the seat that takes it and press o (o alone: the first seat in play)")
    playing = tuple(sorted(seats - state.sitting_out - {bank})) if view is not None else ()
    if not playing:
        return _error(state, "no seat plays: every seat sits out")
    started = replace(state, selected=None)  # the selection was for sitting out; decisions go to whoever's turn it is
    said = f"new round: seats {', '.join(map(str, playing))}" + (f", seat {bank} banks" if bank is not None else "")
    limits = state.limits
    if limits is None:
        return KeyResult(started.with_status(said), StartRound(seats=playing))
    stake = state.stakes.get(bank) if bank is not None else None
    if bank is not None and stake is None and limits.banker_stake_limits:
        return _error(state, f"seat {bank} banks: enter its stake first (select {bank}, then $)")
    wagers = w.for_round(playing, state.standing, limits)
    standing = {**state.standing, **wagers}
    return KeyResult(replace(started, standing=standing).with_status(said), StartRound(seats=playing, wagers=wagers, banker_stake=stake))


def _wager_prompt(state: DisplayState, view: TableView | None) -> KeyResult:
    if state.limits is None:
        return _error(state, "this display takes no wagers")
    seat = state.selected
    if seat is None:
        return _error(state, "select a seat first (1-9), then $")
    if _banked(view) and seat == bank_seat(view):
        return _open(state, f"stake:{seat}", PromptField(f"seat {seat} bank stake in dollars"))
    now = w.shown(state.standing.get(seat) or state.limits.default, state.limits.names)
    return _open(state, f"wagers:{seat}", PromptField(f"seat {seat} wagers (now {now}; e.g. {state.limits.example})"))


def seated(view: TableView | None, seat: int) -> str | None:
    """The player id entered for ``seat`` (None: none)."""
    return next((s.player for s in view.seats if s.seat == seat), None) if view is not None else None


def _player_prompt(key: str, state: DisplayState, view: TableView | None) -> KeyResult:
    seat = state.selected
    if seat is None:
        return _error(state, f"select a seat first (1-9), then {key}")
    now = seated(view, seat)
    if key == "L":
        if now is None:
            return _error(state, f"seat {seat} has no player entered")
        return _confirm(state, f"leave:{seat}", f"seat {seat}: player {now} leaves?")
    label = f"seat {seat} player id" + (f" (now {now})" if now else " (card number)")
    return _open(state, f"player:{seat}", PromptField(label, optional=True))


def _from_when(view: TableView | None) -> str:
    return f" from round {view.round + 1}" if round_in_play(view) and view is not None and view.round else ""


def _offer_bank(state: DisplayState, view: TableView | None, seats: set[int]) -> KeyResult:
    seat = state.selected
    if seat is None:
        if not _banked(view) or bank_seat(view) is not None:
            return _error(state, "select a seat first (1-9), then o")
        free = sorted(seats - state.sitting_out)
        if not free:
            return _error(state, "no seat plays: every seat sits out")
        seat = free[0]
        return KeyResult(state.with_status(f"seat {seat} takes the bank"), OfferBank(seat, True))
    wants = True
    if view is not None:
        wants = not next((s.wants_bank for s in view.seats if s.seat == seat), False)
    return KeyResult(state.with_status(f"seat {seat} {'wants' if wants else 'declines'} the bank"), OfferBank(seat, wants))


def _decision(key: str, state: DisplayState, view: TableView | None) -> KeyResult:
    if view is None or view.prompt.action != "decide":
        waiting = view.prompt.action.replace("_", " ") if view is not None else "nothing yet"
        return _error(state, f"no decision is awaited (the table waits for: {waiting})")
    p = view.prompt
    choice = next((o for o in DECISION_KEYS[key] if o in p.options), None)
    if choice is None:
        return _error(state, f"seat {p.seat} may choose {' or '.join(p.options)}")
    seat = state.selected if state.selected is not None else p.seat
    assert seat is not None
    return KeyResult(replace(state, selected=None, status=f"seat {seat}: {choice}", status_error=False), Decision(seat, choice))


def _prompt_key(key: str, state: DisplayState, prompt: TextPrompt, view: TableView | None = None) -> KeyResult:
    if prompt.yes_no:
        return _finish(replace(state, prompt=None), prompt.purpose, ("y" if key in ("y", "Y") else "n",), view)
    if key == ESCAPE:
        return KeyResult(replace(state, prompt=None, status="cancelled", status_error=False))
    if key == BACKSPACE:
        return KeyResult(replace(state, prompt=prompt.backspace()))
    if key != ENTER:
        if len(key) == 1 and key.isprintable():
            return KeyResult(replace(state, prompt=prompt.typed(key)))
        return KeyResult(state)
    if not prompt.buffer.strip() and not prompt.current.optional:
        return KeyResult(state.with_status(f"{prompt.current.label}: required (Esc cancels)", error=True))
    done = prompt.entered()
    if done.purpose in ("resolve", "void") and len(done.values) == 2:
        supervisor, secret = done.values
        check = SupervisorCheck(supervisor.strip(), secret, void_round=done.purpose == "void")
        return KeyResult(replace(state, prompt=done, status="", status_error=False), check)
    if not done.complete:
        return KeyResult(replace(state, prompt=done))
    closed = replace(state, prompt=None)
    return _finish(closed, done.purpose, done.values, view)


def _finish(state: DisplayState, purpose: str, values: tuple[str, ...], view: TableView | None = None) -> KeyResult:
    if purpose.startswith("player:"):
        seat = int(purpose.partition(":")[2])
        wrong = player_id.problem(values[0])
        if wrong is not None:
            return _error(replace(state, selected=None), f"seat {seat}: {wrong}")
        said = f"seat {seat}: player {values[0]}{_from_when(view)}"
        return KeyResult(replace(state, selected=None).with_status(said), SeatPlayer(seat, values[0]))
    first = values[0].strip()
    yes = first.lower() in ("y", "yes")
    if purpose == "identify":
        try:
            c = card(first)
        except CardError as e:
            return _error(state, str(e))
        return KeyResult(state.with_status(f"misread card is {first.upper()}"), IdentifyCard(int(c)))
    if purpose == "dealer":
        return KeyResult(state.with_status(f"dealer change: {first}"), DealerChange(first))
    if purpose == "shoe_change":
        if not yes:
            return KeyResult(state.with_status("shoe change cancelled"))
        return KeyResult(state.with_status("shoe change"), ShoeChange())
    if purpose == "quit":
        if not yes:
            return KeyResult(state.with_status("quit cancelled"))
        return KeyResult(state.with_status("quitting"), Quit())
    if purpose == "end":
        if not yes:
            return KeyResult(state.with_status("end of round cancelled: the round goes on"))
        return KeyResult(state.with_status("end of round (short)"), EndRound())
    if purpose.startswith("leave:"):
        seat = int(purpose.partition(":")[2])
        if not yes:
            return KeyResult(state.with_status(f"seat {seat}: the player stays"))
        said = f"seat {seat}: the player leaves{_from_when(view)}"
        return KeyResult(replace(state, selected=None).with_status(said), SeatPlayer(seat, None))
    if purpose == "void_confirm":
        if not yes:
            return KeyResult(state.with_status("void cancelled"))
        return _supervisor_prompt(state, "void")
    if purpose.startswith("wagers:"):
        seat = int(purpose.partition(":")[2])
        assert state.limits is not None
        placed = w.parse(first, state.limits, state.standing.get(seat) or state.limits.default)
        if isinstance(placed, str):
            return _error(state, f"seat {seat}: {placed}")
        standing = {**state.standing, seat: placed}  # the seat stays selected: a second $ adds to it
        when = " from next round" if round_in_play(view) else ""
        return KeyResult(replace(state, standing=standing).with_status(f"seat {seat} bets {w.shown(placed, state.limits.names)}{when}"))
    if purpose.startswith("stake:"):
        seat = int(purpose.partition(":")[2])
        assert state.limits is not None
        stake = w.cents(first)
        if stake is None or stake == 0:
            return _error(state, f"seat {seat}: {first!r} is not a stake in dollars")
        problem = state.limits.stake.problem(stake)  # the controller's own check (bank_stake_limit)
        if problem:
            return _error(state, f"seat {seat}: stake: {problem}")
        stakes = {**state.stakes, seat: stake}
        return KeyResult(replace(state, stakes=stakes).with_status(f"seat {seat} banks with {w.money(stake)}"))
    if purpose in ("resolve", "void"):
        supervisor, secret, note = (*values, "", "")[:3]
        request = SupervisorRequest(supervisor.strip(), secret, note.strip(), void_round=purpose == "void")
        return KeyResult(state.with_status(f"checking supervisor {supervisor.strip()}…"), request)
    raise ValueError(f"unknown prompt purpose {purpose!r}")


__all__ = [
    "BACKSPACE",
    "DECISION_KEYS",
    "DeviceDraw",
    "DeviceStep",
    "ENTER",
    "ESCAPE",
    "HELP",
    "HELP_KEYS",
    "HELP_MARKS",
    "SIM_HELP",
    "TAB",
    "Action",
    "KeyResult",
    "Quit",
    "SupervisorCheck",
    "SupervisorRequest",
    "bank_seat",
    "decision_help",
    "handle_key",
    "option_key",
    "round_in_play",
    "seated",
]
