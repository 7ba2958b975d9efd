"""Every shipped table's screen, mid-round and settling, at 80x24 and 120x40: no seat's wagers or
results and no line of the bank's is cut. The screens are rendered from plain state values
(``render_text``), as the live display draws them.

What is checked on each screen: it fits the terminal (no line longer than its width, no more lines
than its height); every amount the state holds is on its seat's lines whole, beside its bet's name
(or the short name the legend spells out); a bet returned because the bank ran out (``NA``), a win
the bank's stake capped (``CAP``), a push, a win and a loss each look different; the bank's stake,
what it covers and its result are on its row; no ``…`` in a seat's lines; the whole key line is on
the screen; the legend explains what the screen abbreviates.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tablectl.config import load_config
from tablectl.display.keys import HELP
from tablectl.display.render import BET_SHORT, render_text
from tablectl.display.state import DisplayState
from tablectl.display.wagers import TableLimits
from tablectl.rules.bets import money
from tablectl.rounds import BetResult
from tablectl.rules.coverage import Cover
from tablectl.table.view import AlarmView, Prompt, SeatView, TableView

REPO = Path(__file__).resolve().parents[2]
CONFIGS = sorted((REPO / "config" / "tables").glob("*.toml"))
SIZES = [(80, 24), (120, 40)]

#: every bet a round of the game settles (the wagers placed before the deal and the bets that follow)
SETTLED_BETS = {
    "one-card-poker": ("primary", "war", "tie"),
    "three-card-poker": ("ante", "play", "pairplus", "six-card-bonus", "ante-bonus"),
    "three-card-poker-florida": ("ante", "play", "pairplus"),
    "texas-holdem-bonus": ("ante", "flop", "turn", "river", "bonus"),
    "one-for-the-money": ("ante", "trade", "raise", "bonus"),
}
SIDE_BETS = frozenset(("tie", "pairplus", "six-card-bonus", "bonus"))
CARDS = {"one-card-poker": 1, "three-card-poker": 3, "three-card-poker-florida": 3, "texas-holdem-bonus": 2, "one-for-the-money": 3}
DECISIONS = {
    "one-card-poker": ("extend",),
    "three-card-poker": ("play",),
    "three-card-poker-florida": ("raise",),
    "texas-holdem-bonus": ("flop", "turn", "river"),
    "one-for-the-money": ("trade", "raise"),
}
FACES = ("AS", "KH", "QD", "JC", "TS", "9H", "8D")


@dataclass(frozen=True)
class Table:
    """A shipped config, as the display sees it."""

    name: str
    game: str
    seats: int
    banker: str | None
    limits: TableLimits

    @property
    def bank(self) -> int | None:
        return 1 if self.banker else None


def table(path: Path) -> Table:
    config = load_config(path)
    game = config.game_def
    return Table(path.stem, game.id, config.seats, game.banker, TableLimits.of(config))


def _wagers(t: Table, seat: int) -> dict[str, int]:
    """Big, uneven wagers: the table maximum on the required bet, every side bet placed."""
    top = t.limits.limits[t.limits.required[0]].maximum - 1500 * (seat % 3)
    out = {t.limits.required[0]: top}
    for i, bet in enumerate(b for b in t.limits.bets if b not in out):
        out[bet] = 2500 * (i + 1) + 500 * seat
    return out


def base_view(t: Table, **changes: Any) -> TableView:
    fields: dict[str, Any] = dict(
        table=t.name, game=t.game, state="in_round", round=41, shoe=7, dealer_id="D-07",
        seats=(), banker_seat=t.bank, dealer=(None,) * CARDS[t.game], board=(),
        penetration=0.62, cap=0.9, cards_drawn=193, cap_cards=280, last_round=False, cards_out=0,
        prompt=Prompt("deal", to=("seat:3", "seat:4")), alarms=(), settlement=(), recent=(), processed={},
        next_banker=t.bank, shoe_cards=312, banker_stake=300000 if t.banker else None,
        banker_limited=t.limits.banker_stake_limits,
    )
    fields.update(changes)
    return TableView(**fields)


def mid_round(t: Table) -> tuple[TableView, DisplayState]:
    """Cards out and a decision awaited; one seat sits out, the last plays next round on big wagers."""
    seats = []
    for n in range(1, t.seats + 1):
        if n == t.bank:
            seats.append(SeatView(n, banker=True, wants_bank=True))
        elif n == t.seats:
            seats.append(SeatView(n, wants_bank=True))
        elif n == t.seats - 1:
            seats.append(SeatView(n))
        else:
            cards = tuple(FACES[(n + i) % len(FACES)] if i % 2 == 0 else None for i in range(CARDS[t.game]))
            seats.append(SeatView(n, in_play=True, wants_bank=bool(t.banker), wagers=_wagers(t, n), cards=cards,
                                  decisions=DECISIONS[t.game][: n % 2]))
    state = DisplayState(
        limits=t.limits, autoplay=True, simulated=True, sitting_out=frozenset({t.seats - 1}),
        standing={t.seats: _wagers(t, t.seats)}, status="decision seat 2: taken",
    )
    view = base_view(t, seats=tuple(seats), prompt=Prompt("decide", seat=2, options=("raise", "check", "fold", "trade")))
    return view, state


def settling(t: Table) -> tuple[TableView, DisplayState]:
    """Every seat in play, every bet settled: wins, losses, pushes, and where the bank's stake
    limits it, a capped win and bets returned."""
    view, state = mid_round(t)
    seats, lines = [], []
    cover = Cover(view.banker_stake if t.limits.banker_stake_limits else None)
    for s in view.seats:
        if s.banker or not (s.in_play or s.seat >= t.seats - 1):
            seats.append(s)
            continue
        wagers = _wagers(t, s.seat)
        s = SeatView(s.seat, in_play=True, wants_bank=s.wants_bank, wagers=wagers, cards=tuple(FACES[: CARDS[t.game]]),
                     decisions=DECISIONS[t.game])
        seats.append(s)
        main = wagers[t.limits.required[0]]
        for i, bet in enumerate(SETTLED_BETS[t.game]):
            stake = wagers.get(bet, main)
            if bet in SIDE_BETS and s.seat == 5:
                outcome, pays, net = "straight-flush", "40:1", stake * 40
            else:
                outcome, pays, net = [("win", "1:1", stake), ("lose", "", -stake), ("push", "", 0)][(s.seat + i) % 3]
            r = cover.apply(BetResult(s.seat, bet, stake, outcome, pays, net))
            lines.append({"round": 41, **r._asdict()})
    view = base_view(t, seats=tuple(seats), state="settling", prompt=Prompt("end_round"), settlement=tuple(lines),
                     dealer=tuple(FACES[1 : 1 + CARDS[t.game]]), board=("2C", "3C", "4C", "5D", "9S") if t.game == "texas-holdem-bonus" else ())
    return view, DisplayState(limits=t.limits, autoplay=True, simulated=True)


# --- reading the screen ---------------------------------------------------------------------------


def seat_block(lines: list[str], seat: int) -> str:
    """The seat's row and the lines it continues on."""
    start = next(i for i, ln in enumerate(lines) if re.match(rf"^[ ▶]{seat} ", ln))
    block = [lines[start]]
    for ln in lines[start + 1 :]:
        if not ln.startswith("   ") or not ln.strip():
            break
        block.append(ln)
    return "\n".join(block)


