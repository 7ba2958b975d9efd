"""A restart between rounds carries on with the same people and the same due burns: the dealer on
duty, the bank's rotation and the dealer-change burns not dealt yet come back from the log
(``tablectl.table.restart.resume``), so the procedure goes on as if the controller had not stopped.
Driven from plain device events and inputs; the restart is a new ``TableCore`` given the old log."""

from __future__ import annotations

from tablectl.drivers import events as ev

from tablectl.table import lifecycle as lc
from tablectl.table.inputs import BurnNext, DealerChange, EndRound, OfferBank, StartRound
from tablectl.table.procedure import validation as va
from tablectl.table.restart.resume import Bank, fold

OCP_WAGERS = {1: {"primary": 1000}, 2: {"primary": 1000}}
TCP_WAGERS = {1: {"ante": 1000}, 2: {"ante": 1000}}


def state(to: str) -> dict[str, object]:
    return {"event": "state", "to": to}


def ocp_ready(table):
    t = table("one-card-poker")
    t.load_shoe()
    t.burn("2C")
    for seat in (5, 7):
        t.input(OfferBank(seat))
    return t


def play_ocp_round(t, cards=("3S", "9H", "KD")) -> None:
    """Seats 1 and 2 against the DP, no tie: three cards, then the dealer collects."""
    t.input(StartRound((1, 2), OCP_WAGERS))
    t.draw(*cards)
    t.input(EndRound())


# --- from plain records ----------------------------------------------------------------------------


def test_the_dealer_on_duty_is_the_last_one_named() -> None:
    records = [{"event": "round_started", "round": 4, "dealer": "d-1"}, {"event": "dealer_change", "dealer": "d-2", "shoe": 1}]
    assert fold(records[:1], "dev").dealer == "d-1"
    assert fold(records, "dev").dealer == "d-2"


def test_dealer_change_burns_not_dealt_yet_are_still_due_after_the_takeover() -> None:
    start = [{"event": "shoe_loaded", "shoe": 1, "deck_ok": True, "device": "dev"}, state(lc.READY),
             {"event": "burned", "card": "2C", "shoe": 1, "device": "dev", "reason": "shuffle"},
             {"event": "dealer_change", "dealer": "d-2", "burns_due": 2, "shoe": 1}]
    burn = {"event": "burned", "card": "5D", "shoe": 1, "device": "dev", "reason": "dealer_change"}
    assert fold(start, "dev").shoe.dealer_change_burns == 2
    assert fold([*start, burn], "dev").shoe.dealer_change_burns == 1
    assert fold([*start, burn, burn], "dev").shoe.dealer_change_burns == 0


def test_burn_marks_not_used_yet_are_carried_over_and_each_card_drawn_takes_one() -> None:
    start = [{"event": "shoe_loaded", "shoe": 1, "device": "dev"}, state(lc.READY),
             {"event": "button", "burn_mark": True, "device": "dev"},
             {"event": "burn_next", "marks": 2}]
    card = {"event": "burned", "card": "2C", "shoe": 1, "device": "dev", "reason": "shuffle"}
    assert fold(start, "dev").shoe.burn_marks == 2
    assert fold([*start, card], "dev").shoe.burn_marks == 1
    assert fold([*start, card, card, card], "dev").shoe.burn_marks == 0


def test_burn_marks_end_with_the_round_and_count_only_the_card_devices_button() -> None:
    start = [{"event": "shoe_loaded", "shoe": 1, "device": "dev"}, state(lc.READY),
             {"event": "button", "burn_mark": True, "device": "other"},
             {"event": "button", "burn_mark": False, "device": "dev"}]
    assert fold(start, "dev").shoe.burn_marks == 0
    ended = [*start, {"event": "burn_next", "marks": 1}, {"event": "round_ended", "round": 1, "complete": True}]
    assert fold(ended, "dev").shoe.burn_marks == 0


def test_the_bank_rotation_goes_on_from_the_last_round_and_what_followed_it() -> None:
    records = [{"event": "round_started", "round": 8, "banker": 3, "banker_hands": 1, "bank_wanted": [3, 5]},
               {"event": "round_ended", "round": 8, "complete": True},
               {"event": "offer_bank", "seat": 6, "wants": True}, {"event": "offer_bank", "seat": 5, "wants": False}]
    assert fold(records, "dev").bank == Bank(3, 2, frozenset({3, 6}))
    moved = [*records, {"event": "bank", "seat": 6, "previous": 3, "round": 9}]
    assert fold(moved, "dev").bank == Bank(6, 0, frozenset({3, 6}))


