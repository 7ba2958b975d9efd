"""The display's key map (pure): a key and the display state (and the table's last view) give the
next display state and, at most, one action: a dealer input to submit, a supervisor request to
check and submit, or quit.

Keys (case matters)::

    n        new round: the seats not sitting out (all, unless toggled with space); clears the
             selection
    1-9      select a seat          0 / Esc   clear the selection
    space    the selected seat sits out of (or back into) the next round
    o        the selected seat wants (or no longer wants) the bank (DP / player-dealer)
    r p f c t e s l   the decision of the seat that decides now (or the selected seat):
             r raise / play / bet (flop, turn, river)   p play   f fold   c check   t trade
             e extend (war)   s stand / surrender   l DP declines the war
    b        the next card is a burn          x  the last card was exposed: make it a burn
    i        identify a misread card (type it: QH, TD, 10D)
    E        end of round (paid and collected)
    d        dealer change (type the new dealer's id)
    C        shoe change (asks to confirm)
    S        supervisor: resolve the hold (id, credential, note)
    V        supervisor: resolve and void the round in play (id, credential, note)
    Q        quit (asks to confirm)
    Enter    simulated devices only (``--simulate`` at the keys): the device does the next thing
             the table asks (one card, a burn with the burn button, a packet, a shuffle, ...)
    w        simulated devices only: draw one card, whatever the table expects

While a prompt is open every printable key is text: Enter answers the field, Backspace erases,
Esc cancels. Key names are single characters or ``enter``, ``backspace``, ``escape``, ``tab``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tablectl.cards import CardError, card
from tablectl.display.state import DisplayState, PromptField, TextPrompt
from tablectl.table.inputs import (
    BurnNext,
    Decision,
    DealerChange,
    DealerInput,
    EndRound,
    ExposedCard,
    IdentifyCard,
    OfferBank,
    ShoeChange,
    StartRound,
)
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
HELP = "n round · 1-9 seat · spc sit out · o bank · b burn · x exposed · i identify · E end · d dealer · C shoe · S resolve · V void · Q quit"
SIM_HELP = "Enter device step · w draw · "


@dataclass(frozen=True, slots=True)
class SupervisorRequest:
    """A supervisor action typed at the display: to be checked against the configured credential
    hashes before it becomes a ``Resolve`` input. The secret never leaves the display process."""

    supervisor: str
    secret: str
    note: str = ""
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


Action = DealerInput | SupervisorRequest | Quit | DeviceStep | DeviceDraw


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


def _error(state: DisplayState, text: str) -> KeyResult:
    return KeyResult(state.with_status(text, error=True))


def handle_key(key: str, state: DisplayState, view: TableView | None) -> KeyResult:
    """What ``key`` does, given the display state and the last view of the table."""
    if state.prompt is not None:
        return _prompt_key(key, state, state.prompt)
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
        now = "sits out of" if state.selected in out else "plays"
        return KeyResult(replace(state, sitting_out=frozenset(out), status=f"seat {state.selected} {now} the next round", status_error=False))
    if key == "n":
        playing = tuple(sorted(seats - state.sitting_out)) if view is not None else ()
        if not playing:
            return _error(state, "no seat plays: every seat sits out")
        started = replace(state, selected=None)  # the selection was for sitting out; decisions go to whoever's turn it is
        return KeyResult(started.with_status(f"new round: seats {', '.join(map(str, playing))}"), StartRound(seats=playing))
    if key == "o":
        if state.selected is None:
            return _error(state, "select a seat first (1-9)")
        wants = True
        if view is not None:
            wants = not next((s.wants_bank for s in view.seats if s.seat == state.selected), False)
        return KeyResult(state.with_status(f"seat {state.selected} {'wants' if wants else 'declines'} the bank"), OfferBank(state.selected, wants))
    if key in DECISION_KEYS:
        return _decision(key, state, view)
    if key == "b":
        return KeyResult(state.with_status("next card: burn"), BurnNext())
    if key == "x":
        return KeyResult(state.with_status("last card exposed: burn it"), ExposedCard())
    if key == "E":
        return KeyResult(state.with_status("end of round"), EndRound())
    if key == "i":
        return _open(state, "identify", PromptField("misread card (e.g. QH, TD)"))
    if key == "d":
        return _open(state, "dealer", PromptField("new dealer id"))
    if key == "C":
        return _open(state, "shoe_change", PromptField("change the shoe? (y/n)"))
    if key == "S":
        return _open(state, "resolve", *_SUPERVISOR_FIELDS)
    if key == "V":
        return _open(state, "void", *_SUPERVISOR_FIELDS)
    if key == "Q":
        return _open(state, "quit", PromptField("quit the table display? (y/n)"))
    if key in (ENTER, "w"):
        if not state.simulated:
            return _error(state, "the devices are real: deal at the device" if key == "w" else "nothing to confirm")
        return KeyResult(state, DeviceStep() if key == ENTER else DeviceDraw())
    return KeyResult(state)


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


def _prompt_key(key: str, state: DisplayState, prompt: TextPrompt) -> KeyResult:
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
    if not done.complete:
        return KeyResult(replace(state, prompt=done))
    closed = replace(state, prompt=None)
    return _finish(closed, done.purpose, done.values)


def _finish(state: DisplayState, purpose: str, values: tuple[str, ...]) -> KeyResult:
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
    "SIM_HELP",
    "TAB",
    "Action",
    "KeyResult",
    "Quit",
    "SupervisorRequest",
    "decision_help",
    "handle_key",
    "option_key",
]
