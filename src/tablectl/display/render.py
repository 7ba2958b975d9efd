"""Render a ``TableView`` (and the display's state) as a rich renderable (pure: no I/O, no clock).

Layout, top to bottom, with no frames, so that 80x24 keeps everything that matters: the header
(table, game, state, round, shoe, dealer); the seats, one row each, with their face-up cards,
decisions, wagers (or the wagers they play next) and, once settled, each bet's result and the
seat's net; the bank's (DP's, player-dealer's) row with its stake, what it covers and, settled,
what it collects and pays and its result; a legend for what the rows abbreviate or mark; the
dealer's (or DP's) cards and the board; the penetration bar (cards of the shoe, the cap marked,
``LAST ROUND`` once announced); what the table waits for; the alarms in red, each with what to
do; as many of the last log events as fit; the status line and the key line.

Money is never cut. The seats are laid out to the terminal's width: when a seat's wagers or
results do not fit beside its cards with the bets' full names, every row names them short
(``PP`` pairplus, ``SCB`` six-card-bonus: ``BET_SHORT``) and the legend spells them out; what
still does not fit goes on the next line under the seat. A settled bet shows as a win
(``+$25``), a loss (``-$25``), a ``push``, a bet returned because the bank ran out (``NA $5``:
no action) or a win the bank's stake capped (``+$7 CAP``). Alarms and the key line wrap. The
events give way to all of it, then the column heads, then the penetration bar, then the alarms
(the first ones that fit, then one line that counts the rest by kind): the status line and the
key line are always on the screen. A closed round's results (after ``E``) are not shown: they
are paid.

``?`` swaps the table for the help: every key and what the marks mean.

A card shows as coloured text (``Q♥`` red, ``10♠`` white); a face-down slot (``None`` in the
view) as a card back ``▒▒``. The view holds no face-down card to begin with; as a second line of
defence the events panel drops the cards of any log line not marked face up, or going to the burn.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tablectl.display.keys import (
    HELP,
    HELP_KEYS,
    HELP_MARKS,
    SIM_HELP,
    bank_seat,
    decision_help,
)
from tablectl.display.state import DisplayState
from tablectl.rules.bets import money
from tablectl.table.view import AlarmView, Prompt, TableView

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
    if view.voided is not None:
        t.append(" · ")
        t.append(f"VOID {view.voided}", style="bold reverse red")
    t.append(f" · shoe {view.shoe if view.shoe is not None else '-'}")
    if view.dealer_id:
        t.append(f" · dealer {view.dealer_id}")
    else:
        t.append(" · NO DEALER SIGNED IN", style="bold yellow")
    t.append(" · ")
    t.append(game_title(view.game), style="bold cyan")
    return t


#: short names of the bets, when the full names do not fit one line per seat (the legend says them)
BET_SHORT: dict[str, str] = {
    "ante": "A", "play": "P", "pairplus": "PP", "six-card-bonus": "SCB", "ante-bonus": "AB",
    "bonus": "B", "trade": "T", "raise": "R", "flop": "F", "turn": "T", "river": "R",
    "primary": "P", "war": "W", "tie": "T",
}

#: how each kind of settled bet looks: a word where the amount alone would mislead
RESULT_STYLES = {"win": "bold green", "capped": "bold yellow", "loss": "red", "push": "white", "no-action": "bold cyan"}
MARKS = {
    "no-action": ("NA", "no action: the bank ran out, bet returned"),
    "capped": ("CAP", "won more than the bank had left: paid what was left"),
}
STATUS_WORDS = {
    "open": "not in this round",
    "next:": "what it bets next round",
}

SEAT_W = 3
STATUS_W = 11
RESULT_W = 8  # at least: the net's column, a space before it


class Settled(NamedTuple):
    """One settled bet as the screen shows it: ``kind`` is win, capped, loss, push or no-action."""

    bet: str
    kind: str
    net: int
    stake: int


def result_kind(outcome: str, net: int) -> str:
    """win, capped, loss, push or no-action: a returned bet is never a push, nor a capped win a win."""
    if outcome == "no-action":
        return "no-action"
    if outcome == "win-capped":
        return "capped"
    return "win" if net > 0 else ("loss" if net < 0 else "push")


def _results(settlement: Iterable[Mapping[str, Any]]) -> dict[int, list[Settled]]:
    """Each seat's settled bets in settlement order."""
    out: dict[int, list[Settled]] = {}
    for line in settlement:
        seat, net = line.get("seat"), line.get("net")
        if isinstance(seat, int) and isinstance(net, int):
            stake = line.get("stake")
            kind = result_kind(str(line.get("outcome", "")), net)
            out.setdefault(seat, []).append(Settled(str(line.get("bet", "?")), kind, net, stake if isinstance(stake, int) else 0))
    return out


