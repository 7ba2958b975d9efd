"""Render a ``TableView`` (and the display's state) as a rich renderable (pure: no I/O, no clock).

Layout, top to bottom, with no frames, so that 80x24 keeps everything that matters: the header
(table, game, state, round, shoe, dealer); the seats with their face-up cards, decisions, wagers
(or the wagers they play next) and, once settled, each bet's result; the dealer's (or DP's) cards
and the board; the penetration bar (cards of the shoe, the cap marked, ``LAST ROUND`` once
announced); what the table waits for; the alarms in red, each with what to do; as many of the
last log events as fit; the status line (a rejected input, a prompt being typed) and the key line.
``?`` swaps the table for the help: every key and what the marks mean.

A card shows as coloured text (``Q♥`` red, ``10♠`` white); a face-down slot (``None`` in the
view) as a card back ``▒▒``. The view holds no face-down card to begin with; as a second line of
defence the events panel drops the card of any log line marked face down or going to the burn.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tablectl.display.keys import HELP, HELP_KEYS, HELP_MARKS, SIM_HELP, bank_seat, decision_help
from tablectl.display.state import DisplayState
from tablectl.display.wagers import money, shown
from tablectl.table.view import AlarmView, Prompt, SeatView, TableView

CARD_BACK = "▒▒"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset("HD")
BAR_WIDTH = 30
NARROW_BAR = 20  # below 100 columns
EVENTS_SHOWN = 8

STATE_STYLES = {
    "offline": "dim",
    "idle": "yellow",
    "shuffling": "cyan",
    "ready": "green",
    "in_round": "bold green",
    "settling": "bold cyan",
    "reshuffle_due": "bold yellow",
    "held": "bold white on red",
    "device_fault": "bold white on red",
}

# log fields not worth a place on a dealer's screen
_ENVELOPE = frozenset(("seq", "event", "ts", "table", "prev", "sig", "event_no", "device", "face", "penetration", "shoe"))
_CARD_FIELDS = ("card", "cards")


def card_text(card: str | None) -> Text:
    """One card as coloured text: ``QH`` -> ``Q♥`` (red), ``TS`` -> ``10♠``; None -> a card back."""
    if card is None:
        return Text(CARD_BACK, style="blue on grey23")
    c = card.strip().upper()
    rank, suit = c[:-1], c[-1:]
    if rank == "T":
        rank = "10"
    symbol = SUIT_SYMBOLS.get(suit, suit)
    style = "bold red on white" if suit in RED_SUITS else "bold black on white"
    return Text(f"{rank}{symbol}", style=style)


def cards_text(cards: Iterable[str | None]) -> Text:
    """Cards separated by spaces (face-down ones as backs)."""
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_text(c))
    return out


def game_title(game: str) -> str:
    """The game's title (``One Card Poker``), or its id when unknown."""
    from tablectl.games import GAMES

    g = GAMES.get(game)
    return g.title if g is not None else game


def _banker_kind(game: str) -> str | None:
    from tablectl.games import GAMES

    g = GAMES.get(game)
    return g.banker if g is not None else None


# --- parts ---------------------------------------------------------------------------------------


def header(view: TableView) -> Text:
    """``ocp-1 · IN ROUND · round 12 · shoe 3 · dealer D-07 · One Card Poker`` (what a narrow
    terminal cuts off comes last)."""
    t = Text(no_wrap=True, overflow="ellipsis")
    t.append(view.table, style="bold")
    t.append(" · ")
    t.append(f" {view.state.replace('_', ' ').upper()} ", style=STATE_STYLES.get(view.state, "bold"))
    t.append(f" · round {view.round if view.round is not None else '-'}")
    t.append(f" · shoe {view.shoe if view.shoe is not None else '-'}")
    if view.dealer_id:
        t.append(f" · dealer {view.dealer_id}")
    else:
        t.append(" · NO DEALER SIGNED IN", style="bold yellow")
    t.append(" · ")
    t.append(game_title(view.game), style="bold cyan")
    return t


def _results(settlement: Iterable[Mapping[str, Any]]) -> dict[int, list[tuple[str, int]]]:
    """Each seat's settled bets: (bet, net) in settlement order."""
    out: dict[int, list[tuple[str, int]]] = {}
    for line in settlement:
        seat, net = line.get("seat"), line.get("net")
        if isinstance(seat, int) and isinstance(net, int):
            out.setdefault(seat, []).append((str(line.get("bet", "?")), net))
    return out


def _signed(cents: int) -> str:
    return ("+" if cents > 0 else "") + money(cents)


