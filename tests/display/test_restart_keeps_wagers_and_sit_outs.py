"""A table started again on its log: each seat stands on the wagers it played in the last round
logged, the seats left out of that round still sit out, and the bank's seat keeps its stake, so a
routine ``n`` starts the round the dealer had (docs/operations.md §5). From plain values (the
``round_started`` line in, the display's state and the round ``n`` starts out), and once through a
real pty: the table stopped by SIGTERM and started again on the same log."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from atthekeys import Keys, seat_row, tablectl_command

from tablectl.config import load_config
from tablectl.display import keys as k
from tablectl.display.render import render_text
from tablectl.display.state import DisplayState
from tablectl.display.wagers import TableLimits
from tablectl.eventlog.verify import iter_events
from tablectl.table.inputs import StartRound
from tablectl.table.view import Prompt, SeatView, TableView

REPO = Path(__file__).resolve().parents[2]
OCP = REPO / "config" / "tables" / "one-card-poker.toml"
SEATS = range(1, 8)
#: round 1 as the dealer in the report had it: seats 3-6 out, seat 1 $20 + $5 Tie, seat 2 $30, DP seat 7
ROUND_1 = {"seq": 31, "event": "round_started", "round": 1, "seats": [1, 2],
           "wagers": {"1": {"primary": 2000, "tie": 500}, "2": {"primary": 3000}}, "banker": 7, "banker_stake": None,
           "shoe": 1, "dealer": "D-07", "last_round": False}


@pytest.fixture(scope="module")
def limits() -> TableLimits:
    return TableLimits.of(load_config(OCP))


def ready(banker: int | None = 7) -> TableView:
    """One Card Poker between rounds, seat ``banker`` to bank the next one."""
    return TableView(
        table="ocp-1", game="one-card-poker", state="ready", round=1, shoe=1, dealer_id="D-07",
        seats=tuple(SeatView(s, banker=s == banker) for s in SEATS), banker_seat=banker, dealer=(), board=(),
        penetration=0.02, cap=0.8, cards_drawn=8, cap_cards=249, last_round=False, cards_out=0,
        prompt=Prompt("start_round"), alarms=(), settlement=(), recent=(), processed={}, next_banker=banker, shoe_cards=312,
    )


def started(state: DisplayState, view: TableView) -> StartRound:
    action = k.handle_key("n", state, view).action
    assert isinstance(action, StartRound), action
    return action


def test_n_after_a_restart_starts_the_seats_of_the_last_round_on_their_wagers(limits: TableLimits) -> None:
    state = DisplayState(limits=limits).resumed(ROUND_1, SEATS)
    assert started(state, ready()) == StartRound(seats=(1, 2), wagers={1: {"primary": 2000, "tie": 500}, 2: {"primary": 3000}})


def test_after_a_restart_the_seats_show_their_wagers_and_who_sits_out(limits: TableLimits) -> None:
    text = render_text(ready(), DisplayState(limits=limits).resumed(ROUND_1, SEATS), width=80, height=24)
    rows = {int(line[:3]): line for line in text.splitlines() if line[:3].strip().isdigit()}
    assert "next: primary $20 tie $5" in rows[1] and "next: primary $30" in rows[2]
    assert all("sits out" in rows[s] for s in (3, 4, 5, 6)), text
    assert "DP" in rows[7]


def test_a_seat_that_banked_the_last_round_plays_when_the_bank_moves_on(limits: TableLimits) -> None:
    state = DisplayState(limits=limits).resumed(ROUND_1, SEATS)
    assert 7 not in state.sitting_out
    assert started(state, ready(banker=2)).seats == (1, 7)


def test_the_bank_keeps_the_stake_it_put_up(limits: TableLimits) -> None:
    stake = {**ROUND_1, "banker_stake": 5000}
    assert DisplayState(limits=limits).resumed(stake, SEATS).stakes == {7: 5000}


def test_wagers_on_a_bet_this_table_does_not_take_fall_back_to_the_table_default(limits: TableLimits) -> None:
    other_game = {**ROUND_1, "wagers": {"1": {"ante": 2000}, "2": {"primary": 3000}}}
    action = started(DisplayState(limits=limits).resumed(other_game, SEATS), ready())
    assert action.wagers == {1: limits.default, 2: {"primary": 3000}}


# --- through a real terminal ---------------------------------------------------------------------------


@pytest.fixture
def at_the_keys(tmp_path: Path) -> Iterator[Any]:
    opened: list[Keys] = []

    def start() -> Keys:
        keys = Keys([tablectl_command(), "run", str(OCP), "--simulate", "--seed", "5", "--log-dir", str(tmp_path / "logs")])
        opened.append(keys)
        return keys

    yield start
    for keys in opened:
        keys.t.kill()


def test_stopped_and_started_again_the_table_deals_the_next_round_to_the_same_seats_on_the_same_wagers(
        at_the_keys: Any, tmp_path: Path) -> None:
    first = at_the_keys()
    first.type(b"\r", lambda s: s.next.startswith("start a round") or not s.signed_in)
    first.type(b"dD-07\r", lambda s: s.signed_in)
    first.type(b"3 4 5 6 7o", lambda s: "DP" in seat_row(s, 7))
    first.type(b"1$20 tie 5\r", "seat 1 bets primary $20 tie $5")
    first.type(b"2$30\r", "seat 2 bets primary $30")
    first.type(b"0n", lambda s: s.state == "IN ROUND")
    os.kill(first.t.pid, signal.SIGTERM)
    first.t.wait(30)

    again = at_the_keys()
    s = again.type(b"", lambda s: "sits out" in seat_row(s, 6))
    assert "next: primary $20 tie $5" in again.seat_row(1), s.text
    assert "next: primary $30" in again.seat_row(2)
    assert all("sits out" in again.seat_row(seat) for seat in (3, 4, 5, 6)), s.text
    again.type(b"\r", lambda s: s.state == "READY")  # a new simulated shoe
    again.type(b"n", lambda s: s.state == "IN ROUND" and s.round == 2)
    round_2 = [r for r in iter_events([tmp_path / "logs"]) if r["event"] == "round_started"][-1]
    assert (round_2["round"], round_2["seats"], round_2["banker"]) == (2, [1, 2], 7)
    assert round_2["wagers"] == {"1": {"primary": 2000, "tie": 500}, "2": {"primary": 3000}}
