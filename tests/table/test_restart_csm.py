"""A continuous shuffler keeps its cards when the controller restarts, as a shoe does: the restarted
table takes it over from its log (``tablectl.table.restart.resume``) — the cards out of it, which must
still come back; the cards a supervisor wrote off; the round in play — instead of wanting the
whole machine reloaded. Driven from plain device events and inputs; the restart is a new
``TableCore`` given the old log."""

from __future__ import annotations

import pytest

from tablectl.cards import card
from tablectl.table import lifecycle as lc
from tablectl.table.inputs import Decision, EndRound, InputRejected, Resolve, StartRound
from tablectl.table.procedure import validation as va
from tablectl.table.restart.resume import fold

ANTE = {1: {"ante": 500}}


def after_a_round(table):
    """One for the Money from a continuous shuffler: one round played (AS to seat 1, KS and QS to
    the dealer), its cards not yet back in the shuffler."""
    t = table("one-for-the-money")
    t.shuffle(decks=6)
    t.input(StartRound((1,), ANTE))
    t.draw("AS", "KS", "QS")
    t.input(Decision(1, "check"))
    t.input(EndRound())
    return t


# --- from plain records ----------------------------------------------------------------------------


SHUFFLED = [{"event": "shuffle_done", "shoe": 1, "device": "dev"}, {"event": "state", "to": lc.READY}]


def dealt(text: str) -> dict[str, object]:
    return {"event": "dealt", "card": text, "shoe": 1, "device": "dev"}


def returned(text: str) -> dict[str, object]:
    return {"event": "returned", "card": text, "shoe": 1, "device": "dev"}


def test_the_cards_taken_over_are_those_drawn_and_not_returned_yet() -> None:
    shoe = fold([*SHUFFLED, dealt("AS"), dealt("KS"), dealt("QS"), returned("KS")], "dev").shoe
    assert shoe.cards == (card("AS"), card("QS")) and shoe.drawn == 3


def test_cards_a_supervisor_wrote_off_stay_written_off_until_they_come_back() -> None:
    resolved = {"event": "resolved", "kinds": [va.CARD_NOT_RETURNED]}
    records = [*SHUFFLED, dealt("AS"), dealt("QS"), returned("AS"), resolved]
    assert fold(records, "dev").shoe.written_off == (card("QS"),)
    back = fold([*records, returned("QS")], "dev").shoe
    assert back.written_off == () and back.cards == ()


# --- a restarted table -----------------------------------------------------------------------------


def test_a_restart_between_rounds_deals_on_from_the_shuffler_and_takes_its_cards_back(table) -> None:
    again = after_a_round(table).restarted()
    assert again.state == lc.READY  # not idle, wanting the whole shuffler reloaded
    assert again.log.events("shoe_resumed")[-1]["cards"] == ["AS", "KS", "QS"]
    again.returned("AS", "KS", "QS")
    again.input(StartRound((1,), ANTE))
    assert again.kinds() == [] and again.state == lc.IN_ROUND


def test_a_card_of_the_last_round_still_out_after_the_restart_is_flagged(table) -> None:
    again = after_a_round(table).restarted()
    again.returned("AS", "KS")
    with pytest.raises(InputRejected, match="return the cards to the shuffler first"):
        again.input(StartRound((1,), ANTE))
    with pytest.raises(InputRejected, match="not back"):
        again.input(StartRound((1,), ANTE))
    violation = again.log.events("violation")[-1]
    assert (violation["kind"], violation["cards"]) == (va.CARD_NOT_RETURNED, ["QS"])


def test_a_card_written_off_before_the_restart_is_not_asked_for_again(table) -> None:
    t = after_a_round(table)
    t.returned("AS", "KS")
    for _ in range(2):  # refused (return them first), then held
        with pytest.raises(InputRejected):
            t.input(StartRound((1,), ANTE))
    t.input(Resolve("sup-9", note="QS is lost"))
    again = t.restarted()
    again.input(StartRound((1,), ANTE))
    again.draw("2C", "3C", "4C")
    again.input(Decision(1, "check"))
    again.input(EndRound())
    again.returned("QS", "2C", "3C", "4C")  # the lost card turns up: welcome back, no violation
    again.input(StartRound((1,), ANTE))
    assert again.kinds() == [] and again.state == lc.IN_ROUND


def test_a_round_in_play_at_the_shuffler_goes_on_after_the_restart(table) -> None:
    t = table("one-for-the-money")
    t.shuffle(decks=6)
    t.input(StartRound((1,), ANTE))
    t.draw("AS", "KS")
    again = t.restarted()
    assert again.state == lc.IN_ROUND and again.log.events("round_resumed")[-1]["round"] == 1
    again.draw("QS")
    again.input(Decision(1, "check"))
    again.input(EndRound())
    again.returned("AS", "KS", "QS")
    again.input(StartRound((1,), ANTE))
    assert again.kinds() == [] and again.log.events("round_started")[-1]["round"] == 2