def seats_table(view: TableView, state: DisplayState, *, narrow: bool = False) -> Table:
    """One row per seat: status, face-up cards and decisions, wagers (settled: each bet's
    result), the round's net result."""
    banker = _banker_kind(view.game)
    results = _results(view.settlement)
    deciding = view.prompt.seat if view.prompt.action == "decide" else None
    bank = bank_seat(view)
    t = Table(expand=True, box=None, pad_edge=False, show_edge=False, header_style="bold dim")
    t.add_column("seat", width=4, no_wrap=True)
    t.add_column("status", width=10, no_wrap=True)
    t.add_column("cards · decisions", ratio=3, no_wrap=True, overflow="ellipsis")
    t.add_column("wagers", ratio=3, no_wrap=True, overflow="ellipsis")
    t.add_column("result", width=7 if narrow else 9, justify="right", no_wrap=True)
    for s in view.seats:
        t.add_row(*_seat_row(s, view, state, banker, results.get(s.seat), deciding, bank))
    return t


def _seat_row(
    s: SeatView, view: TableView, state: DisplayState, banker: str | None,
    settled: list[tuple[str, int]] | None, deciding: int | None, bank: int | None,
) -> tuple[RenderableType, ...]:
    marker = "▶" if s.seat == state.selected else " "
    seat = Text(f"{marker}{s.seat}", style="reverse bold" if s.seat == state.selected else "bold")
    status = Text()
    if s.banker or (s.seat == bank and not s.in_play):
        status.append("DP" if banker == "dp" else "BANK", style="bold magenta")
        stake = state.stakes.get(s.seat)
        if stake is not None:
            status.append(f" {money(stake)}", style="magenta")
    elif s.in_play:
        status.append("in play", style="green")
    elif s.seat in state.sitting_out:
        status.append("sits out", style="dim")
    else:
        status.append("open", style="dim")
    if s.wants_bank and not s.banker:
        status.append(" ⚑", style="magenta")
    if s.seat == deciding:
        status = Text("◆ DECIDES", style="bold yellow")
    cards = cards_text(s.cards)
    if s.decisions:
        cards.append(" " + " → ".join(s.decisions))
    if settled:
        wagers = Text()
        for i, (bet, net) in enumerate(settled):
            wagers.append((" " if i else "") + f"{bet} {_signed(net)}", style="green" if net > 0 else ("red" if net < 0 else "dim"))
    elif s.in_play:
        wagers = Text(shown(s.wagers))
    elif state.limits is not None and s.seat not in state.sitting_out and s.seat != bank:
        wagers = Text("next: " + shown(state.standing.get(s.seat) or state.limits.default), style="dim")
    else:
        wagers = Text("")
    result = Text()
    if settled:
        n = sum(net for _, net in settled)
        result = Text(_signed(n), style="green" if n > 0 else ("red" if n < 0 else "dim"))
    return seat, status, cards, wagers, result


def dealer_lines(view: TableView) -> Text:
    """The dealer's (or DP's / player-dealer's) cards and the board; backs for face-down cards."""
    banker = _banker_kind(view.game)
    label = {"dp": "DP", "player-dealer": "Player-dealer"}.get(banker or "", "Dealer")
    if banker and view.banker_seat is not None:
        label += f" (seat {view.banker_seat})"
    t = Text()
    t.append(f"{label}: ", style="bold")
    if view.dealer:
        t.append_text(cards_text(view.dealer))
    else:
        t.append("—", style="dim")
    if view.board or view.game == "texas-holdem-bonus":
        t.append("    Board: ", style="bold")
        if view.board:
            t.append_text(cards_text(view.board))
        else:
            t.append("—", style="dim")
    return t


def penetration_bar(view: TableView, width: int = BAR_WIDTH) -> Text:
    """``Penetration [█████████░░░░░│░░] 147/312 cards 47.1% · cap 280 (90%)  LAST ROUND``: one
    base, the cards of the full shoe; a continuous shuffler has no penetration: its cards out
    are shown instead."""
    t = Text(no_wrap=True, overflow="ellipsis")
    t.append("Penetration ", style="bold")
    if view.penetration is None or view.cap is None:
        t.append(f"continuous shuffler · {view.cards_out} card{'s' if view.cards_out != 1 else ''} out", style="cyan")
        if view.last_round:
            t.append("  LAST ROUND", style="bold black on yellow")
        return t
    pen = max(0.0, min(1.0, view.penetration))
    filled = int(round(pen * width))
    cap_at = int(round(max(0.0, min(1.0, view.cap)) * width))
    over = pen > view.cap
    t.append("[")
    for i in range(width + 1):
        if i == cap_at:
            t.append("│", style="bold red")
        if i == width:
            break
        if i < filled:
            t.append("█", style="red" if i >= cap_at else ("yellow" if view.last_round else "green"))
        else:
            t.append("░", style="dim")
    t.append("] ")
    of = f"/{view.shoe_cards}" if view.shoe_cards is not None else ""
    t.append(f"{view.cards_drawn}{of} cards ", style="bold red" if over else "bold")
    t.append(f"{pen * 100:.1f}%", style="bold red" if over else "bold")
    cap = f" · cap {view.cap_cards} ({view.cap * 100:g}%)" if view.cap_cards is not None else f" · cap {view.cap * 100:g}%"
    t.append(cap, style="bold red")
    if view.last_round:
        t.append("  LAST ROUND", style="bold black on yellow")
    return t