def _signed(cents: int) -> str:
    return ("+" if cents > 0 else "") + money(cents)


def settled_text(r: Settled, label: str) -> Text:
    """``ante +$25``, ``ante -$25``, ``play push``, ``pairplus NA $5`` (returned), ``tie +$40 CAP``."""
    style = RESULT_STYLES[r.kind]
    if r.kind == "push":
        return Text(f"{label} push", style=style)
    if r.kind == "no-action":
        return Text(f"{label} NA {money(r.stake)}", style=style)
    if r.kind == "capped":
        return Text(f"{label} {_signed(r.net)} CAP", style=style)
    return Text(f"{label} {_signed(r.net)}", style=style)


def _wager_items(wagers: Mapping[str, int], label: Callable[[str], str], style: str = "") -> list[Text]:
    return [Text(f"{label(b)} {money(v)}", style=style) for b, v in wagers.items() if v]


def _pack(items: list[Text], width: int, sep: str = " ", first: Text | None = None) -> list[Text]:
    """``items`` in lines of at most ``width`` cells, broken between items only (an item wider
    than a line is folded)."""
    lines: list[Text] = []
    line = first.copy() if first is not None else Text()
    for item in items:
        gap = sep if line.cell_len else ""
        if line.cell_len and line.cell_len + len(gap) + item.cell_len > width:
            lines.append(line)
            line = Text()
            gap = ""
        line.append(gap)
        line.append_text(item)
        while line.cell_len > width:
            lines.append(line[:width])
            line = line[width:]
    if line.cell_len or not lines:
        lines.append(line)
    return lines


def _fit(text: Text, width: int) -> list[Text]:
    """One cell's text in lines of ``width`` (broken at spaces where it can)."""
    if text.cell_len <= width:
        return [text]
    words = text.split(" ")
    return _pack(list(words), width, sep=" ")


class SeatRow(NamedTuple):
    """The cells of one seat's row (or the bank's): text, before it is laid out."""

    seat: Text
    status: Text
    cards: Text
    money: list[Text]  # items, laid out a line apart when they do not fit
    money_lead: Text | None  # ``next:`` before the items
    result: Text
    bank: bool = False  # the bank's row: its items name no bet