def amount_beside(block: str, bet: str, shown: str, named: str | None = None) -> bool:
    """``bet`` by the table's name for it (``named``) or its short name, then ``shown`` on the
    seat's lines, whole."""
    full = named or bet
    names = "|".join(re.escape(n) for n in {full, BET_SHORT.get(bet, full)})
    return re.search(rf"(?<![\w-])(?:{names}) {re.escape(shown)}(?![\d.])", block) is not None


def expected(line: dict[str, Any]) -> str:
    outcome, net, stake = line["outcome"], line["net"], line["stake"]
    if outcome == "no-action":
        return f"NA {money(stake)}"
    sign = "+" if net > 0 else ""
    if outcome == "win-capped":
        return f"{sign}{money(net)} CAP"
    return "push" if net == 0 else f"{sign}{money(net)}"


def check_screen(view: TableView, state: DisplayState, cols: int, rows: int) -> str:
    text = render_text(view, state, width=cols, height=rows)
    lines = text.splitlines()
    assert len(lines) <= rows, text
    assert all(len(ln) <= cols for ln in lines), [ln for ln in lines if len(ln) > cols]
    keys = " · ".join(ln.strip() for ln in lines[-3:])
    assert HELP.replace(" · ", " ") in keys.replace(" · ", " "), text
    named = state.limits.name if state.limits is not None else str
    by_seat: dict[int, list[dict[str, Any]]] = {}
    for line in view.settlement:
        by_seat.setdefault(line["seat"], []).append(line)
    for s in view.seats:
        block = seat_block(lines, s.seat)
        assert "…" not in block, block
        if s.seat in by_seat:
            if len(by_seat[s.seat]) > 1 and all(line["outcome"] == "no-action" for line in by_seat[s.seat]):
                assert f"NA every bet returned {money(sum(line['stake'] for line in by_seat[s.seat]))}" in block, block
            for line in by_seat[s.seat] if "NA every bet" not in block else ():
                assert amount_beside(block, line["bet"], expected(line), named(line["bet"])), (line, block)
            net = sum(line["net"] for line in by_seat[s.seat])
            assert block.splitlines()[0].rstrip().endswith(("+" if net > 0 else "") + money(net)), block
        elif s.in_play:
            for bet, amount in s.wagers.items():
                assert amount_beside(block, bet, money(amount), named(bet)), (bet, amount, block)
        elif s.seat in state.standing:
            assert "next:" in block
            for bet, amount in state.standing[s.seat].items():
                assert amount_beside(block, bet, money(amount), named(bet)), (bet, amount, block)
    return text


