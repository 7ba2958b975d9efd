"""A restart in the middle of a round goes on with that round: its cards, decisions and settlement
come back from the log (``tablectl.table.restart.resume``), the next card goes where it would have gone,
and the round settles exactly as it would have without the restart. Driven from plain device
events and inputs; the restart is a new ``TableCore`` given the old log (``Table.restarted``)."""

from __future__ import annotations

from typing import Any

from tablehelpers import ocp_round

from tablectl.table import lifecycle as lc
from tablectl.table.inputs import Decision, EndRound


def war(t: Any) -> None:
    """Seat 1 tied the DP: both extend; burn 3, the player's war card, burn 3, the DP's."""
    t.input(Decision(1, "extend"))
    t.input(Decision(7, "extend"))
    t.burn("3C", "3D", "3H")
    t.draw("KS")
    t.burn("4C", "4D", "4H")
    t.draw("5S")


def settled(t: Any) -> list[tuple[Any, ...]]:
    return [(s["seat"], s["bet"], s["outcome"], s["net"]) for s in t.log.events("settled")]


def test_a_round_stopped_between_two_cards_deals_on_after_the_restart(table) -> None:
    straight, stopped = ocp_round(table), ocp_round(table)
    straight.draw("9S", "5H", "QC")
    stopped.draw("9S", "5H")
    again = stopped.restarted()
    assert again.state == lc.IN_ROUND
    resumed = again.log.events("round_resumed")[0]
    assert (resumed["round"], resumed["cards"], resumed["complete"]) == (1, 2, False)
    again.draw("QC")
    assert again.log.events("dealt")[-1]["to"] == "dp"
    assert again.state == lc.SETTLING and settled(again) == settled(straight) != []
    again.input(EndRound())
    assert again.state == lc.READY and again.kinds() == []


def test_a_tie_waiting_for_its_decision_goes_on_to_the_war_after_the_restart(table) -> None:
    straight, stopped = ocp_round(table), ocp_round(table)
    for t in (straight, stopped):
        t.draw("9S", "5H", "9C")
    again = stopped.restarted()
    prompt = again.core.prompt()
    assert (prompt.action, prompt.seat) == ("decide", 1)
    war(straight)
    war(again)
    assert [d["to"] for d in again.log.events("dealt")] == ["seat:1", "dp"]
    assert settled(again) == settled(straight) and again.kinds() == []


def test_a_round_goes_on_across_two_restarts(table) -> None:
    straight, stopped = ocp_round(table), ocp_round(table)
    straight.draw("9S", "5H", "9C")
    war(straight)
    stopped.draw("9S", "5H", "9C")
    again = stopped.restarted()
    again.input(Decision(1, "extend"))
    again.input(Decision(7, "extend"))
    again.burn("3C", "3D", "3H")
    third = again.restarted()
    assert third.state == lc.IN_ROUND and third.log.events("round_resumed")[0]["cards"] == 3
    third.draw("KS")
    third.burn("4C", "4D", "4H")
    third.draw("5S")
    assert settled(third) == settled(straight) and third.kinds() == []


def test_a_round_settled_before_the_restart_is_not_settled_again(table) -> None:
    t = ocp_round(table)
    t.draw("9S", "5H", "QC")
    again = t.restarted()
    assert again.state == lc.SETTLING and again.log.events("settled") == []
    assert again.core.settlement == t.core.settlement != []
    again.input(EndRound())
    assert again.state == lc.READY and again.log.events("round_ended")[0]["complete"] is True


def test_a_round_with_a_violation_is_left_to_the_supervisor(table) -> None:
    t = ocp_round(table)
    t.draw("9S", "5H", "QC", "7D")  # one card too many: the table holds
    again = t.restarted()
    assert again.state == lc.IDLE and again.log.events("round_resumed") == []
    assert "violation" in again.log.events("shoe_not_resumed")[0]["reason"]