def bank_cells(view: TableView, state: DisplayState, seat: int, results: Mapping[int, list[Settled]],
               in_round: bool) -> tuple[list[Text], Text | None, Text]:
    """The bank's (DP's, player-dealer's) money: its stake and what it covers; settled, what it
    collects and pays and its result (every player bet is settled against it)."""
    stake = view.banker_stake if in_round else None
    if stake is None:
        stake = state.stakes.get(seat)
    items: list[Text] = []
    if not in_round:
        if stake is not None:
            items.append(Text(f"stake {money(stake)}", style="magenta"))
        elif view.banker_limited:
            items.append(Text("stake not entered ($)", style="bold magenta"))
        items.append(Text("pays up to its stake" if view.banker_limited else "covers every bet", style="dim"))
        return items, Text("next:", style="dim"), Text("")
    if voided(view):
        items.append(Text(f"stake {money(stake)} returned" if stake is not None else "round voided: nothing paid or collected",
                          style=RESULT_STYLES["no-action"]))
        return items, None, Text("")
    settled = [r for rs in results.values() for r in rs]
    if stake is not None:
        items.append(Text(f"stake {money(stake)}", style="bold magenta"))
    if not settled and view.bank_could_pay is not None:  # the stake covers little of the action: say so
        items.append(Text(f"pays wins up to {money(stake or 0)}", style="magenta"))
        items.append(Text(f"⚠ short: could owe {money(view.bank_could_pay)}", style="bold yellow"))
        return items, None, Text("")
    if not settled:
        items.append(Text(f"pays wins up to {money(stake)}" if view.banker_limited and stake is not None
                          else ("pays up to its stake" if view.banker_limited else "covers every bet"), style="magenta"))
        return items, None, Text("")
    if not view.banker_limited:
        items.append(Text("covers every bet", style="magenta"))
    collects = -sum(r.net for r in settled if r.net < 0)
    pays = sum(r.net for r in settled if r.net > 0)
    items.append(Text(f"collects {money(collects)}", style="green"))
    items.append(Text(f"pays {money(pays)}", style="red"))
    returned = [r for r in settled if r.kind == "no-action"]
    if returned or any(r.kind == "capped" for r in settled):
        items.append(Text("stake used up", style=RESULT_STYLES["capped"]))
    if returned:
        n = len(returned)
        items.append(Text(f"returns {n} bet{'s' if n != 1 else ''} {money(sum(r.stake for r in returned))}", style=RESULT_STYLES["no-action"]))
    net = collects - pays
    return items, None, Text(_signed(net), style="bold green" if net > 0 else ("bold red" if net < 0 else "white"))


def voided(view: TableView) -> bool:
    """A supervisor voided the round in play: its wagers are returned, nothing is paid or collected."""
    return view.voided is not None and view.voided == view.round and any(s.in_play for s in view.seats)


def seat_rows(view: TableView, state: DisplayState, label: Callable[[str], str], *, compact: bool = False) -> list[SeatRow]:
    """Each seat's cells: status, face-up cards and decisions, wagers (settled: each bet's result,
    the bank: its stake and result), the round's net result. ``compact``: a settled seat's
    decisions that are bets too (``play``, ``trade``) are left to its results."""
    banker = _banker_kind(view.game)
    in_round = any(s.in_play for s in view.seats)
    results = _results(view.settlement) if in_round else {}  # a closed round's results are paid: gone
    deciding = view.prompt.seat if view.prompt.action == "decide" else None
    bank = bank_seat(view) if banker else None
    rows = []
    for s in view.seats:
        selected = s.seat == state.selected
        seat = Text(f"{'▶' if selected else ' '}{s.seat}", style="reverse bold" if selected else "bold")
        status = Text()
        banks = bank is not None and s.seat == bank and not s.in_play  # one seat banks: the round's, else the next one's
        if banks:
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
            status = Text("◆ " + ("DP" if banker == "dp" else "BANK") if banks else "◆ DECIDES", style="bold yellow")
        settled = results.get(s.seat)
        decisions = s.decisions
        if compact and settled:
            decisions = tuple(d for d in decisions if d not in {r.bet for r in settled})
        cards = cards_text(s.cards)
        if decisions:
            cards.append((" " if s.cards else "") + ("→" if compact else " → ").join(decisions))
        lead: Text | None = None
        result = Text("")
        if banks:
            items, lead, result = bank_cells(view, state, s.seat, results, in_round)
        elif s.in_play and voided(view):
            items = _wager_items(s.wagers, label, RESULT_STYLES["no-action"])
            lead = Text("returned", style="bold cyan")
        elif settled and len(settled) > 1 and all(r.kind == "no-action" for r in settled):
            items = [Text(f"NA every bet returned {money(sum(r.stake for r in settled))}", style=RESULT_STYLES["no-action"])]
            result = Text(_signed(0), style="white")
        elif settled:
            items = [settled_text(r, label(r.bet)) for r in settled]
            n = sum(r.net for r in settled)
            result = Text(_signed(n), style="bold green" if n > 0 else ("bold red" if n < 0 else "white"))
        elif s.in_play:
            items = _wager_items(s.wagers, label)
        elif state.limits is not None and s.seat not in state.sitting_out:
            items = _wager_items(state.standing.get(s.seat) or state.limits.default, label, "dim")
            lead = Text("next:", style="dim")
        else:
            items = []
        if s.player is not None:  # the player the pit entered: wraps with the money, never cut
            items = [*items, Text(f"player {s.player}", style="cyan")]
        rows.append(SeatRow(seat, status, cards, items, lead, result, banks))
    return rows


