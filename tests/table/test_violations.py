"""Every violation kind: a test commits it, sees the named violation and the hold, and (where it
matters) what the supervisor's resolution does. Driven from plain device events and inputs."""

from __future__ import annotations

import pytest
from tablectl.drivers import events as ev
from tablehelpers import ocp_ready, oftm_round
from tablehelpers import ocp_round as helpers_ocp_round

from tablectl.cards import card
from tablectl.table import lifecycle as lc
from tablectl.table.inputs import (
    DealerChange,
    Decision,
    EndRound,
    IdentifyCard,
    InputRejected,
    OfferBank,
    Resolve,
    StartRound,
    SupervisorDenied,
)
from tablectl.table.procedure import validation as va

OCP_WAGERS = {1: {"primary": 1000}, 2: {"primary": 1000}}


def ocp_round(table, **overrides):
    return helpers_ocp_round(table, OCP_WAGERS, **overrides)


def held_with(t, kind):
    assert t.kinds()[-1] == kind
    assert t.state == lc.HELD
    return t.log.events("violation")[-1]


def resolve(t, **kw):
    t.input(Resolve("sup-9", note="checked", **kw))
    line = t.log.events("resolved")[-1]
    assert line["supervisor"] == "sup-9"
    return line


# --- burns -------------------------------------------------------------------------------------


def test_a_burn_missing_after_the_shuffle(table):
    t = table("one-card-poker")
    t.load_shoe()
    t.input(OfferBank(7))
    t.input(StartRound((1, 2), OCP_WAGERS))
    t.draw("AS")
    v = held_with(t, va.BURN_MISSING)
    assert v["where"] == "shuffle"
    assert t.log.events("dealt")[-1]["to"] == "seat:1"


def test_a_burn_missing_at_a_dealer_change(table):
    t = ocp_ready(table)
    t.input(DealerChange("d-2"))
    t.input(StartRound((1, 2), OCP_WAGERS))
    t.draw("AS")
    assert held_with(t, va.BURN_MISSING)["where"] == "dealer_change"


def test_a_burn_missing_in_a_war(table):
    t = ocp_round(table)
    t.draw("9S", "5H", "9C")
    t.input(Decision(1, "extend"))
    t.input(Decision(7, "extend"))
    t.burn("2S", "2H")
    t.draw("KS")
    assert held_with(t, va.BURN_MISSING)["where"] == "war"
    assert t.log.events("dealt")[-1] == t.log.events("dealt")[-1] | {"card": "KS", "to": "seat:1"}


def test_a_house_rule_burn_missing(table):
    t = table("texas-holdem-bonus", driver="shoe", house_rules={"burn_before_community": True})
    t.load_shoe(decks=1)
    t.input(StartRound((1,), {1: {"ante": 500}}))
    t.draw("2S", "3S", "4S", "5S")
    t.input(Decision(1, "flop"))
    t.draw("6S")
    assert held_with(t, va.BURN_MISSING)["where"] == "house_rule"
    assert t.log.events("dealt")[-1]["to"] == "board"


def test_a_burn_where_a_card_was_due_is_an_extra_burn(table):
    t = ocp_round(table)
    t.burn("AS")
    held_with(t, va.BURN_EXTRA)
    assert t.log.events("burned")[-1]["reason"] == "extra"
    resolve(t)
    t.draw("KS")
    assert t.log.events("dealt")[-1]["to"] == "seat:1"


def test_a_shuffle_burn_may_be_dealt_before_the_round(table):
    t = ocp_ready(table)
    t.input(StartRound((1, 2), OCP_WAGERS))
    t.draw("AS", "KS", "QS")
    assert t.kinds() == [] and t.state == lc.SETTLING


# --- card counts and positions -------------------------------------------------------------------


def test_too_many_cards_while_a_decision_is_awaited(table):
    t = ocp_round(table)
    t.draw("9S", "5H", "9C", "TD")
    held_with(t, va.TOO_MANY_CARDS)
    assert t.log.events("drawn")[-1]["to"] == "discard"


def test_too_many_cards_after_the_rounds_cards_are_complete(table):
    t = ocp_round(table)
    t.draw("AS", "KS", "QS")
    assert t.state == lc.SETTLING
    t.draw("JS")
    held_with(t, va.TOO_MANY_CARDS)


def test_too_few_cards_when_the_round_is_ended_early(table):
    t = ocp_round(table)
    t.draw("AS", "KS")
    t.input(EndRound())
    held_with(t, va.TOO_FEW_CARDS)
    resolve(t, void_round=True)
    assert t.log.events("round_voided")[-1]["round"] == 1
    assert t.state == lc.SETTLING


def test_too_few_cards_when_the_shuffler_discards_before_the_deal_is_complete(table):
    t = table("three-card-poker")
    t.shuffle()
    t.input(OfferBank(7))
    t.input(StartRound((1,), {1: {"ante": 500}}))
    t.packet(0, ["2S", "3S", "4S"])
    t.event(lambda n: ev.CardsDiscarded(n, 49))
    held_with(t, va.TOO_FEW_CARDS)


