"""Many open alarms on a small terminal: the alarms panel gives way (the first alarms that fit, then
one line for the rest), so that the status line with the supervisor's prompt and the key line are
always on the screen. Rendered from plain values on rich's Console at the terminal's size, as the
live display draws a frame (a ``Layout`` of the terminal's lines: what does not fit is cut)."""

from __future__ import annotations

import io

from rich.console import Console
from rich.layout import Layout

from tablectl.display.render import render
from tablectl.display.state import DisplayState, PromptField, TextPrompt
from tablectl.table.procedure.validation import BURN_MISSING, WHAT_TO_DO, WRONG_STATE
from tablectl.table.view import AlarmView, Prompt, SeatView, TableView

DETAIL = "a card was drawn while the table is held"
#: what the dealer in the report had: a burn missing, then a card drawn five times while held
ALARMS = (
    AlarmView(BURN_MISSING, 1, "a burn was due (after_shuffle) and the card was dealt", WHAT_TO_DO[BURN_MISSING]),
    *(AlarmView(WRONG_STATE, 1, DETAIL, WHAT_TO_DO[WRONG_STATE]) for _ in range(5)),
)
CREDENTIAL = TextPrompt("resolve", (PromptField("supervisor id"), PromptField("credential", hidden=True)), values=("demo",), buffer="xy")
KEY_LINE_END = "S resolve · Q quit"


def held_table(alarms: tuple[AlarmView, ...] = ALARMS) -> TableView:
    """One Card Poker, seven seats, round 1 held."""
    return TableView(
        table="ocp-1", game="one-card-poker", state="held", round=1, shoe=1, dealer_id="D-07",
        seats=tuple(SeatView(s, in_play=s <= 6, banker=s == 7, wagers={"primary": 1000} if s <= 6 else {}) for s in range(1, 8)),
        banker_seat=7, dealer=(), board=(), penetration=0.02, cap=0.8, cards_drawn=8, cap_cards=249, last_round=False,
        cards_out=0, prompt=Prompt("resolve"), alarms=alarms, settlement=(), recent=(), processed={}, shoe_cards=312,
    )


def on_screen(view: TableView, state: DisplayState, *, cols: int = 80, rows: int = 24) -> list[str]:
    """The terminal's lines as the live display draws them."""
    console = Console(width=cols, height=rows, record=True, color_system=None, force_terminal=False, file=io.StringIO())
    console.print(Layout(render(view, state, height=rows, width=cols)))
    lines = console.export_text().splitlines()
    assert len(lines) == rows
    return [line.rstrip() for line in lines]


def test_at_80x24_the_credential_prompt_and_the_key_line_stay_on_screen_under_six_alarms() -> None:
    lines = on_screen(held_table(), DisplayState(prompt=CREDENTIAL))
    text = "\n".join(lines)
    assert any(line.startswith("» credential: **") for line in lines), text
    assert lines[-1].endswith(KEY_LINE_END), text
    assert "⚠ VIOLATION BURN MISSING round 1" in text  # the first alarm, the one that held the table
    assert text.count(DETAIL) < 5
    assert "more alarms: " in text and "VIOLATION WRONG STATE" in text.split("more alarms: ")[1], text


def test_at_80x24_a_refused_credential_and_the_tries_left_stay_on_screen_under_six_alarms() -> None:
    said = "supervisor 'demo': credential not accepted · 2 more wrong and the id is locked for 300 s"
    lines = on_screen(held_table(), DisplayState().with_status(said, error=True))
    assert any(line.startswith("✗ supervisor 'demo': credential not accepted · 2 more wrong") for line in lines), "\n".join(lines)
    assert lines[-1].endswith(KEY_LINE_END)


def test_the_alarms_left_out_are_one_line_counting_each_kind_and_a_tall_terminal_shows_them_all() -> None:
    lines = on_screen(held_table(), DisplayState(prompt=CREDENTIAL))
    shown = sum(1 for line in lines if line.startswith("⚠ VIOLATION WRONG STATE"))
    more = next((line for line in lines if "more alarms: " in line), "\n".join(lines))
    assert more == f"⚠ and {5 - shown} more alarms: {5 - shown} VIOLATION WRONG STATE"
    tall = "\n".join(on_screen(held_table(), DisplayState(prompt=CREDENTIAL), rows=60))
    assert tall.count(DETAIL) == 5 and "⚠ VIOLATION BURN MISSING" in tall
    assert "more alarm" not in tall
    assert "» credential: **" in tall and KEY_LINE_END in tall