def _money_len(row: SeatRow) -> int:
    lead = row.money_lead.cell_len + 1 if row.money_lead is not None else 0
    return lead + sum(t.cell_len for t in row.money) + max(0, len(row.money) - 1)


def _bets_on_screen(view: TableView, state: DisplayState) -> list[str]:
    bets: list[str] = []
    names = [b for s in view.seats for b in s.wagers] + [str(line.get("bet", "")) for line in view.settlement]
    if state.limits is not None:
        names += [b for w in state.standing.values() for b in w] + list(state.limits.default)
    for b in names:
        if b and b not in bets:
            bets.append(b)
    return bets


def seats_block(view: TableView, state: DisplayState, width: int) -> tuple[list[Text], list[Text]]:
    """The seats as lines of ``width`` (a seat's money goes on a line below when it does not fit
    beside its cards: it is never cut), and the legend items for what the lines abbreviate or mark.

    Bets are named in full when every seat's money fits on its line, else by their short names
    (``BET_SHORT``), which the legend then spells out."""
    def widths(rows: list[SeatRow]) -> tuple[int, int, int]:
        cards_w = min(max([5, *(r.cards.cell_len for r in rows)]), max(12, width // 4))
        result_w = max([RESULT_W, *(r.result.cell_len + 1 for r in rows)])
        return cards_w, max(10, width - SEAT_W - STATUS_W - (cards_w + 1) - result_w), result_w

    def full(bet: str) -> str:  # the table's name for the bet
        return state.limits.name(bet) if state.limits is not None else bet

    rows, short = seat_rows(view, state, full), False
    cards_w, money_w, result_w = widths(rows)
    if any(_money_len(r) > money_w for r in rows if not r.bank):
        rows, short = seat_rows(view, state, lambda b: BET_SHORT.get(b, full(b)), compact=True), True
        cards_w, money_w, result_w = widths(rows)
    heads = ("#", "status", "cards · decisions" if cards_w >= 17 else "cards", "wagers · results", "net")
    lines = [_row_line(*(Text(h, style="bold dim") for h in heads), cards_w=cards_w, money_w=money_w, result_w=result_w)]
    for r in rows:
        lead = r.money_lead
        money_lines = _pack(r.money, money_w, sep=" ", first=lead) if (r.money or lead) else [Text()]
        card_lines = _fit(r.cards, cards_w)
        for i in range(max(len(money_lines), len(card_lines))):
            lines.append(_row_line(
                r.seat if i == 0 else Text(), r.status if i == 0 else Text(),
                card_lines[i] if i < len(card_lines) else Text(), money_lines[i] if i < len(money_lines) else Text(),
                r.result if i == 0 else Text(), cards_w=cards_w, money_w=money_w, result_w=result_w,
            ))
    legend: list[Text] = []
    if short:
        for b in _bets_on_screen(view, state):
            if BET_SHORT.get(b, b) != b:
                legend.append(Text.assemble((BET_SHORT[b], "bold"), f" {full(b)}"))
    shown_kinds = {r.kind for rs in (_results(view.settlement) if any(s.in_play for s in view.seats) else {}).values() for r in rs}
    for kind, (mark, meaning) in MARKS.items():
        if kind in shown_kinds:
            legend.append(Text.assemble((mark, RESULT_STYLES[kind]), f" {meaning}"))
    statuses = {r.status.plain.split(" ")[0] for r in rows} | {"next:" for r in rows if r.money_lead is not None and r.money_lead.plain == "next:"}
    for word, meaning in STATUS_WORDS.items():
        if word in statuses:
            legend.append(Text.assemble((word, "bold"), f" {meaning}"))
    return lines, legend


def _row_line(seat: Text, status: Text, cards: Text, money_: Text, result: Text, *, cards_w: int, money_w: int,
              result_w: int = RESULT_W) -> Text:
    """One screen line of the seats: each cell cut or padded to its column (the caller has laid
    the money out to fit), the net right-aligned."""
    t = Text(no_wrap=True, overflow="crop")
    for cell, w, gap in ((seat, SEAT_W - 1, " "), (status, STATUS_W - 1, " "), (cards, cards_w, " "), (money_, money_w, "")):
        c = cell.copy()
        c.truncate(w, pad=True)
        t.append_text(c)
        t.append(gap)
    t.append(" " * max(0, result_w - result.cell_len))
    t.append_text(result)
    return t


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
        "return_wagers": "return wagers (round voided), then end the round (E)",
        "change_shoe": "change the shoe (reshuffle due)",
        "identify": "identify the misread card (i)",
        "resolve": "SUPERVISOR: resolve the hold (S) or void the round (V)",
        "clear_fault": "clear the device fault",
        "none": "—",
    }.get(a, a.replace("_", " "))


def alarm_lines(a: AlarmView) -> Group:
    """One alarm in red, with what to do; a long text wraps onto the next lines, never cut."""
    what = Text(overflow="fold")
    what.append(f"⚠ {_alarm_tag(a)}", style="bold white on red")
    if a.round is not None:
        what.append(f" round {a.round}", style="bold red")
    what.append(f"  {a.detail}", style="red")
    todo = Text("  → ", style="bold red", overflow="fold")
    todo.append(a.what_to_do, style="bold")
    return Group(what, todo)


def _alarm_tag(a: AlarmView) -> str:
    return f"{'VIOLATION' if a.violation else 'DEVICE'} {a.kind.replace('_', ' ').upper()}"


def more_alarms(alarms: Iterable[AlarmView], shown: int) -> Text:
    """The line that stands for the alarms past the first ``shown``, one line whatever the width:
    ``⚠ and 4 more alarms: 3 VIOLATION WRONG STATE, 1 DEVICE JAM``."""
    rest = tuple(alarms)[shown:]
    kinds: dict[str, int] = {}
    for a in rest:
        kinds[_alarm_tag(a)] = kinds.get(_alarm_tag(a), 0) + 1
    said = f"⚠ and {len(rest)} more" if shown else f"⚠ {len(rest)}"
    t = Text(f"{said} alarm{'s' if len(rest) != 1 else ''}: ", style="bold red", no_wrap=True, overflow="ellipsis")
    t.append(", ".join(f"{n} {tag}" for tag, n in kinds.items()), style="red")
    return t


def alarms_panel(alarms: Iterable[AlarmView], shown: int | None = None) -> RenderableType:
    """The open violations and active faults in red, each with what to do; a long text wraps
    onto the next lines, never cut. ``shown``: only the first so many, then one line for the
    rest (:func:`more_alarms`); None: all."""
    alarms = tuple(alarms)
    if not alarms:
        return Text("no alarms", style="dim green")
    if shown is None or shown >= len(alarms):
        return Group(*(alarm_lines(a) for a in alarms))
    return Group(*(alarm_lines(a) for a in alarms[:shown]), more_alarms(alarms, shown))


def _value(v: Any) -> str:
    if isinstance(v, (list, tuple)):
        return "[" + " ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + " ".join(f"{k}:{_value(x)}" for k, x in v.items()) + "}"
    return "-" if v is None else str(v)


