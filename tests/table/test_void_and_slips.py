"""A supervisor's void at any point of a round (no hold needed: resolve and void in one step),
refused when no round is in play; a round started before a continuous shuffler's cards are back
refused with what to do (held only when asked again); the bank's stake short of the action
logged on the round's start. Driven from plain device events and inputs."""

from __future__ import annotations

import pytest
from tablehelpers import ocp_round, oftm_decided, oftm_round

from tablectl.table import lifecycle as lc
from tablectl.table.inputs import (
    EndRound,
    InputRejected,
    OfferBank,
    Resolve,
    StartRound,
)


def test_a_void_mid_round_needs_no_hold_and_returns_every_wager(table):
    t = ocp_round(table)
    t.draw("AS")
    t.input(Resolve("sup-9", note="dispute at seat 1", void_round=True))
    voided = t.log.events("round_voided")[-1]
    assert voided["round"] == 1 and voided["returned"] == {"1": {"primary": 1000, "tie": 500}, "2": {"primary": 1000}}
    assert t.log.events("resolved")[-1]["void_round"] is True and t.state == lc.SETTLING
    assert t.core.view().prompt.action == "return_wagers" and t.core.view().voided == 1
    assert not [line for line in t.log.lines if line["event"] == "state" and line["to"] == lc.HELD]


def test_a_void_once_settled_returns_the_wagers_and_the_round_is_collected(table):
    t = ocp_round(table)
    t.draw("AS", "KS", "QS")
    assert t.state == lc.SETTLING
    t.input(Resolve("sup-9", void_round=True))
    assert t.log.events("round_voided")[-1]["returned"]["2"] == {"primary": 1000}
    assert t.core.view().settlement == ()
    t.input(EndRound())
    assert t.state in (lc.READY, lc.RESHUFFLE_DUE) and t.core.view().voided == 1


def test_a_void_in_a_hold_resolves_it_and_voids_in_one_step(table):
    t = ocp_round(table)
    t.draw("AS")
    t.input(EndRound())  # short: held
    assert t.state == lc.HELD
    t.input(Resolve("sup-9", void_round=True))
    assert t.state == lc.SETTLING and t.log.events("round_voided")


def test_a_void_with_no_round_in_play_is_refused_and_voids_nothing(table):
    t = table("one-card-poker")
    t.load_shoe()
    with pytest.raises(InputRejected, match="no round in play: nothing to void"):
        t.input(Resolve("sup-9", void_round=True))
    assert not t.log.events("round_voided") and not t.log.events("resolved")


def test_the_bets_a_decision_made_are_returned_too(table):
    t = oftm_decided(table, "raise")
    assert t.state == lc.SETTLING
    t.input(Resolve("sup-9", void_round=True))
    assert t.log.events("round_voided")[-1]["returned"] == {"1": {"ante": 500, "raise": 500}}


def test_a_second_start_with_the_same_cards_out_holds_the_table(table):
    t = oftm_round(table)
    with pytest.raises(InputRejected, match="return the cards to the shuffler first"):
        t.input(StartRound((1,), {1: {"ante": 500}}))
    assert t.state == lc.READY and t.kinds() == []
    t.returned("AS", "KS", "QS")
    t.input(StartRound((1,), {1: {"ante": 500}}))
    assert t.state == lc.IN_ROUND and t.kinds() == []


def test_a_bank_stake_short_of_what_the_bank_could_pay_is_logged_on_the_round_start(table):
    t = table("three-card-poker", house_rules={"limit_to_banker_stake": True})
    t.shuffle()
    t.input(OfferBank(7))
    t.input(StartRound((1, 2), {1: {"ante": 50000, "pairplus": 10000}, 2: {"ante": 500}}, banker_stake=500))
    started = t.log.events("round_started")[-1]
    assert started["bank_could_pay"] > 500 and t.core.view().bank_could_pay == started["bank_could_pay"]


def test_a_bank_stake_that_covers_the_action_is_not_flagged(table):
    t = table("three-card-poker", house_rules={"limit_to_banker_stake": True})
    t.shuffle()
    t.input(OfferBank(7))
    t.input(StartRound((1,), {1: {"ante": 500}}, banker_stake=1_000_000))
    assert "bank_could_pay" not in t.log.events("round_started")[-1] and t.core.view().bank_could_pay is None