def test_a_packet_of_the_wrong_size_is_a_card_at_the_wrong_position(table):
    t = table("three-card-poker")
    t.shuffle()
    t.input(OfferBank(7))
    t.input(StartRound((1, 2), {1: {"ante": 500}, 2: {"ante": 500}}))
    t.packet(0, ["2S", "3S"])
    v = held_with(t, va.WRONG_POSITION)
    assert "packet 0 of 2" in v["detail"] and "3 to seat:1" in v["detail"]
    assert [d["to"] for d in t.log.events("drawn")] == ["discard", "discard"]


# --- composition -------------------------------------------------------------------------------


def test_a_card_seen_twice_in_a_one_deck_shuffle_is_foreign(table):
    t = table("three-card-poker")
    t.shuffle()
    t.input(OfferBank(7))
    t.input(StartRound((1, 2), {1: {"ante": 500}, 2: {"ante": 500}}))
    t.packet(0, ["2S", "3S", "4S"])
    t.packet(1, ["2S", "5S", "6S"])
    assert held_with(t, va.FOREIGN_CARD)["card"] == "2S"


def test_a_seventh_copy_from_a_six_deck_shoe_is_foreign(table):
    t = ocp_ready(table)
    for _ in range(3):
        t.input(StartRound((1, 2), OCP_WAGERS))
        t.draw("AS", "AS", "KS")
        t.input(EndRound())
    t.input(StartRound((1, 2), OCP_WAGERS))
    t.draw("AS")
    assert held_with(t, va.FOREIGN_CARD)["card"] == "AS"


def test_a_card_returned_to_the_shuffler_that_never_left_it_is_foreign(table):
    t = table("one-for-the-money")
    t.shuffle(decks=6)
    t.returned("QH")
    assert held_with(t, va.FOREIGN_CARD)["card"] == "QH"


# --- state -------------------------------------------------------------------------------------


def test_a_card_before_the_shuffle_is_done(table):
    t = table("one-for-the-money")
    t.event(lambda n: ev.ShuffleStarted(n, 1))
    t.draw("AS")
    v = held_with(t, va.WRONG_STATE)
    assert "shuffling" in v["detail"]


def test_a_card_after_the_round_ended(table):
    t = ocp_round(table)
    t.draw("AS", "KS", "QS")
    t.input(EndRound())
    t.draw("JS")
    held_with(t, va.WRONG_STATE)


def test_a_card_while_held(table):
    t = ocp_round(table)
    t.draw("9S", "5H", "9C", "TD")
    t.draw("JS")
    assert t.kinds() == [va.TOO_MANY_CARDS, va.WRONG_STATE] and t.state == lc.HELD


# --- penetration -------------------------------------------------------------------------------


def test_a_card_past_the_cap_is_not_accepted_as_dealt(table):
    t = ocp_ready(table, penetration_cap=2)  # 6 of 312 cards
    t.input(StartRound((1, 2, 3, 4, 5, 6), {s: {"primary": 500} for s in range(1, 7)}))
    t.draw("2S", "3S", "4S", "5S", "6S", "7S")
    v = held_with(t, va.PENETRATION_CAP)
    assert v["card"] == "7S" and v["penetration"] > 0.02
    assert t.log.events("drawn")[-1]["to"] == "discard"
    assert all(line["penetration"] <= 0.02 for line in t.log.events("dealt") + t.log.events("burned"))


def test_resolving_a_cap_violation_voids_the_round_and_a_reshuffle_is_due(table):
    t = ocp_ready(table, penetration_cap=2)
    t.input(StartRound((1, 2, 3, 4, 5, 6), {s: {"primary": 500} for s in range(1, 7)}))
    t.draw("2S", "3S", "4S", "5S", "6S", "7S")
    resolve(t)
    assert t.log.events("round_voided")
    t.input(EndRound())
    assert t.state == lc.RESHUFFLE_DUE
    with pytest.raises(InputRejected, match="no cards left under the cap"):
        t.input(StartRound((1,), {1: {"primary": 500}}))


# --- the continuous shuffler -------------------------------------------------------------------


def test_a_round_started_before_the_cards_are_back_is_refused_with_what_to_do_not_held(table):
    t = oftm_round(table)
    with pytest.raises(InputRejected, match="return the cards to the shuffler first: 3 cards of round 1 not back"):
        t.input(StartRound((1,), {1: {"ante": 500}}))
    assert t.kinds() == [] and t.state == lc.READY


def test_a_card_not_returned_to_the_shuffler(table):
    t = oftm_round(table)
    t.returned("AS", "KS")
    with pytest.raises(InputRejected, match="return the cards to the shuffler first"):
        t.input(StartRound((1,), {1: {"ante": 500}}))
    with pytest.raises(InputRejected, match="not back"):
        t.input(StartRound((1,), {1: {"ante": 500}}))
    v = held_with(t, va.CARD_NOT_RETURNED)
    assert v["round"] == 1 and v["cards"] == ["QS"]


