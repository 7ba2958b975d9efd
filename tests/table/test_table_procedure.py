"""The table core beyond violations: corrections, settlement in the log, bank rotation, the last
round and the reshuffle, faults, replays, inputs refused, and the view's face-down rule."""

from __future__ import annotations

import pytest

from tablectl.drivers import events as ev
from tablectl.rules.settle import settle
from tablectl.table import lifecycle as lc
from tablectl.table.core import PAST_LAST_ROUND
from tablectl.table.inputs import (
    Decision,
    DealerChange,
    EndRound,
    ExposedCard,
    InputRejected,
    OfferBank,
    Resolve,
    ShoeChange,
    StartRound,
)

OCP_WAGERS = {1: {"primary": 1000}, 2: {"primary": 1000, "tie": 500}}


def ocp_ready(table, **overrides):
    t = table("one-card-poker", **overrides)
    t.load_shoe()
    t.burn("2C")
    for seat in (5, 6, 7):
        t.input(OfferBank(seat))
    return t


SUITED = [r + s for s in "SHDC" for r in "23456789TJQKA"]  # no two neighbours of one rank


def play_ocp(t, cards=None):
    t.input(StartRound((1, 2), OCP_WAGERS))
    if cards is None:
        start = t.core.comp.drawn
        cards = [SUITED[(start + i) % 52] for i in range(3)]
    t.draw(*cards)
    t.input(EndRound())


def test_an_exposed_card_becomes_a_burn_and_the_next_card_takes_its_place(table):
    t = ocp_ready(table)
    t.input(StartRound((1, 2), OCP_WAGERS))
    t.draw("AS")
    t.input(ExposedCard())
    t.draw("KS")
    corrected = t.log.events("corrected")[-1]
    assert (corrected["card"], corrected["from"], corrected["to"]) == ("AS", "seat:1", "burn")
    assert t.log.events("dealt")[-1] | {"card": "KS", "to": "seat:1"} == t.log.events("dealt")[-1]
    assert t.kinds() == []


def test_the_settlement_is_logged_per_seat_and_bet_from_the_rules_engine(table):
    t = ocp_ready(table)
    t.input(StartRound((1, 2), OCP_WAGERS))
    t.draw("AS", "9H", "KS")
    settled = [(s["seat"], s["bet"], s["outcome"], s["net"]) for s in t.log.events("settled")]
    hands = t.core.cursor.hands  # the round as the controller built it
    expected = [(r.seat, r.bet, r.outcome, r.net) for r in settle(hands, t.core.settlement_rules).results]
    assert settled == expected and (1, "primary", "win", 1000) in settled


def test_without_wagers_the_round_is_dealt_but_not_settled(table):
    t = ocp_ready(table)
    t.input(StartRound((1, 2)))
    t.draw("AS", "9H", "KS")
    assert t.state == lc.SETTLING and t.log.events("settled") == []


def test_the_dp_button_moves_every_hand_to_the_next_seat_that_wants_it(table):
    t = ocp_ready(table)
    bankers = []
    for _ in range(4):
        bankers.append(t.core.people.banker)
        play_ocp(t)
    assert bankers == [5, 6, 7, 5]


def test_the_player_dealer_banks_two_hands(table):
    t = table("three-card-poker")
    for seat in (3, 6):
        t.input(OfferBank(seat))
    bankers = []
    for _ in range(4):
        t.shuffle()
        bankers.append(t.core.people.banker)
        t.input(StartRound((1,), {1: {"ante": 500}}, banker_stake=10000))
        t.packet(0, ["2S", "3S", "4S"])
        t.packet(1, ["5S", "6S", "7S"])
        t.event(lambda n: ev.CardsDiscarded(n, 46))
        t.input(Decision(1, "play"))
        t.input(EndRound())
    assert bankers == [3, 3, 6, 6]


def test_the_banker_cannot_play_a_hand(table):
    t = ocp_ready(table)
    with pytest.raises(InputRejected, match="seat 5 banks"):
        t.input(StartRound((1, 5)))


def test_a_game_with_a_banker_needs_a_seat_that_wants_the_bank(table):
    t = table("one-card-poker")
    t.load_shoe()
    t.burn("2C")
    with pytest.raises(InputRejected, match="no seat wants the bank"):
        t.input(StartRound((1,)))


def test_a_refused_input_is_logged_with_the_reason(table):
    t = ocp_ready(table)
    with pytest.raises(InputRejected):
        t.input(StartRound((1, 2), {1: {"primary": 1}, 2: {"primary": 1000}}))
    rejected = t.log.events("input_rejected")[-1]
    assert rejected["input"] == "start_round" and rejected["reason"] == "seat 1: primary: $0.01 is outside the limits $5-$500"


def test_the_last_round_is_announced_and_a_reshuffle_is_due_after_it(table):
    t = ocp_ready(table, penetration_cap=20, house_rules={"war_reserve": 0})  # 62 cards; budget 7 + 1
    rounds = 0
    while t.state != lc.RESHUFFLE_DUE:
        play_ocp(t)
        rounds += 1
    announced = t.log.events("last_round")
    assert len(announced) == 1 and announced[0]["round"] == rounds
    assert t.core.comp.drawn <= t.core.cap_cards


