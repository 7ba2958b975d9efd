"""What a restarted controller takes over from its log (``tablectl.table.restart.resume.fold``), from plain
records: the shoe in play when the table stopped between rounds, and why not otherwise."""

from __future__ import annotations

from pathlib import Path
from typing import Any


from tablectl.cards import card
from tablectl.eventlog import EventLog
from tablectl.table import lifecycle as lc
from tablectl.table.restart.resume import fold, read_back


# the records as the controller writes them (every field a record of its kind carries): the
# read-back refuses a record that is not (``tablectl.eventlog.records``)
def shoe_loaded(shoe: int = 1, **kw: Any) -> dict[str, Any]:
    return {"event": "shoe_loaded", "shoe": shoe, "decks": 6, "cards": 312, "deck_ok": True, "device": "shoe", "event_no": 1, **kw}


def state(to: str) -> dict[str, Any]:
    return {"event": "state", "from": "", "to": to}


def dealt(text: str | None, shoe: int = 1, event_no: int = 0, event: str = "dealt", round_no: int | None = None) -> dict[str, Any]:
    return {"event": event, "card": text, "to": "burn" if event == "burned" else "seat:1", "shoe": shoe, "round": round_no,
            "device": "shoe", "event_no": event_no}


def a_round(n: int, *cards: str, shoe: int = 1) -> list[dict[str, Any]]:
    started = {"event": "round_started", "round": n, "seats": [1], "wagers": None, "banker": None, "banker_stake": None,
               "shoe": shoe, "dealer": None, "last_round": False}
    return [started, state(lc.IN_ROUND), *(dealt(c, shoe, round_no=n) for c in cards),
            state(lc.SETTLING), {"event": "round_ended", "round": n, "complete": True}, state(lc.READY)]


def test_a_shoe_between_rounds_is_taken_over_with_every_card_drawn_in_order() -> None:
    records = [shoe_loaded(), state(lc.READY), dealt("9S", event="burned"), *a_round(1, "QH", "2C"), *a_round(2, "AD")]
    got = fold(records, "shoe")
    assert got.last_round == 2
    assert got.shoe is not None and got.shoe.shoe == 1 and got.shoe.state == lc.READY
    assert got.shoe.cards == tuple(card(c) for c in ("9S", "QH", "2C", "AD"))


def test_a_round_in_play_is_taken_over_with_its_lines_from_its_start() -> None:
    start = {"event": "round_started", "round": 2, "shoe": 1, "seats": [1]}
    line = {**dealt("AD"), "round": 2}
    records = [shoe_loaded(), state(lc.READY), *a_round(1, "QH"), start, state(lc.IN_ROUND), line]
    got = fold(records, "shoe")
    assert got.shoe is not None and got.last_round == 2 and got.shoe.state == lc.READY
    assert got.shoe.round == (start, line)
    assert got.shoe.cards == (card("QH"), card("AD"))


def test_a_round_in_play_with_a_misread_card_is_left_to_the_supervisor() -> None:
    records = [shoe_loaded(), state(lc.READY), {"event": "round_started", "round": 1, "shoe": 1},
               state(lc.IN_ROUND), {**dealt(None, event_no=4), "round": 1}]
    got = fold(records, "shoe")
    assert got.shoe is None and got.last_round == 1
    assert got.not_resumed is not None and "misread" in got.not_resumed


def test_an_open_violation_is_not_taken_over_and_a_resolved_one_is() -> None:
    records = [shoe_loaded(), state(lc.READY), {"event": "violation", "kind": "wrong_state"}, state(lc.HELD)]
    assert fold(records, "shoe").shoe is None
    assert "violation" in (fold(records, "shoe").not_resumed or "")
    resolved = [*records, {"event": "resolved"}, state(lc.READY)]
    assert fold(resolved, "shoe").shoe is not None


def test_a_shoe_taken_out_leaves_nothing_to_take_over() -> None:
    records = [shoe_loaded(), state(lc.READY), *a_round(1, "QH"), {"event": "shoe_change", "shoe": 1}, state(lc.IDLE)]
    got = fold(records, "shoe")
    assert got.shoe is None and got.not_resumed is None


def test_a_shoe_that_failed_its_deck_check_is_not_taken_over() -> None:
    assert fold([shoe_loaded(deck_ok=False), state(lc.IDLE)], "shoe").shoe is None