def event_line(record: Mapping[str, Any]) -> Text:
    """One log line for the events panel: ``#123 12:01:02 dealt card=Q♥ to=seat:3 round=4``.
    A card is shown only on a line marked face up, and never a burn's."""
    t = Text(no_wrap=True, overflow="ellipsis")
    t.append(f"#{record.get('seq', '?')} ", style="dim")
    ts = record.get("ts")
    if isinstance(ts, str) and len(ts) >= 19:
        t.append(ts[11:19] + " ", style="dim")
    event = str(record.get("event", "?"))
    style = "bold red" if event in ("violation", "alarm", "fault") else "bold"
    t.append(event, style=style)
    hidden = record.get("face") != "up" or record.get("to") == "burn" or event == "burned"
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
        t.append("   y yes · any other key no" if state.prompt.yes_no else "   Enter ok · Esc cancel", style="dim")
        return t
    if state.status:
        return Text(("✗ " if state.status_error else "· ") + state.status, style="bold red" if state.status_error else "",
                    no_wrap=True, overflow="ellipsis")
    return Text("")


def key_items(view: TableView, state: DisplayState) -> list[Text]:
    """The key line's items: the keys of the awaited decision first, then every key."""
    items: list[Text] = []
    if state.autoplay:
        items.append(Text("virtual dealer playing", style="italic cyan"))
    d = decision_help(view)
    if d:
        items.append(Text(d, style="bold yellow"))
    items += [Text(k, style="cyan") for k in SIM_HELP.split(" · ") if k.strip()] if state.simulated else []
    items += [Text(k, style="dim") for k in HELP.split(" · ")]
    return items


