"""A hand-forming shuffler shuffles for every round, so a round in play when the table stopped cannot
be dealt on after the restart: the start says why (``shoe_not_resumed``) and voids the round as a
supervisor's void would (``round_voided``, reason ``not_resumed``: every wager returned, the bets
its decisions made and the bank's stake included), the table shows ``VOID N`` until the next round,
and the voided hand counts as banked. Before, the round disappeared without a line."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tablehelpers import Table

from tablectl.drivers import events as ev
from tablectl.table import lifecycle as lc
from tablectl.table.inputs import Decision, EndRound, OfferBank, StartRound

VOIDED = "shuffle 1: a hand-forming shuffler shuffles for every round; round 1 in play is void, every wager returned"


def without_seq(line: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in line.items() if k != "seq"}


def test_a_florida_round_dealt_into_at_the_stop_is_voided_at_the_start_with_its_wagers_returned(
    table: Callable[..., Table],
) -> None:
    t = table("three-card-poker-florida")
    t.shuffle()
    t.input(StartRound((1, 2), {1: {"ante": 2000, "pairplus": 1000}, 2: {"ante": 500}}))
    t.packet(0, ["2S", "3S", "4S"])
    again = t.restarted()
    assert [line["reason"] for line in again.log.events("shoe_not_resumed")] == [VOIDED]
    assert [without_seq(line) for line in again.log.events("round_voided")] == [{
        "event": "round_voided", "round": 1, "reason": "not_resumed",
        "returned": {"1": {"ante": 2000, "pairplus": 1000}, "2": {"ante": 500}},
    }]  # fmt: skip
    view = again.core.view()
    assert (view.state, view.voided, view.prompt.action) == (lc.IDLE, 1, "shuffle")
    again.shuffle()
    again.input(StartRound((1,), {1: {"ante": 500}}))
    assert again.log.events("round_started")[-1]["round"] == 2 and again.core.view().voided is None


def test_a_holdem_round_returns_the_flop_bet_its_decision_made(table: Callable[..., Table]) -> None:
    t = table("texas-holdem-bonus")
    t.shuffle()
    t.input(StartRound((1,), {1: {"ante": 500}}))
    t.packet(0, ["2S", "3S"])
    t.packet(1, ["4S", "5S"])
    t.input(Decision(1, "flop"))
    voided = t.restarted().log.events("round_voided")
    assert [(v["round"], v["returned"]) for v in voided] == [(1, {"1": {"ante": 500, "flop": 1000}})]


def test_a_player_banked_round_returns_the_stake_and_the_voided_hand_moves_the_bank_on(table: Callable[..., Table]) -> None:
    t = table("three-card-poker")
    for seat in (7, 6):
        t.input(OfferBank(seat))
    for _ in range(2):  # seat 7 banks two hands; its second is in play at the stop
        t.shuffle()
        t.input(StartRound((1,), {1: {"ante": 500}}, banker_stake=10000))
        t.packet(0, ["2S", "3S", "4S"])
        if t.core.round_no == 1:
            t.packet(1, ["5S", "6S", "7S"])
            t.event(lambda n: ev.CardsDiscarded(n, 46))
            t.input(Decision(1, "play"))
            t.input(EndRound())
    again = t.restarted()
    voided = again.log.events("round_voided")
    assert [(v["round"], v["returned"], v["banker_stake"]) for v in voided] == [(2, {"1": {"ante": 500}}, 10000)]
    assert [without_seq(b) for b in again.log.events("bank")] == [{"event": "bank", "seat": 6, "previous": 7, "round": 3}]
    assert again.core.view().banker_seat == 6


def test_a_second_restart_shows_the_void_again_and_does_not_void_twice(table: Callable[..., Table]) -> None:
    t = table("three-card-poker-florida")
    t.shuffle()
    t.input(StartRound((1,), {1: {"ante": 500}}))
    t.packet(0, ["2S", "3S", "4S"])
    third = t.restarted().restarted()
    assert third.log.events("round_voided") == [] and third.log.events("shoe_not_resumed") == []
    assert third.core.view().voided == 1
    history = [line["event"] for line in third.history]
    assert history.count("round_voided") == 1


def test_a_round_settled_before_the_stop_stands_and_the_start_says_so(table: Callable[..., Table]) -> None:
    t = table("three-card-poker")
    t.input(OfferBank(7))
    t.shuffle()
    t.input(StartRound((1,), {1: {"ante": 500}}, banker_stake=10000))
    t.packet(0, ["2S", "3S", "4S"])
    t.packet(1, ["5S", "6S", "7S"])
    t.event(lambda n: ev.CardsDiscarded(n, 46))
    t.input(Decision(1, "play"))  # the round is settled; the dealer has not collected it
    again = t.restarted()
    assert [line["reason"] for line in again.log.events("shoe_not_resumed")] == [
        "shuffle 1: a hand-forming shuffler shuffles for every round; round 1 was settled before the stop: "
        "the dealer pays and collects it"
    ]
    assert again.log.events("round_voided") == [] and again.core.view().voided is None