def test_every_card_returned_lets_the_next_round_start(table):
    t = oftm_round(table)
    t.returned("QS", "AS", "KS")
    t.input(StartRound((1,), {1: {"ante": 500}}))
    assert t.kinds() == [] and t.state == lc.IN_ROUND


def test_a_card_written_off_may_come_back_later(table):
    t = oftm_round(table)
    t.returned("AS", "KS")
    for _ in range(2):  # refused (return them first), then held
        with pytest.raises(InputRejected):
            t.input(StartRound((1,), {1: {"ante": 500}}))
    resolve(t)
    t.returned("QS")
    t.input(StartRound((1,), {1: {"ante": 500}}))
    assert t.kinds() == [va.CARD_NOT_RETURNED] and t.state == lc.IN_ROUND


# --- deck checks -------------------------------------------------------------------------------


def test_a_failed_deck_check(table):
    t = table("three-card-poker")
    t.shuffle(missing={card("AS"): 1})
    v = held_with(t, va.DECK_CHECK)
    assert "missing AS" in v["detail"]
    resolve(t)
    assert t.state == lc.IDLE


def test_a_shoe_of_the_wrong_size_fails_the_deck_check(table):
    t = table("one-card-poker")
    t.load_shoe(cards=311)
    held_with(t, va.DECK_CHECK)


def test_a_discard_count_that_does_not_add_up(table):
    t = table("three-card-poker")
    t.shuffle()
    t.input(OfferBank(7))
    t.input(StartRound((1,), {1: {"ante": 500}}))
    t.packet(0, ["2S", "3S", "4S"])
    t.packet(1, ["5S", "6S", "7S"])
    t.event(lambda n: ev.CardsDiscarded(n, 45))
    held_with(t, va.DECK_CHECK)


# --- misreads ----------------------------------------------------------------------------------


def test_a_misread_card_holds_the_table_until_identified_and_resolved(table):
    t = ocp_round(table)
    t.draw("AS", None)
    held_with(t, va.MISREAD)
    with pytest.raises(InputRejected, match="identify"):
        t.input(Resolve("sup-9"))
    t.input(IdentifyCard(card("KS")))
    assert t.log.events("identified")[-1] | {"card": "KS", "to": "seat:2"} == t.log.events("identified")[-1]
    resolve(t)
    t.draw("QS")
    assert t.state == lc.SETTLING
    assert t.core.view().settlement


def test_the_resolution_is_logged_with_the_violations_it_resolves(table):
    t = ocp_round(table)
    t.draw("9S", "5H", "9C", "TD")
    line = resolve(t)
    assert line["kinds"] == [va.TOO_MANY_CARDS] and line["violations"] == [t.log.events("violation")[-1]["seq"]]
    assert t.state == lc.IN_ROUND


def test_a_refused_supervisor_action_is_logged_and_leaves_the_hold(table):
    t = ocp_round(table)
    t.draw("9S", "5H", "9C", "TD")
    t.input(SupervisorDenied("sup-9", "resolve", "credential not accepted"))
    line = t.log.events("supervisor_refused")[-1]
    assert (line["supervisor"], line["action"], line["reason"], line["state"]) == ("sup-9", "resolve", "credential not accepted", lc.HELD)
    assert t.state == lc.HELD and t.log.events("resolved") == []


# --- what should never happen, still named ------------------------------------------------------


def test_a_round_the_rules_engine_cannot_settle(table, monkeypatch):
    from tablectl.rules.errors import SettlementError
    from tablectl.table import core

    def refuse(hands, rules):
        raise SettlementError("seat 1: expected 1 card")

    monkeypatch.setattr(core, "settle", refuse)
    t = ocp_round(table)
    t.draw("AS", "KS", "QS")
    assert held_with(t, va.SETTLEMENT_FAILED)["detail"] == "seat 1: expected 1 card"


def test_device_events_lost_for_good(table):
    from tablectl.table.core import EVENTS_LOST

    t = ocp_ready(table)
    t.core.handle_event("dev", ev.Fault(0, ev.FaultKind.EVENTS_LOST, detail="events 7..9 lost: the device could not replay them"))
    assert "7..9" in held_with(t, EVENTS_LOST)["detail"]


def test_a_misread_return_to_the_shuffler_is_identified_and_taken_back(table):
    t = oftm_round(table)
    t.returned("AS", "KS")
    t.event(lambda n: ev.CardReturned(n, None))
    held_with(t, va.MISREAD)
    t.input(IdentifyCard(card("QS")))
    resolve(t)
    t.input(StartRound((1,), {1: {"ante": 500}}))
    assert t.state == lc.IN_ROUND