def test_a_game_without_a_bank_carries_no_rotation() -> None:
    assert fold([{"event": "round_started", "round": 1, "banker": None, "dealer": "d-1"}], "dev").bank is None


# --- a restarted table -----------------------------------------------------------------------------


def test_a_burn_due_at_a_dealer_change_is_still_due_after_a_restart(table) -> None:
    t = ocp_ready(table)
    play_ocp_round(t)
    t.input(DealerChange("d-2"))
    again = t.restarted()
    assert again.state == lc.READY and again.core.people.dealer == "d-2"
    again.input(StartRound((1, 2), OCP_WAGERS))
    again.draw("AS")  # no burn first
    assert again.kinds() == [va.BURN_MISSING]
    assert again.log.events("violation")[-1]["where"] == "dealer_change"


def test_a_burn_due_at_a_dealer_change_is_still_due_after_a_second_restart(table) -> None:
    t = ocp_ready(table)
    play_ocp_round(t)
    t.input(DealerChange("d-2"))
    again = t.restarted().restarted()
    again.input(StartRound((1, 2), OCP_WAGERS))
    again.draw("AS")  # no burn first
    assert again.kinds() == [va.BURN_MISSING]
    assert again.log.events("violation")[-1]["where"] == "dealer_change"


def test_a_burn_dealt_after_the_restart_satisfies_the_dealer_change(table) -> None:
    t = ocp_ready(table)
    play_ocp_round(t)
    t.input(DealerChange("d-2"))
    again = t.restarted()
    again.burn("4C")
    play_ocp_round(again)
    assert again.kinds() == [] and again.state == lc.READY
    assert again.log.events("round_started")[-1]["dealer"] == "d-2"


def test_a_burn_marked_with_the_button_before_a_restart_is_burned_after_it(table) -> None:
    t = table("one-card-poker")
    t.load_shoe()
    for seat in (5, 7):
        t.input(OfferBank(seat))
    t.event(lambda n: ev.ButtonPressed(n, 0))  # the dealer marks the burn; the card is not out yet
    again = t.restarted()
    assert again.log.events("shoe_resumed")[-1]["burn_marks"] == 1
    again.draw("2C")
    assert again.log.events("burned")[-1]["reason"] == "shuffle"
    play_ocp_round(again)
    assert again.kinds() == [] and again.state == lc.READY


def test_a_burn_marked_by_the_dealer_before_a_restart_is_burned_after_a_second_one(table) -> None:
    t = ocp_ready(table)
    play_ocp_round(t)
    t.input(DealerChange("d-2"))
    t.input(BurnNext())
    again = t.restarted().restarted()
    again.draw("4C")
    assert again.log.events("burned")[-1]["reason"] == "dealer_change"
    play_ocp_round(again)
    assert again.kinds() == []


def test_the_designated_player_button_moves_on_as_if_there_had_been_no_restart(table) -> None:
    straight = ocp_ready(table)
    restarted = ocp_ready(table)
    for n in range(5):
        play_ocp_round(straight)
        play_ocp_round(restarted)
        if n in (1, 2):
            restarted = restarted.restarted()
    every_run = [*restarted.history, *restarted.log.lines]
    assert [line["banker"] for line in straight.log.events("round_started")] == [5, 7, 5, 7, 5]
    assert [line["banker"] for line in every_run if line["event"] == "round_started"] == [5, 7, 5, 7, 5]
    assert restarted.kinds() == []


def test_the_player_dealer_keeps_the_bank_for_its_second_hand_across_a_restart(table_from_log) -> None:
    log = [{"event": "round_started", "round": 1, "banker": 4, "banker_hands": 0, "bank_wanted": [4, 6], "dealer": "d-1"},
           {"event": "round_ended", "round": 1, "complete": True}]
    t = table_from_log("three-card-poker", log)
    assert t.log.events("duty_resumed") == [
        {"seq": 3, "event": "duty_resumed", "dealer": "d-1", "banker": 4, "banker_hands": 1, "bank_wanted": [4, 6]}
    ]
    t.shuffle()
    t.input(StartRound((1, 2), TCP_WAGERS))
    started = t.log.events("round_started")[-1]
    assert (started["round"], started["banker"], started["banker_hands"]) == (2, 4, 1)
