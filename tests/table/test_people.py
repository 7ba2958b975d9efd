"""The people at the table, pure: the dealer on duty and the bank's rotation."""

from __future__ import annotations

from tablectl.table.people import People


def test_a_first_sign_in_has_no_previous_dealer_and_a_change_names_it() -> None:
    p = People(every=0, seats=7)
    assert p.sign_in("D-01") is None
    assert p.sign_in("D-02") == "D-01" and p.dealer == "D-02"


def test_an_offer_with_nobody_banking_gives_the_bank_to_that_seat_between_rounds_only() -> None:
    p = People(every=1, seats=7)
    assert p.offer(3, True, may_take=False) is None and p.banker is None
    assert p.offer(4, True, may_take=True) == (3, None)  # the rotation from seat 1 finds seat 3 first


def test_the_designated_player_button_moves_every_hand_to_the_next_seat_that_wants_it() -> None:
    p = People(every=1, seats=7, wanting={2, 5})
    p.take_round(*p.for_round())
    assert p.banker == 2
    assert p.round_banked() == (5, 2)
    assert p.round_banked() == (2, 5)


def test_the_player_dealer_keeps_the_bank_two_hands() -> None:
    p = People(every=2, seats=8, wanting={1, 4})
    p.take_round(*p.for_round())
    assert p.round_banked() is None and p.banker == 1
    assert p.round_banked() == (4, 1)


def test_a_bank_no_other_seat_wants_stays_where_it_is() -> None:
    p = People(every=1, seats=7, wanting={6})
    p.take_round(*p.for_round())
    assert p.round_banked() is None and p.banker == 6
