"""The bank's stake at the keys (``$`` on the banking seat), pure: an amount beyond what the bank
could ever pay at the table's limits is refused in one line, as a wager outside its limits is, by
the controller's own rule (``tablectl.table.procedure.cover.bank_stake_limit``); anything but digits and a
point is not a stake. A refused stake is not kept: ``n`` still asks for one."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tablectl.config import load_config
from tablectl.display.keys import ENTER, KeyResult, handle_key
from tablectl.display.state import DisplayState
from tablectl.display.wagers import TableLimits
from tablectl.table.view import Prompt, SeatView, TableView

TCP = load_config(Path(__file__).resolve().parents[2] / "config" / "tables" / "three-card-poker.toml")
LIMITS = TableLimits.of(TCP)  # 8 seats, max_bet $500: seven seats at every bet's maximum


def make_view(**changes: Any) -> TableView:
    base = TableView(
        table="tcp-1", game="three-card-poker", state="ready", round=None, shoe=1, dealer_id="D-07",
        seats=tuple(SeatView(s) for s in range(1, 9)), banker_seat=None, next_banker=8, dealer=(), board=(),
        penetration=0.0, cap=0.9, cards_drawn=0, cap_cards=46, last_round=False, cards_out=0,
        prompt=Prompt("start_round"), alarms=(), settlement=(), recent=(), processed={},
    )  # fmt: skip
    return replace(base, **changes)


def press(keys: Iterable[str], state: DisplayState | None = None) -> tuple[DisplayState, list[Any]]:
    state, view, actions = state or DisplayState(limits=LIMITS), make_view(), []
    for key in keys:
        result: KeyResult = handle_key(key, state, view)
        state = result.state
        if result.action is not None:
            actions.append(result.action)
    return state, actions


def stake(text: str) -> DisplayState:
    """Seat 8 (the bank) stakes ``text``."""
    return press(["8", "$", *text, ENTER])[0]


def test_a_20_digit_stake_is_refused_in_one_line_with_the_most_the_bank_could_pay() -> None:
    state = stake("9" * 20)
    assert state.status_error and state.status == (
        "seat 8: stake: $99,999,999,999,999,999,999 is outside the limits $0.01-$227,500"
    )
    state, actions = press(["0", "n"], state)
    assert actions == [] and state.status == "seat 8 banks: enter its stake first (select 8, then $)"


def test_the_most_the_bank_could_pay_is_a_stake_and_a_cent_more_is_not() -> None:
    state = stake("227500")
    assert not state.status_error and state.status == "seat 8 banks with $227,500"
    assert press(["0", "n"], state)[1][0].banker_stake == 22_750_000
    assert stake("227500.01").status == "seat 8: stake: $227,500.01 is outside the limits $0.01-$227,500"


@pytest.mark.parametrize("text", ["1e9", "1e999999", "1_000", "-5", "Infinity"])
def test_a_stake_written_other_than_in_digits_is_not_a_stake(text: str) -> None:
    state = stake(text)
    assert state.status_error and state.status == f"seat 8: {text!r} is not a stake in dollars"
    assert 8 not in state.stakes
