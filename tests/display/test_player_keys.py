"""``P`` and ``L`` in the key map, pure: the selected seat's player id typed and checked before it
is sent, the player's leaving confirmed by one key, and when it counts said on the status line."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from tablectl.display.keys import ENTER, KeyResult, handle_key
from tablectl.display.state import DisplayState
from tablectl.table.inputs import SeatPlayer
from tablectl.table.view import Prompt, SeatView, TableView


def make_view(**changes: Any) -> TableView:
    base = TableView(
        table="t", game="three-card-poker-florida", state="ready", round=4, shoe=1, dealer_id="D-01",
        seats=tuple(SeatView(s) for s in range(1, 8)), banker_seat=None, dealer=(), board=(),
        penetration=0.0, cap=0.9, cards_drawn=0, cap_cards=40, last_round=False, cards_out=0,
        prompt=Prompt("start_round"), alarms=(), settlement=(), recent=(), processed={},
    )  # fmt: skip
    return replace(base, **changes)


def press(keys: Iterable[str], view: TableView | None = None) -> tuple[DisplayState, list[Any]]:
    state, view, actions = DisplayState(), view or make_view(), []
    for key in keys:
        result: KeyResult = handle_key(key, state, view)
        state = result.state
        if result.action is not None:
            actions.append(result.action)
    return state, actions


def test_P_on_a_selected_seat_sends_the_typed_player_id() -> None:
    state, actions = press(["3", "P", *"P-1077", ENTER])
    assert actions == [SeatPlayer(3, "P-1077")]
    assert state.status == "seat 3: player P-1077" and not state.status_error


def test_P_during_a_round_says_the_id_counts_from_the_next_round() -> None:
    in_round = make_view(state="in_round", seats=(SeatView(1, in_play=True), *(SeatView(s) for s in range(2, 8))))
    state, _ = press(["2", "P", *"P-2", ENTER], in_round)
    assert state.status == "seat 2: player P-2 from round 5"


def test_P_with_no_seat_selected_asks_for_one_and_opens_nothing() -> None:
    state, actions = press(["P"])
    assert actions == [] and state.prompt is None and state.status == "select a seat first (1-9), then P"


def test_a_bad_id_is_refused_on_the_status_line_and_nothing_is_sent() -> None:
    state, actions = press(["1", "P", *"\u0420-1", ENTER])  # a Cyrillic Er: P to the eye
    assert actions == [] and state.status_error
    assert state.status == "seat 1: player id: '\u0420' (U+0420, character 1) is not ASCII"


def test_L_asks_to_confirm_and_y_sends_the_players_leaving() -> None:
    seated = make_view(seats=(SeatView(1, player="P-1"), *(SeatView(s) for s in range(2, 8))))
    state, actions = press(["1", "L"], seated)
    assert state.prompt is not None and state.prompt.yes_no and "seat 1: player P-1 leaves? (y/n)" in state.prompt.shown()
    state, actions = press(["1", "L", "y"], seated)
    assert actions == [SeatPlayer(1, None)] and state.status == "seat 1: the player leaves"


def test_L_answered_with_any_other_key_keeps_the_player() -> None:
    seated = make_view(seats=(SeatView(1, player="P-1"), *(SeatView(s) for s in range(2, 8))))
    state, actions = press(["1", "L", "n"], seated)
    assert actions == [] and state.status == "seat 1: the player stays"


def test_L_on_a_seat_with_no_player_says_so() -> None:
    state, actions = press(["4", "L"])
    assert actions == [] and state.status == "seat 4 has no player entered" and state.status_error
