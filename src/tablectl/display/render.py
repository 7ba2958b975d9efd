"""Render a ``TableView`` (and the display's state) as a rich renderable (pure: no I/O, no clock).

Layout, top to bottom: the header (table, game, state, round, shoe, dealer); the seats with their
face-up cards, wagers, decisions and results; the dealer's (or DP's) cards and the board; the
penetration bar with the cap marked (``LAST ROUND`` once announced); what the table waits for;
the alarms in red, each with what to do; the last log events; the status line (a rejected input,
a prompt being typed) and the key help.

A card shows as coloured text (``Q♥`` red, ``10♠`` white); a face-down slot (``None`` in the
view) as a card back ``▒▒``. The view holds no face-down card to begin with; as a second line of
defence the events panel drops the card of any log line marked face down or going to the burn.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tablectl.display.keys import HELP, SIM_HELP, decision_help
from tablectl.display.state import DisplayState
from tablectl.table.view import AlarmView, Prompt, SeatView, TableView

CARD_BACK = "▒▒"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset("HD")
BAR_WIDTH = 36
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


def money(cents: int) -> str:
    """``$12`` or ``$12.50`` (negative: ``-$5``)."""
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}${cents // 100}" if cents % 100 == 0 else f"{sign}${cents / 100:.2f}"


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
    """``ocp-1 · One Card Poker · IN ROUND · round 12 · shoe 3 · dealer D-07``."""
    t = Text()
    t.append(view.table, style="bold")
    t.append(" · ")
    t.append(game_title(view.game), style="bold cyan")
    t.append(" · ")
    t.append(f" {view.state.replace('_', ' ').upper()} ", style=STATE_STYLES.get(view.state, "bold"))
    t.append(f" · round {view.round if view.round is not None else '-'}")
    t.append(f" · shoe {view.shoe if view.shoe is not None else '-'}")
    t.append(f" · dealer {view.dealer_id or '-'}")
    return t


def _results(settlement: Iterable[Mapping[str, Any]]) -> dict[int, int]:
    net: dict[int, int] = {}
    for line in settlement:
        seat = line.get("seat")
        if isinstance(seat, int) and isinstance(line.get("net"), int):
            net[seat] = net.get(seat, 0) + line["net"]
    return net


def seats_table(view: TableView, state: DisplayState) -> Table:
    """One row per seat: status, wagers, face-up cards, decisions, the round's net result."""
    banker = _banker_kind(view.game)
    net = _results(view.settlement)
    deciding = view.prompt.seat if view.prompt.action == "decide" else None
    t = Table(expand=True, box=None, pad_edge=False, show_edge=False, header_style="bold dim")
    t.add_column("seat", width=6, no_wrap=True)
    t.add_column("status", width=14, no_wrap=True)
    t.add_column("cards", ratio=2, no_wrap=True)
    t.add_column("wagers", ratio=3, no_wrap=True, overflow="ellipsis")
    t.add_column("decisions", ratio=2, no_wrap=True, overflow="ellipsis")
    t.add_column("result", width=9, justify="right", no_wrap=True)
    for s in view.seats:
        t.add_row(*_seat_row(s, view, state, banker, net, deciding))
    return t


def _seat_row(
    s: SeatView, view: TableView, state: DisplayState, banker: str | None, net: Mapping[int, int], deciding: int | None
) -> tuple[RenderableType, ...]:
    marker = "▶" if s.seat == state.selected else " "
    seat = Text(f"{marker}{s.seat}", style="reverse bold" if s.seat == state.selected else "bold")
    status = Text()
    if s.banker:
        status.append("DP" if banker == "dp" else "BANK", style="bold magenta")
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
    wagers = Text(" ".join(f"{k} {money(v)}" for k, v in s.wagers.items() if v), style="dim")
    decisions = Text(" → ".join(s.decisions))
    result = Text()
    if s.seat in net:
        n = net[s.seat]
        result = Text(("+" if n > 0 else "") + money(n), style="green" if n > 0 else ("red" if n < 0 else "dim"))
    return seat, status, cards_text(s.cards), wagers, decisions, result


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
    """``Penetration [█████████░░░░░│░░] 47.1% · cap 90% · 147/280 cards  LAST ROUND``; a
    continuous shuffler has no penetration: its cards out are shown instead."""
    t = Text()
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
    t.append(f"{pen * 100:.1f}%", style="bold red" if over else "bold")
    t.append(f" · cap {view.cap * 100:g}%", style="bold red")
    of = f"/{view.cap_cards}" if view.cap_cards is not None else ""
    t.append(f" · {view.cards_drawn}{of} cards")
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
        "discard": "shuffler discards the rest of the deck",
        "end_round": "pay and collect, then end the round (E)",
        "change_shoe": "change the shoe (reshuffle due)",
        "identify": "identify the misread card (i)",
        "resolve": "SUPERVISOR: resolve the hold (S) or void the round (V)",
        "clear_fault": "clear the device fault",
        "none": "—",
    }.get(a, a.replace("_", " "))


