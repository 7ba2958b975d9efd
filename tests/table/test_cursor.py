"""The procedure cursor: where the next card goes, decisions, packets, corrections, misreads."""

from __future__ import annotations

import pytest

from tablectl.cards import card
from tablectl.games.procedure import BURN_WAR, Burn, Deal, Decide, Discard, Reveal, RoundContext, Script
from tablectl.rounds import RoundHands, SeatHand
from tablectl.table.procedure.cursor import CursorError, RoundCursor


def toy(ctx: RoundContext) -> Script:
    """Two cards to seat 1, one to the dealer; seat 1 decides; on "more" a burn and a card."""
    first = yield (Deal("seat:1"), Deal("seat:1"), Deal("dealer", face_up=False))
    hand = SeatHand(1, list(first[:2]))
    choice = yield Decide(1, ("more", "stay"))
    hand.decisions.append(choice)
    if choice == "more":
        (_, extra) = yield (Burn(BURN_WAR), Deal("seat:1"))
        hand.cards.append(extra)
    if ctx.packets:
        yield Discard()
    yield Reveal("dealer")
    return RoundHands("toy", [hand], dealer=[first[2]])


def cursor(packets: bool = False) -> RoundCursor:
    return RoundCursor(toy, RoundContext((1,), None, None, packets, None))


def test_the_next_card_goes_to_the_next_step_of_the_phase():
    c = cursor()
    c.place(card("2S"))
    assert c.expected() == Deal("seat:1")
    assert [s.to for s in c.remaining()] == ["seat:1", "dealer"]


def test_no_card_is_expected_while_a_decision_is_awaited():
    c = cursor()
    for t in ("2S", "3S", "4S"):
        c.place(card(t))
    assert c.expected() is None and c.decision == Decide(1, ("more", "stay"))
    with pytest.raises(CursorError):
        c.place(card("5S"))


def test_a_decision_not_offered_is_refused():
    c = cursor()
    for t in ("2S", "3S", "4S"):
        c.place(card(t))
    with pytest.raises(CursorError, match="more or stay"):
        c.decide(1, "double")


def test_a_decision_by_the_wrong_seat_is_refused():
    c = cursor()
    for t in ("2S", "3S", "4S"):
        c.place(card(t))
    with pytest.raises(CursorError, match="seat 1 decides"):
        c.decide(2, "more")


def test_a_decision_changes_what_comes_next():
    c = cursor()
    for t in ("2S", "3S", "4S"):
        c.place(card(t))
    c.decide(1, "more")
    assert c.remaining() == (Burn(BURN_WAR), Deal("seat:1"))


def test_the_script_returns_the_rounds_hands_when_done():
    c = cursor()
    for t in ("2S", "3S", "4S"):
        c.place(card(t))
    c.decide(1, "stay")
    assert c.done and c.hands is not None and c.hands.seats[0].cards == [card("2S"), card("3S")]
    assert c.take_effects() == [Reveal("dealer")]


def test_a_packet_is_the_run_of_steps_to_one_position():
    c = cursor(packets=True)
    assert c.packet() == (Deal("seat:1"), 2)
    c.place(card("2S"))
    c.place(card("3S"))
    assert c.packet() == (Deal("dealer", face_up=False), 1)


def test_a_shuffler_discard_is_awaited_where_the_script_says():
    c = cursor(packets=True)
    for t in ("2S", "3S", "4S"):
        c.place(card(t))
    c.decide(1, "stay")
    assert c.discard and not c.done
    c.discarded(49)
    assert c.done


def test_skipping_a_missing_burn_moves_to_the_next_position():
    c = cursor()
    for t in ("2S", "3S", "4S"):
        c.place(card(t))
    c.decide(1, "more")
    assert c.skip_burns() == 1
    assert c.expected() == Deal("seat:1")


def test_an_exposed_card_in_the_phase_is_taken_back_and_its_step_dealt_again():
    c = cursor()
    c.place(card("2S"))
    step, taken = c.retract()
    assert (step, taken) == (Deal("seat:1"), card("2S"))
    assert c.expected() == Deal("seat:1") and c.filled == []


def test_an_exposed_card_that_completed_a_phase_is_taken_back_by_replaying_the_script():
    c = cursor()
    for t in ("2S", "3S", "4S"):
        c.place(card(t))
    step, taken = c.retract()
    assert (step.to, taken) == ("dealer", card("4S"))
    assert c.decision is None and c.expected() == Deal("dealer", face_up=False)
    c.place(card("5S"))
    c.decide(1, "stay")
    assert c.hands is not None and c.hands.dealer == [card("5S")]


def test_a_card_cannot_be_taken_back_after_a_decision():
    c = cursor()
    for t in ("2S", "3S", "4S"):
        c.place(card(t))
    c.decide(1, "more")
    with pytest.raises(CursorError):
        c.retract()


def test_a_burn_cannot_be_taken_back_as_an_exposed_card():
    c = cursor()
    for t in ("2S", "3S", "4S"):
        c.place(card(t))
    c.decide(1, "more")
    c.place(card("5S"))
    with pytest.raises(CursorError, match="burn"):
        c.retract()


def test_a_misread_card_holds_the_phase_until_identified():
    c = cursor()
    c.place(card("2S"))
    c.place(None)
    c.place(card("4S"))
    assert c.unidentified and c.decision is None
    c.identify(card("3S"))
    assert c.decision is not None


def test_a_card_dealt_while_a_burn_is_due_takes_the_step_after_it():
    c = cursor()
    for t in ("2S", "3S", "4S"):
        c.place(card(t))
    c.decide(1, "more")
    assert c.place(card("5S"), past_burns=True) == Deal("seat:1")
    assert c.done and c.hands is not None and c.hands.seats[0].cards == [card("2S"), card("3S"), card("5S")]


def test_a_burned_card_takes_the_burn_step():
    c = cursor()
    for t in ("2S", "3S", "4S"):
        c.place(card(t))
    c.decide(1, "more")
    assert c.place(card("5S")) == Burn(BURN_WAR)
    assert c.expected() == Deal("seat:1")


def test_a_run_of_cards_goes_where_placing_each_in_turn_puts_them():
    one_by_one, as_a_run = cursor(), cursor()
    for t in ("2S", "3S", "4S"):
        one_by_one.place(card(t))
    as_a_run.place_run([card("2S"), card("3S")])
    assert as_a_run.filled == [card("2S"), card("3S")] and as_a_run.decision is None
    as_a_run.place_run([card("4S")])
    assert as_a_run.decision == one_by_one.decision == Decide(1, ("more", "stay"))


def test_a_run_with_a_misread_card_holds_the_phase_until_identified():
    c = cursor()
    c.place_run([card("2S"), None, card("4S")])
    assert c.unidentified and c.decision is None
    c.identify(card("3S"))
    assert c.decision is not None


def test_a_run_longer_than_the_phase_is_refused_whole():
    c = cursor()
    with pytest.raises(CursorError, match="no card is expected now"):
        c.place_run([card("2S"), card("3S"), card("4S"), card("5S")])
    assert c.filled == []