def describe_prompt(prompt: Prompt) -> str:
    """What the table waits for, for the dealer: ``deal: seat:1 seat:2 dealer``."""
    a = prompt.action
    if a == "deal":
        return "deal: " + " ".join(prompt.to)
    if a == "packet":
        return f"packet of {prompt.count} to {prompt.to[0] if prompt.to else '?'}"
    if a == "decide":
        who = f"seat {prompt.seat}" + (" (bank)" if prompt.banker else "")
        return f"{who} decides: {' / '.join(prompt.options)}"
    if a in ("return_cards",):
        return f"return {prompt.count} card{'s' if prompt.count != 1 else ''} to the shuffler"
    return {
        "load_shoe": "load a shuffled shoe",
        "shuffle": "shuffle",
        "wait": "shuffling…",
        "start_round": "start a round (n)",
        "sign_in": "dealer sign-in (d, then the dealer's id)",
        "offer_bank": "no seat has the bank: select the seat that takes it, then o (o alone: the first seat in play)",
        "discard": "shuffler discards the rest of the deck",
        "end_round": "pay and collect, then end the round (E)",
        "change_shoe": "change the shoe (reshuffle due)",
        "identify": "identify the misread card (i)",
        "resolve": "SUPERVISOR: resolve the hold (S) or void the round (V)",
        "clear_fault": "clear the device fault",
        "none": "—",
    }.get(a, a.replace("_", " "))


def alarms_panel(alarms: Iterable[AlarmView]) -> RenderableType:
    """The open violations and active faults in red, each with what to do (two lines each)."""
    alarms = tuple(alarms)
    if not alarms:
        return Text("no alarms", style="dim green")
    lines: list[RenderableType] = []
    for a in alarms:
        what = Text(no_wrap=True, overflow="ellipsis")
        tag = "VIOLATION" if a.violation else "DEVICE"
        what.append(f"⚠ {tag} {a.kind.replace('_', ' ').upper()}", style="bold white on red")
        if a.round is not None:
            what.append(f" round {a.round}", style="bold red")
        what.append(f"  {a.detail}", style="red")
        todo = Text("  → ", style="bold red", no_wrap=True, overflow="ellipsis")
        todo.append(a.what_to_do, style="bold")
        lines += [what, todo]
    return Group(*lines)


def _value(v: Any) -> str:
    if isinstance(v, (list, tuple)):
        return "[" + " ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + " ".join(f"{k}:{_value(x)}" for k, x in v.items()) + "}"
    return "-" if v is None else str(v)


def event_line(record: Mapping[str, Any]) -> Text:
    """One log line for the events panel: ``#123 12:01:02 dealt card=Q♥ to=seat:3 round=4``.
    The card of a face-down line (or a burn) is never shown."""
    t = Text(no_wrap=True, overflow="ellipsis")
    t.append(f"#{record.get('seq', '?')} ", style="dim")
    ts = record.get("ts")
    if isinstance(ts, str) and len(ts) >= 19:
        t.append(ts[11:19] + " ", style="dim")
    event = str(record.get("event", "?"))
    style = "bold red" if event in ("violation", "alarm", "fault") else "bold"
    t.append(event, style=style)
    hidden = record.get("face") == "down" or record.get("to") == "burn" or event == "burned"
    for key, value in record.items():
        if key in _ENVELOPE or value is None or value == "" or value == [] or value == {}:
            continue
        if key in _CARD_FIELDS and not isinstance(value, int):  # an int is a count (shoe_loaded, shuffle_done)
            if hidden:
                continue
            t.append(f" {key}=")
            if key == "card" and (value is None or isinstance(value, str)):
                t.append_text(card_text(value) if value is not None else Text("?"))
            elif isinstance(value, (list, tuple)):
                t.append_text(cards_text(c if isinstance(c, str) else None for c in value))
            continue
        t.append(f" {key}={_value(value)}", style="dim" if key not in ("to", "kind", "reason", "decision", "input") else "")
    return t


def events_panel(recent: Iterable[Mapping[str, Any]], n: int = EVENTS_SHOWN) -> RenderableType:
    """The last ``n`` log lines, oldest first, under a rule."""
    lines = list(recent)[-n:]
    rule = Text("── last events " + "─" * 200, style="dim", no_wrap=True, overflow="crop")
    body: RenderableType = Group(*(event_line(r) for r in lines)) if lines else Text("no events yet", style="dim")
    return Group(rule, body)