def key_help(view: TableView, state: DisplayState, width: int = 100) -> Group:
    """The key line (lines, at ``width``: it wraps between keys, never cuts one)."""
    return Group(*_pack(key_items(view, state), width, sep=" · "))


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


def legend_lines(items: list[Text], width: int) -> list[Text]:
    """What the seats abbreviate or mark, said once (a line or two)."""
    return _pack([i.copy() for i in items], width, sep=" · ") if items else []


def _height(parts: list[RenderableType], width: int) -> int:
    from rich.console import Console

    console = Console(width=width, file=_Null(), color_system=None, force_terminal=False, legacy_windows=False)
    return sum(len(console.render_lines(p, console.options.update(width=width), pad=False)) for p in parts)


def render(view: TableView | None, state: DisplayState | None = None, *, height: int | None = None, width: int | None = None) -> RenderableType:
    """The whole screen for one view of the table. ``height``: the terminal's lines; the events
    then show as many of the last lines as fit (none on a screen too small), else
    ``EVENTS_SHOWN``. ``width``: the terminal's columns (below 100: a shorter bar); 100 when
    not given. Seats' money, the bank's line, the alarms and the keys are laid out to the width
    and never cut: the events give way first, then the column heads, then the penetration bar,
    then the alarms (the first ones that fit, then one line for the rest), so that the status
    line (with a prompt being typed) and the key line are always on the screen."""
    state = state or DisplayState()
    if view is None:
        return Group(Text("tablectl: waiting for the table…", style="bold"), status_line(state))
    title = header(view)
    if state.help:
        return Group(title, help_screen(), status_line(state))
    cols = width if width is not None else 100
    narrow = cols < 100
    waits = Text("Next: ", style="bold", overflow="fold")
    waits.append(describe_prompt(view.prompt), style="bold yellow" if view.held else "yellow")
    seat_lines, legend = seats_block(view, state, cols)
    top: list[RenderableType] = [title, *seat_lines, *legend_lines(legend, cols),
                                 dealer_lines(view), penetration_bar(view, NARROW_BAR if narrow else BAR_WIDTH), waits]
    bottom: list[RenderableType] = [status_line(state), key_help(view, state, cols)]
    alarms = alarms_panel(view.alarms)
    if height is None:
        shown_events = EVENTS_SHOWN
    else:
        used = _height([*top, alarms, *bottom], cols)
        # too tall for the terminal: the column heads, then the bar give way (the events went first)
        if used > height:
            top.pop(1)
            used -= 1
        if used > height:
            top = [p for p in top if not (isinstance(p, Text) and p.plain.startswith("Penetration "))]
            used -= 1
        if used > height:
            room = height - (used - _height([alarms], cols)) - 1  # the line that stands for the rest
            shown = 0
            for a in view.alarms:
                room -= _height([alarm_lines(a)], cols)
                if room < 0:
                    break
                shown += 1
            alarms = alarms_panel(view.alarms, shown)
            used = _height([*top, alarms, *bottom], cols)
        shown_events = max(0, height - used - 1)
    parts = [*top, alarms]
    if shown_events:
        parts.append(events_panel(view.recent, shown_events))
    parts += bottom
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
    "alarm_lines",
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
    "more_alarms",
    "penetration_bar",
    "render",
    "render_text",
    "result_kind",
    "seats_block",
    "settled_text",
    "status_line",
]