def test_the_last_round_announcement_and_the_end_of_the_shoe_carry_over() -> None:
    records = [shoe_loaded(), state(lc.READY), *a_round(1, "QH"), {"event": "last_round", "round": 2, "shoe": 1},
               {"event": "shoe_empty", "shoe": 1, "device": "shoe", "event_no": 9}, state(lc.RESHUFFLE_DUE)]
    shoe = fold(records, "shoe").shoe
    assert shoe is not None and shoe.last_round_announced and shoe.exhausted and shoe.state == lc.RESHUFFLE_DUE


def test_a_misread_card_counts_and_takes_its_name_once_identified() -> None:
    records = [shoe_loaded(), state(lc.READY), {"event": "round_started", "round": 1}, state(lc.IN_ROUND),
               dealt(None, event_no=7), dealt("2C", event_no=8),
               {"event": "identified", "card": "KS", "device": "shoe", "event_no": 7}, state(lc.SETTLING),
               state(lc.READY), dealt(None, event_no=9, event="drawn")]
    shoe = fold(records, "shoe").shoe
    assert shoe is not None and shoe.cards == (card("KS"), card("2C"), None)


def test_cards_of_another_device_or_an_earlier_shoe_do_not_count() -> None:
    records = [shoe_loaded(1), state(lc.READY), *a_round(1, "QH"), shoe_loaded(2), state(lc.READY),
               {**dealt("AD", shoe=2), "device": "other"}, *a_round(2, "3D", shoe=2)]
    shoe = fold(records, "shoe").shoe
    assert shoe is not None and shoe.shoe == 2 and shoe.cards == (card("3D"),)


def test_a_shoe_resumed_before_is_the_start_of_the_next_read_back() -> None:
    resumed = {"event": "shoe_resumed", "shoe": 4, "cards": ["QH", None], "last_round_announced": True,
               "exhausted": False, "device": "shoe"}
    shoe = fold([resumed, state(lc.READY), *a_round(9, "5S", shoe=4)], "shoe").shoe
    assert shoe is not None and shoe.shoe == 4 and shoe.last_round_announced
    assert shoe.cards == (card("QH"), None, card("5S"))


def test_a_violation_left_open_by_an_earlier_session_does_not_stop_a_later_takeover() -> None:
    records = [shoe_loaded(1), state(lc.READY), {"event": "violation", "kind": "wrong_state"}, state(lc.HELD),
               {"event": "table_started"}, state(lc.IDLE), shoe_loaded(2, event_no=9), state(lc.READY)]
    shoe = fold(records, "shoe").shoe
    assert shoe is not None and shoe.shoe == 2


def test_round_numbers_go_on_from_an_earlier_file_when_the_shoe_in_play_has_no_round_yet(tmp_path: Path) -> None:
    log = EventLog(tmp_path, "T1", signing_key=None, fsync=False)  # a real log: read-back checks its chain

    def write(records: list[dict[str, Any]]) -> None:
        for r in records:
            log.append(r["event"], **{k: v for k, v in r.items() if k != "event"})

    write([shoe_loaded(1), state(lc.READY), *a_round(1, "QH"), *a_round(2, "AD")])
    log.rotate()
    started = {"event": "table_started", "game": "one-card-poker", "decks": 6, "cap": 0.9, "seats": 7, "source": "shoe", "source_kind": "shoe"}
    write([started, state(lc.IDLE), shoe_loaded(2, event_no=5), state(lc.READY)])
    log.close()
    assert len(list(tmp_path.glob("*.jsonl"))) == 2
    got = read_back(tmp_path, "T1", "shoe")
    assert got.last_round == 2
    assert got.shoe is not None and got.shoe.shoe == 2 and got.shoe.cards == ()


def voided(n: int) -> list[dict[str, Any]]:
    """Round ``n`` voided by the supervisor after a hold; the dealer collects it."""
    return [{"event": "resolved", "round": n, "kinds": ["too_few_cards"], "void_round": True},
            {"event": "round_voided", "round": n, "reason": "too_few_cards"}, state(lc.SETTLING),
            {"event": "round_ended", "round": n, "complete": True}, state(lc.READY)]


def test_a_voided_round_is_remembered_until_the_next_round_starts() -> None:
    records = [shoe_loaded(), state(lc.READY), *a_round(1, "QH")[:-3], *voided(1)]
    assert fold(records, "shoe").voided == 1
    assert fold([*records, *a_round(2, "AD")], "shoe").voided is None