def test_a_round_past_the_announced_last_round_raises_an_alarm(table):
    t = ocp_ready(table, penetration_cap=20, house_rules={"war_reserve": 0})
    while t.state != lc.RESHUFFLE_DUE:
        play_ocp(t)
    t.input(StartRound((1, 2), OCP_WAGERS))
    assert t.log.events("alarm")[-1]["kind"] == PAST_LAST_ROUND and t.state == lc.IN_ROUND


def test_a_shoe_change_and_a_new_shoe_make_the_table_ready_with_a_burn_due(table):
    t = ocp_ready(table)
    t.input(ShoeChange())
    assert t.state == lc.IDLE and t.log.shoes_ended == [1]
    t.load_shoe()
    assert t.state == lc.READY and t.core.prompt().to == ("burn",)


def test_a_dealer_change_makes_a_burn_due(table):
    t = ocp_ready(table)
    t.input(DealerChange("d-7"))
    assert t.core.prompt().to == ("burn",)
    t.burn("3C")
    assert t.log.events("burned")[-1]["reason"] == "dealer_change"


def test_a_jam_stops_the_table_until_cleared(table):
    t = ocp_ready(table)
    t.event(lambda n: ev.Fault(n, ev.FaultKind.JAM))
    assert t.state == lc.DEVICE_FAULT
    t.event(lambda n: ev.Fault(n, ev.FaultKind.JAM, cleared=True))
    assert t.state == lc.READY


def test_a_lost_link_is_a_fault_until_the_driver_reconnects(table):
    t = ocp_ready(table)
    t.core.handle_event("dev", ev.Fault(0, ev.FaultKind.DISCONNECTED, detail="gone"))
    assert t.state == lc.DEVICE_FAULT
    t.core.handle_event("dev", ev.Fault(0, ev.FaultKind.DISCONNECTED, cleared=True))
    assert t.state == lc.READY


def test_a_power_up_notice_does_not_stop_the_table(table):
    t = ocp_ready(table)
    t.event(lambda n: ev.Fault(n, ev.FaultKind.POWER_UP))
    assert t.state == lc.READY and t.log.events("fault")[-1]["fault"] == "power_up"


def test_a_replayed_event_is_taken_once(table):
    t = ocp_ready(table)
    t.input(StartRound((1, 2), OCP_WAGERS))
    t.core.handle_event("dev", ev.CardDrawn(100, 0))
    t.core.handle_event("dev", ev.CardDrawn(100, 0))
    assert len(t.log.events("dealt")) == 1


def test_every_state_change_is_logged(table):
    t = ocp_ready(table)
    play_ocp(t)
    changes = [(s["from"], s["to"]) for s in t.log.events("state")]
    assert changes == [
        (lc.OFFLINE, lc.IDLE),
        (lc.IDLE, lc.READY),
        (lc.READY, lc.IN_ROUND),
        (lc.IN_ROUND, lc.SETTLING),
        (lc.SETTLING, lc.READY),
    ]


def test_the_view_shows_face_up_cards_only(table):
    t = table("one-for-the-money")
    t.shuffle(decks=6)
    t.input(StartRound((1,), {1: {"ante": 500}}))
    t.draw("AS", "KS", "QS")
    view = t.core.view()
    assert view.seats[0].cards == ("AS",) and view.dealer == (None, None)
    t.input(Decision(1, "check"))
    assert t.core.view().dealer == ("KS", "QS")


def test_the_view_never_shows_a_burn_and_redacts_face_down_lines(table):
    t = ocp_ready(table)
    t.log.commit()
    burned = [r for r in t.core.view().recent if r["event"] == "burned"]
    assert burned and all("card" not in r for r in burned)


def test_a_resolved_hold_goes_back_to_the_round(table):
    t = ocp_ready(table)
    t.input(StartRound((1, 2), OCP_WAGERS))
    t.burn("AS")
    t.input(Resolve("sup-1"))
    assert t.state == lc.IN_ROUND


def test_no_round_starts_without_a_dealer_signed_in_and_the_refusal_is_logged(config):
    from tablehelpers import Table

    from tablectl.table.inputs import DealerChange, InputRejected

    t = Table(config("one-for-the-money"), dealer=None)
    t.load_shoe()
    assert t.core.prompt().action == "sign_in"
    with pytest.raises(InputRejected, match="no dealer signed in"):
        t.input(StartRound((1,), {1: {"ante": 500}}))
    assert t.log.events("input_rejected")[-1]["reason"].startswith("no dealer signed in")
    t.input(DealerChange("D-07"))
    assert t.log.events("dealer_change")[-1]["burns_due"] == 0  # a sign-in is no dealer change
    t.input(StartRound((1,), {1: {"ante": 500}}))
    assert t.log.events("round_started")[-1]["dealer"] == "D-07"