def status_line(state: DisplayState) -> Text:
    """The prompt being typed, else the last status (red for a rejection)."""
    if state.prompt is not None:
        t = Text("» ", style="bold yellow", no_wrap=True, overflow="ellipsis")
        t.append(state.prompt.shown(), style="bold")
        t.append("▏", style="blink")
        t.append("   Enter ok · Esc cancel", style="dim")
        return t
    if state.status:
        return Text(("✗ " if state.status_error else "· ") + state.status, style="bold red" if state.status_error else "",
                    no_wrap=True, overflow="ellipsis")
    return Text("")


def key_help(view: TableView, state: DisplayState) -> Text:
    """The key line, with the keys of the awaited decision first."""
    t = Text(no_wrap=True, overflow="ellipsis")
    if state.autoplay:
        t.append("virtual dealer playing · ", style="italic cyan")
    d = decision_help(view)
    if d:
        t.append(d + "   ", style="bold yellow")
    if state.simulated:
        t.append(SIM_HELP, style="cyan")
    t.append(HELP, style="dim")
    return t


def help_screen() -> RenderableType:
    """The help overlay: every key, then what the marks on the screen mean (two to a line)."""
    keys = Table(box=None, pad_edge=False, show_header=False)
    keys.add_column(style="bold yellow", no_wrap=True, min_width=max(len(k) for k, _ in HELP_KEYS))
    keys.add_column(no_wrap=True, overflow="ellipsis")
    for key, what in HELP_KEYS:
        keys.add_row(key, what)
    marks = Table(box=None, pad_edge=False, show_header=False)
    for style in ("bold magenta", "", "bold magenta", ""):
        marks.add_column(style=style, no_wrap=True, overflow="ellipsis")
    pairs = list(HELP_MARKS)
    for left, right in zip(pairs[::2], pairs[1::2], strict=False):
        marks.add_row(left[0], left[1] + "   ", right[0], right[1])
    return Group(Text("KEYS (any key closes this help)", style="bold reverse"), keys, Text("MARKS", style="bold reverse"), marks)


def _fixed_lines(view: TableView) -> int:
    """Screen lines of everything but the events (for fitting a terminal)."""
    table = 1 + len(view.seats) + 1 + 3  # header, seat rows, column header, dealer/bar/next
    alarms = 1 if not view.alarms else 2 * len(view.alarms)
    return 1 + table + alarms + 1 + 1 + 1  # title line, events rule, status, key line


def render(view: TableView | None, state: DisplayState | None = None, *, height: int | None = None, width: int | None = None) -> RenderableType:
    """The whole screen for one view of the table. ``height``: the terminal's lines; the events
    then show as many of the last lines as fit (none on a screen too small), else
    ``EVENTS_SHOWN``. ``width``: the terminal's columns (below 100: a shorter bar)."""
    state = state or DisplayState()
    if view is None:
        return Group(Text("tablectl: waiting for the table…", style="bold"), status_line(state))
    title = header(view)
    if state.help:
        return Group(title, help_screen(), status_line(state))
    narrow = width is not None and width < 100
    waits = Text("Next: ", style="bold", no_wrap=True, overflow="ellipsis")
    waits.append(describe_prompt(view.prompt), style="bold yellow" if view.held else "yellow")
    shown_events = EVENTS_SHOWN if height is None else max(0, height - _fixed_lines(view))
    parts: list[RenderableType] = [
        title,
        seats_table(view, state, narrow=narrow),
        dealer_lines(view),
        penetration_bar(view, NARROW_BAR if narrow else BAR_WIDTH),
        waits,
        alarms_panel(view.alarms),
    ]
    if shown_events:
        parts.append(events_panel(view.recent, shown_events))
    parts += [status_line(state), key_help(view, state)]
    return Group(*parts)


def render_text(view: TableView | None, state: DisplayState | None = None, *, width: int = 100, height: int | None = None) -> str:
    """The screen as plain text (tests, snapshots)."""
    from rich.console import Console

    console = Console(record=True, width=width, file=_Null(), color_system=None, force_terminal=False)
    console.print(render(view, state, height=height, width=width))
    return console.export_text()


class _Null:
    def write(self, s: str) -> int:
        return len(s)

    def flush(self) -> None:
        pass


__all__ = [
    "CARD_BACK",
    "alarms_panel",
    "card_text",
    "cards_text",
    "dealer_lines",
    "describe_prompt",
    "event_line",
    "events_panel",
    "game_title",
    "header",
    "help_screen",
    "key_help",
    "money",
    "penetration_bar",
    "render",
    "render_text",
    "seats_table",
    "status_line",
]