def alarms_panel(alarms: Iterable[AlarmView]) -> RenderableType:
    """The open violations and active faults in red, each with what to do."""
    alarms = tuple(alarms)
    if not alarms:
        return Text("no alarms", style="dim green")
    body = Text()
    for i, a in enumerate(alarms):
        if i:
            body.append("\n")
        tag = "VIOLATION" if a.violation else "DEVICE"
        body.append(f"⚠ {tag} {a.kind.replace('_', ' ').upper()}", style="bold white on red")
        if a.round is not None:
            body.append(f" round {a.round}", style="bold red")
        body.append(f"  {a.detail}", style="red")
        body.append("\n  → ", style="bold red")
        body.append(a.what_to_do, style="bold")
    return Panel(body, title="ALARMS", title_align="left", border_style="bold red")


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
        if key in _ENVELOPE:
            continue
        if key in _CARD_FIELDS:
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
    """The last ``n`` log lines, oldest first."""
    lines = list(recent)[-n:]
    body: RenderableType = Group(*(event_line(r) for r in lines)) if lines else Text("no events yet", style="dim")
    return Panel(body, title="last events", title_align="left", border_style="dim")


def status_line(state: DisplayState) -> Text:
    """The prompt being typed, else the last status (red for a rejection)."""
    if state.prompt is not None:
        t = Text("» ", style="bold yellow")
        t.append(state.prompt.shown(), style="bold")
        t.append("▏", style="blink")
        t.append("   Enter ok · Esc cancel", style="dim")
        return t
    if state.status:
        return Text(("✗ " if state.status_error else "· ") + state.status, style="bold red" if state.status_error else "")
    return Text("")


def key_help(view: TableView, state: DisplayState) -> Text:
    """The key help, with the keys of the awaited decision first."""
    t = Text()
    if state.autoplay:
        t.append("virtual dealer playing · ", style="italic cyan")
    d = decision_help(view)
    if d:
        t.append(d + "   ", style="bold yellow")
    if state.simulated:
        t.append(SIM_HELP, style="cyan")
    t.append(HELP, style="dim")
    return t


def _fixed_lines(view: TableView) -> int:
    """Screen lines of everything but the events panel's body (for fitting a terminal)."""
    table_panel = len(view.seats) + 1 + 1 + 3 + 2  # rows + column header + blank + dealer/bar/next + border
    alarms = 1 if not view.alarms else 2 + 2 * len(view.alarms)
    return table_panel + alarms + 2 + 1 + 2  # events border, status, help (2 lines)


def render(view: TableView | None, state: DisplayState | None = None, *, height: int | None = None) -> RenderableType:
    """The whole screen for one view of the table. ``height``: the terminal's lines; the events
    panel then shows as many of the last events as fit (at least 2), else ``EVENTS_SHOWN``."""
    state = state or DisplayState()
    if view is None:
        return Group(Text("tablectl: waiting for the table…", style="bold"), status_line(state))
    waits = Text("Next: ", style="bold")
    waits.append(describe_prompt(view.prompt), style="bold yellow" if view.held else "yellow")
    table_body = Group(
        seats_table(view, state),
        Text(""),
        dealer_lines(view),
        penetration_bar(view),
        waits,
    )
    shown = EVENTS_SHOWN if height is None else max(2, height - _fixed_lines(view) - 1)
    return Group(
        Panel(table_body, title=header(view), title_align="left", border_style="red" if view.alarms else "green"),
        alarms_panel(view.alarms),
        events_panel(view.recent, shown),
        status_line(state),
        key_help(view, state),
    )


def render_text(view: TableView | None, state: DisplayState | None = None, *, width: int = 100, height: int | None = None) -> str:
    """The screen as plain text (tests, snapshots)."""
    from rich.console import Console

    console = Console(record=True, width=width, file=_Null(), color_system=None, force_terminal=False)
    console.print(render(view, state, height=height))
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
    "key_help",
    "money",
    "penetration_bar",
    "render",
    "render_text",
    "seats_table",
    "status_line",
]
