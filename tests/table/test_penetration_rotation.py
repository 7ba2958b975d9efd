"""The penetration cap and the rotation of a banking player, from plain values."""

from __future__ import annotations

import pytest

from tablectl.table.procedure import penetration as pen
from tablectl.table.procedure.rotation import banker_for_round, next_banker


def test_the_cap_in_cards_rounds_down():
    assert pen.cap_cards(312, 0.9) == 280
    assert pen.cap_cards(52, 0.9) == 46
    assert pen.cap_cards(416, 0.9) == 374


def test_the_card_at_the_cap_is_accepted_the_next_is_not():
    assert not pen.past_cap(280, 280)
    assert pen.past_cap(281, 280)


@pytest.mark.parametrize(
    ("drawn", "outlook"),
    [(0, pen.OK), (239, pen.OK), (241, pen.LAST_ROUND), (259, pen.LAST_ROUND), (261, pen.RESHUFFLE)],
)
def test_the_last_round_is_announced_while_one_normal_round_still_fits(drawn, outlook):
    assert pen.outlook(drawn, 280, 20) == outlook


def test_a_round_started_on_an_announced_last_round_never_reaches_the_cap():
    budget, cap = 33, 280
    drawn = 0
    while pen.outlook(drawn, cap, budget) == pen.OK:
        drawn += 9
    assert pen.outlook(drawn, cap, budget) == pen.LAST_ROUND
    assert drawn + budget <= cap


def test_the_button_moves_clockwise_to_the_next_seat_that_wants_it():
    assert next_banker(2, {1, 4, 6}, 7) == 4
    assert next_banker(6, {1, 4, 6}, 7) == 1


def test_the_button_stays_when_only_its_seat_wants_it():
    assert next_banker(4, {4}, 7) == 4


def test_no_seat_wants_the_bank():
    assert next_banker(None, set(), 7) is None


def test_every_hand_the_designated_player_button_moves():
    assert banker_for_round(2, 1, 1, {2, 5}, 7) == (5, 0)


def test_the_player_dealer_banks_two_hands_before_the_bank_moves():
    assert banker_for_round(2, 1, 2, {2, 5}, 7) == (2, 1)
    assert banker_for_round(2, 2, 2, {2, 5}, 7) == (5, 0)


def test_a_banker_who_no_longer_wants_the_bank_passes_it_at_once():
    assert banker_for_round(2, 0, 2, {5}, 7) == (5, 0)