def check_bank(view: TableView, text: str, t: Table) -> None:
    assert t.bank is not None
    block = seat_block(text.splitlines(), t.bank)
    label = "DP" if t.banker == "dp" else "BANK"
    assert label in block.splitlines()[0]
    assert f"stake {money(view.banker_stake or 0)}" in block
    if view.settlement:
        nets = [line["net"] for line in view.settlement]
        collects, pays = -sum(n for n in nets if n < 0), sum(n for n in nets if n > 0)
        assert f"collects {money(collects)}" in block and f"pays {money(pays)}" in block, block
        result = collects - pays
        assert block.splitlines()[0].rstrip().endswith(("+" if result > 0 else "") + money(result)), block
    else:
        assert ("pays wins up to" if view.banker_limited else "covers every bet") in block, block


# --- the tests ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("cols", "rows"), SIZES)
@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.stem)
def test_mid_round_no_wager_is_cut(path: Path, cols: int, rows: int) -> None:
    t = table(path)
    view, state = mid_round(t)
    text = check_screen(view, state, cols, rows)
    if t.banker:
        check_bank(view, text, t)
    assert "open" not in text or "open not in this round" in text
    assert "next: what it bets next round" in " ".join(text.split()) or "next:" not in text


@pytest.mark.parametrize(("cols", "rows"), SIZES)
@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.stem)
def test_settling_no_result_is_cut_and_each_kind_looks_different(path: Path, cols: int, rows: int) -> None:
    t = table(path)
    view, state = settling(t)
    text = check_screen(view, state, cols, rows)
    if t.banker:
        check_bank(view, text, t)
    flat = " ".join(text.split())
    if t.limits.banker_stake_limits:
        assert "NA no action" in flat and "CAP won more than the bank had left" in flat, text
        assert "stake used up" in flat


