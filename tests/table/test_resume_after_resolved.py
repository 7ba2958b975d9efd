"""After a restart the round in play is taken over when nothing is pending (docs/table.md, "After a
restart"): a violation the supervisor resolved, or a misread card the dealer identified, does not
keep it from the supervisor-free restart; a violation still open, or a misread card nobody
identified, does. Driven from plain device events and inputs (``Table.restarted``)."""

from __future__ import annotations

from typing import Any

from tablehelpers import ocp_round

from tablectl.cards import card
from tablectl.table import lifecycle as lc
from tablectl.table.inputs import IdentifyCard, Resolve
from tablectl.table.restart.resume import fold


def settled(t: Any) -> list[tuple[Any, ...]]:
    return [(s["seat"], s["bet"], s["outcome"], s["net"]) for s in t.log.events("settled")]


def test_a_round_whose_violation_was_resolved_is_taken_over_and_one_still_open_is_not(table) -> None:
    straight, resolved, held = ocp_round(table), ocp_round(table), ocp_round(table)
    straight.draw("9S", "5H", "QC")
    for t in (resolved, held):
        t.draw("9S")
        t.burn("4D")  # a burn where seat 2's card was due: BURN EXTRA holds the table
        assert t.state == lc.HELD and t.kinds() == ["burn_extra"]
    resolved.input(Resolve("pit-anna", "checked"))
    resolved.draw("5H")

    again = resolved.restarted()
    assert again.log.events("shoe_not_resumed") == []
    assert again.state == lc.IN_ROUND and again.log.events("round_resumed")[0]["cards"] == 2
    again.draw("QC")
    assert again.log.events("dealt")[-1]["to"] == "dp"
    assert again.state == lc.SETTLING and settled(again) == settled(straight) != []

    still_held = held.restarted()
    assert still_held.state == lc.IDLE and still_held.log.events("round_resumed") == []
    assert "violation" in still_held.log.events("shoe_not_resumed")[0]["reason"]


def test_a_round_whose_misread_card_was_identified_is_taken_over_and_one_unidentified_is_not(table) -> None:
    straight, identified = ocp_round(table), ocp_round(table)
    straight.draw("9S", "5H", "QC")
    identified.draw("9S", None)  # seat 2's card misread: the table holds
    assert identified.state == lc.HELD and identified.kinds() == ["misread"]
    identified.input(IdentifyCard(card("5H")))
    identified.input(Resolve("pit-anna", "5H read by hand"))

    again = identified.restarted()
    assert again.log.events("shoe_not_resumed") == []
    assert again.state == lc.IN_ROUND and again.log.events("round_resumed")[0]["cards"] == 2
    again.draw("QC")
    assert again.log.events("dealt")[-1]["to"] == "dp"
    assert again.state == lc.SETTLING and settled(again) == settled(straight) != []

    # the same log without the dealer's identification: the misread card still waits
    unidentified = [r for r in [*identified.history, *identified.log.lines] if r["event"] != "identified"]
    state = fold(unidentified, "dev")
    assert state.shoe is None and "misread card" in (state.not_resumed or "")
