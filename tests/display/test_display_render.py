"""The display's render, pure: plain ``TableView`` values in, the screen's text out."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tablectl.display.render import CARD_BACK, card_text, event_line, money, penetration_bar, render_text
from tablectl.display.state import DisplayState, PromptField, TextPrompt
from tablectl.table.view import AlarmView, Prompt, SeatView, TableView


def make_view(**changes: Any) -> TableView:
    seats = (
        SeatView(1, in_play=True, wagers={"ante": 500}, cards=("QH",), decisions=("trade", "stand")),
        SeatView(2, in_play=True, wagers={"ante": 1000, "bonus": 250}, cards=("TS",)),
        SeatView(3),
    )
    base = TableView(
        table="otm-1",
        game="one-for-the-money",
        state="in_round",
        round=12,
        shoe=3,
        dealer_id="D-07",
        seats=seats,
        banker_seat=None,
        dealer=(None, None),
        board=(),
        penetration=0.4712,
        cap=0.9,
        cards_drawn=147,
        cap_cards=280,
        last_round=False,
        cards_out=0,
        prompt=Prompt("decide", seat=2, options=("check", "raise", "trade")),
        alarms=(),
        settlement=(),
        recent=(),
        processed={},
        shoe_cards=312,
    )
    return replace(base, **changes)


def screen(view: TableView | None, state: DisplayState | None = None) -> str:
    return render_text(view, state, width=100)


def test_header_shows_table_game_state_round_shoe_and_dealer() -> None:
    text = screen(make_view())
    assert "otm-1" in text
    assert "One for the Money" in text
    assert "IN ROUND" in text
    assert "round 12" in text
    assert "shoe 3" in text
    assert "dealer D-07" in text


def test_face_up_cards_show_as_rank_and_suit_symbol() -> None:
    text = screen(make_view())
    assert "Q♥" in text
    assert "10♠" in text


def test_a_hidden_dealer_card_shows_as_a_back() -> None:
    text = screen(make_view(dealer=(None, None)))
    assert f"Dealer: {CARD_BACK} {CARD_BACK}" in text


def test_a_revealed_dealer_card_shows_its_value() -> None:
    text = screen(make_view(dealer=("AS", "2D")))
    assert "Dealer: A♠ 2♦" in text
    assert CARD_BACK not in text


def test_a_hidden_seat_card_shows_as_a_back_beside_face_up_ones() -> None:
    view = make_view(seats=(SeatView(1, in_play=True, cards=("KC", None)),))
    assert f"K♣ {CARD_BACK}" in screen(view)


def test_a_face_down_log_line_never_shows_its_card() -> None:
    # even if a face-down line reached the display with its card, the card is not drawn
    recent = (
        {"seq": 7, "event": "dealt", "card": "KD", "to": "dealer", "face": "down", "round": 12},
        {"seq": 8, "event": "burned", "card": "7C", "to": "burn", "face": "down"},
        {"seq": 9, "event": "dealt", "card": "3H", "to": "seat:1", "face": "up", "round": 12},
    )
    text = screen(make_view(recent=recent))
    assert "K♦" not in text and "KD" not in text
    assert "7♣" not in text and "7C" not in text
    assert "#9" in text and "3♥" in text
    assert "#7" in text and "to=dealer" in text


def test_the_revealed_line_shows_the_revealed_cards() -> None:
    line = event_line({"seq": 10, "event": "revealed", "to": "dealer", "cards": ["KD", "4S"], "face": "up"})
    assert "K♦ 4♠" in line.plain


def test_penetration_counts_cards_of_the_shoe_and_marks_the_cap_on_the_same_base() -> None:
    text = screen(make_view())
    assert "147/312 cards 47.1% · cap 280 (90%)" in text


def test_the_cap_mark_sits_at_the_cap_on_the_bar() -> None:
    bar = penetration_bar(make_view(penetration=0.25, cap=0.5), width=20).plain
    inside = bar[bar.index("[") + 1 : bar.index("]")]
    assert inside.index("│") == 10
    assert inside.count("█") == 5


def test_last_round_is_announced_on_the_bar() -> None:
    assert "LAST ROUND" not in screen(make_view())
    assert "LAST ROUND" in screen(make_view(last_round=True))


def test_a_continuous_shuffler_shows_cards_out_instead_of_penetration() -> None:
    text = screen(make_view(penetration=None, cap=None, cap_cards=None, cards_out=9))
    assert "continuous shuffler · 9 cards out" in text
    assert "cap" not in text.split("Penetration")[1].splitlines()[0]


def test_an_alarm_shows_its_kind_detail_and_what_to_do() -> None:
    alarm = AlarmView("foreign_card", 12, "KS seen 7 times in a 6-deck shoe", "Remove it; supervisor checks the shoe.")
    text = screen(make_view(alarms=(alarm,), state="held", prompt=Prompt("resolve")))
    assert "VIOLATION FOREIGN CARD" in text
    assert "KS seen 7 times in a 6-deck shoe" in text
    assert "→ Remove it; supervisor checks the shoe." in text
    assert "HELD" in text
    assert "SUPERVISOR: resolve the hold (S)" in text


def test_a_device_fault_is_labelled_as_a_device_alarm() -> None:
    alarm = AlarmView("disconnected", None, "shoe: link down", "Clear the device fault (attendant).", violation=False)
    text = screen(make_view(alarms=(alarm,), state="device_fault"))
    assert "DEVICE DISCONNECTED" in text
    assert "Clear the device fault" in text


def test_no_alarms_says_so() -> None:
    assert "no alarms" in screen(make_view())


def test_the_deciding_seat_and_its_decision_keys_are_shown() -> None:
    text = screen(make_view())
    assert "◆ DECIDES" in text
    assert "seat 2: [c] check  [r] raise  [t] trade" in text


def test_the_selected_seat_is_marked() -> None:
    text = screen(make_view(), DisplayState(selected=3))
    assert "▶3" in text


def test_decisions_and_wagers_of_a_seat_are_shown() -> None:
    text = screen(make_view())
    assert "trade → stand" in text
    assert "ante $10 bonus $2.50" in text


def test_settled_results_show_each_bet_and_each_seat_net() -> None:
    settlement = (
        {"round": 12, "seat": 1, "bet": "ante", "net": 500},
        {"round": 12, "seat": 1, "bet": "trade", "net": 500},
        {"round": 12, "seat": 2, "bet": "ante", "net": -1000},
        {"round": 12, "seat": 2, "bet": "bonus", "net": 0},
    )
    rows = screen(make_view(state="settling", settlement=settlement, prompt=Prompt("end_round"))).splitlines()
    seat1 = next(r for r in rows if r.startswith(" 1 "))
    seat2 = next(r for r in rows if r.startswith(" 2 "))
    assert "ante +$5 trade +$5" in seat1 and seat1.rstrip().endswith("+$10")
    assert "ante -$10 bonus push" in seat2 and seat2.rstrip().endswith("-$10")


def test_a_seat_out_of_the_round_shows_the_wagers_it_plays_next() -> None:
    from tablectl.display.wagers import TableLimits

    from tablectl.rules.bets import BetLimit

    limits = TableLimits(("ante", "bonus"), ("ante",), {"ante": BetLimit(500, 50000), "bonus": BetLimit(100, 2500, 100)})
    state = DisplayState(limits=limits, standing={3: {"ante": 2500, "bonus": 500}})
    seats = (SeatView(3), SeatView(4))
    rows = screen(make_view(seats=seats, state="ready", prompt=Prompt("start_round")), state).splitlines()
    assert "next: ante $25 bonus $5" in next(r for r in rows if r.startswith(" 3 "))
    assert "next: ante $5" in next(r for r in rows if r.startswith(" 4 "))


def test_an_empty_field_of_a_log_line_is_not_shown() -> None:
    line = event_line({"seq": 9, "event": "settled", "seat": 1, "bet": "ante", "pays": None, "cards": [], "note": ""}).plain
    assert "pays" not in line and "cards" not in line and "note" not in line
    assert "seat=1 bet=ante" in line


def test_no_dealer_signed_in_is_said_in_the_header() -> None:
    assert "NO DEALER SIGNED IN" in screen(make_view(dealer_id=None))


def test_the_help_shows_every_key_and_every_mark() -> None:
    from tablectl.display.keys import HELP_KEYS, HELP_MARKS

    text = screen(make_view(), DisplayState(help=True))
    for key, _ in HELP_KEYS + HELP_MARKS:
        assert key in text
    assert "⚑" in text and "wants the bank" in text


def test_the_help_at_80x24_explains_the_bank_marks_in_full() -> None:
    from tablectl.display.keys import HELP_KEYS, HELP_MARKS

    lines = render_text(make_view(), DisplayState(help=True), width=80, height=24).splitlines()
    text = "\n".join(lines)
    assert len(lines) <= 24
    for mark, meaning in (("NA $5", "no action: bank ran out"), ("+$7 CAP", "win capped by the bank"),
                          ("◆ DP/BANK", "the bank's seat decides"), ("VOID 3", "voided: wagers returned")):
        assert f"{mark}" in text and meaning in text
    assert all(meaning in text for _, meaning in HELP_KEYS + HELP_MARKS)  # nothing cut at 80 columns


@pytest.mark.parametrize(("cols", "rows"), [(80, 24), (120, 40)])
def test_an_eight_seat_table_with_an_alarm_fits_the_terminal_with_its_key_line(cols: int, rows: int) -> None:
    seats = tuple(SeatView(i, in_play=True, wagers={"ante": 500, "pairplus": 500}, cards=(None, None, None)) for i in range(1, 9))
    alarm = AlarmView("too_few_cards", 3, "the round was ended before its procedure was complete", "Supervisor: resolve.")
    recent = tuple({"seq": i, "event": "state", "to": "ready"} for i in range(1, 41))
    view = make_view(game="three-card-poker", seats=seats, alarms=(alarm,), state="held", prompt=Prompt("resolve"), recent=recent)
    lines = render_text(view, width=cols, height=rows).splitlines()
    assert len(lines) <= rows
    assert all(len(line) <= cols for line in lines)
    text = "\n".join(lines)
    assert "HELD" in text and "round 12" in text
    assert all(f" {i} " in text for i in range(1, 9))
    assert "VIOLATION TOO FEW CARDS" in text
    assert "Next: SUPERVISOR" in text
    from tablectl.display.keys import HELP

    keys = " · ".join(line.strip() for line in lines[-2:])
    assert keys.endswith(HELP)


def test_the_board_is_shown_for_texas_holdem_bonus() -> None:
    text = screen(make_view(game="texas-holdem-bonus", board=("AS", "KS", "QS")))
    assert "Board: A♠ K♠ Q♠" in text


def test_the_designated_player_is_labelled_for_one_card_poker() -> None:
    seats = (SeatView(1, in_play=True, banker=True, cards=("9D",)), SeatView(2, in_play=True, cards=("9C",)))
    text = screen(make_view(game="one-card-poker", seats=seats, banker_seat=1, dealer=("9D",)))
    assert "DP (seat 1): 9♦" in text


def test_a_rejected_input_shows_in_the_status_line() -> None:
    text = screen(make_view(), DisplayState(status="decision seat 3: raise: rejected: seat 2 decides now", status_error=True))
    assert "✗ decision seat 3: raise: rejected: seat 2 decides now" in text


def test_a_hidden_prompt_field_shows_stars_not_the_secret() -> None:
    prompt = TextPrompt("resolve", (PromptField("supervisor id"), PromptField("credential", hidden=True)), ("anna",), "hunter2")
    text = screen(make_view(), DisplayState(prompt=prompt))
    assert "credential: *******" in text
    assert "hunter2" not in text


def test_with_a_terminal_height_as_many_events_show_as_fit() -> None:
    recent = tuple({"seq": i, "event": "state", "to": "ready"} for i in range(1, 41))
    short = render_text(make_view(recent=recent), width=100, height=30)
    tall = render_text(make_view(recent=recent), width=100, height=50)
    assert len(short.splitlines()) <= 30
    assert "#40" in short and "#40" in tall
    assert "#20" not in short and "#20" in tall


def test_waiting_for_the_table_before_the_first_view() -> None:
    assert "waiting for the table" in screen(None)


@pytest.mark.parametrize(("card", "shown"), [("QH", "Q♥"), ("TD", "10♦"), ("AS", "A♠"), ("2C", "2♣"), (None, CARD_BACK)])
def test_card_text(card: str | None, shown: str) -> None:
    assert card_text(card).plain == shown


def test_money_shows_dollars_and_cents() -> None:
    assert (money(500), money(1250), money(-300)) == ("$5", "$12.50", "-$3")


# --- people at work: the void, one bank, the bank's stake short, the hints --------------------------


def test_a_voided_round_shows_every_wager_returned_and_the_next_step_return_wagers() -> None:
    text = screen(make_view(state="settling", voided=12, prompt=Prompt("return_wagers")))
    assert "returned ante $10 bonus $2.50" in text and "returned ante $5" in text
    assert "Next: return wagers (round voided), then end the round (E)" in text and "VOID 12" in text


def test_only_one_seat_shows_BANK_when_the_last_banker_and_the_next_differ() -> None:
    seats = (SeatView(1, banker=True), SeatView(2, wants_bank=True), SeatView(3))
    view = make_view(game="three-card-poker", state="ready", seats=seats, banker_seat=1, next_banker=2, prompt=Prompt("start_round"))
    rows = [line for line in screen(view).splitlines() if "BANK" in line[:14]]
    assert len(rows) == 1 and rows[0].startswith(" 2 BANK"), rows


def test_a_bank_stake_short_of_what_the_bank_could_pay_is_warned_on_its_row() -> None:
    seats = (SeatView(1, banker=True), SeatView(2, in_play=True, wagers={"ante": 50000, "pairplus": 10000}))
    view = make_view(game="three-card-poker", seats=seats, banker_seat=1, next_banker=1, banker_stake=500,
                     banker_limited=True, bank_could_pay=875000, prompt=Prompt("deal", to=("seat:2",)))
    bank = next(line for line in screen(view).splitlines() if line.startswith(" 1 BANK"))
    assert "stake $5" in bank and "⚠ short: could owe $8,750" in bank


def test_a_yes_no_question_names_its_keys_not_enter() -> None:
    state = DisplayState(prompt=TextPrompt("quit", (PromptField("quit? (y/n)"),), yes_no=True))
    text = screen(make_view(), state)
    assert "y yes · any other key no" in text and "Enter ok" not in text