@pytest.mark.parametrize(("cols", "rows"), SIZES)
def test_a_violation_wraps_its_text_and_what_to_do(cols: int, rows: int) -> None:
    t = table(REPO / "config" / "tables" / "three-card-poker.toml")
    view, state = settling(t)
    alarm = AlarmView(
        "settlement_failed", 41, "seat 6: the six-card-bonus cannot be settled: the player-dealer's hand has only two cards on the layout",
        "Supervisor: count the cards on the layout, then resolve the hold (S) or void the round (V) and return every wager.",
    )
    view = base_view(t, **{**{f: getattr(view, f) for f in ("seats", "settlement", "dealer")}, "state": "held", "alarms": (alarm,), "prompt": Prompt("resolve")})
    text = check_screen(view, state, cols, rows)
    flat = " ".join(text.split())
    assert alarm.detail in flat and f"→ {alarm.what_to_do}" in flat


def test_the_results_of_a_closed_round_are_not_shown_on_the_new_bank() -> None:
    t = table(REPO / "config" / "tables" / "one-card-poker.toml")
    view, state = settling(t)
    # E: the round is closed, the bank moved to seat 2; the settlement of the round paid is gone
    seats = tuple(SeatView(s.seat, banker=s.seat == 2) for s in view.seats)
    closed = base_view(t, seats=seats, state="ready", prompt=Prompt("start_round"), settlement=view.settlement,
                       banker_seat=2, next_banker=2, banker_stake=None)
    lines = render_text(closed, DisplayState(limits=t.limits, stakes={2: 30000}), width=80, height=24).splitlines()
    dp = seat_block(lines, 2)
    assert "DP" in dp and "next: stake $300" in dp
    assert not re.search(r"[+-]\$\d", "\n".join(seat_block(lines, s.seat) for s in seats)), "\n".join(lines)


def test_a_bet_returned_a_capped_win_a_push_a_win_and_a_loss_look_different() -> None:
    t = table(REPO / "config" / "tables" / "three-card-poker.toml")
    lines = (
        {"seat": 2, "bet": "ante", "stake": 2500, "outcome": "win", "pays": "1:1", "net": 2500},
        {"seat": 2, "bet": "play", "stake": 2500, "outcome": "push", "pays": "", "net": 0},
        {"seat": 2, "bet": "pairplus", "stake": 500, "outcome": "win-capped", "pays": "40:1", "net": 700},
        {"seat": 3, "bet": "ante", "stake": 2500, "outcome": "lose", "pays": "", "net": -2500},
        {"seat": 3, "bet": "pairplus", "stake": 500, "outcome": "no-action", "pays": "", "net": 0},
    )
    seats = (SeatView(1, banker=True), SeatView(2, in_play=True, cards=("AS", "KS", "QS")), SeatView(3, in_play=True, cards=("2C", "7D", "9H")))
    view = base_view(t, seats=seats, state="settling", prompt=Prompt("end_round"), settlement=lines, banker_stake=3200)
    text = render_text(view, DisplayState(limits=t.limits), width=80, height=24)
    seat2, seat3 = seat_block(text.splitlines(), 2), seat_block(text.splitlines(), 3)
    assert "ante +$25" in seat2 and "play push" in seat2 and "pairplus +$7 CAP" in seat2
    assert "ante -$25" in seat3 and "pairplus NA $5" in seat3
    assert "returns 1 bet $5" in seat_block(text.splitlines(), 1)


def test_the_bank_deciding_keeps_its_label_and_its_stake() -> None:
    t = table(REPO / "config" / "tables" / "one-card-poker.toml")
    view, state = mid_round(t)
    view = base_view(t, seats=view.seats, prompt=Prompt("decide", seat=1, options=("extend", "dp-declines"), banker=True))
    bank = seat_block(render_text(view, state, width=80, height=24).splitlines(), 1)
    assert "◆ DP" in bank and "stake $3,000" in bank and "covers every bet" in bank
