"""Texas Hold'em Bonus's procedure, as the deal script walks it."""

from __future__ import annotations

from tablectl.games.procedure import BOARD, BURN, DEALER, Reveal, seat_to
from tablectl.games.texas_holdem_bonus import GAME_DEF as THB
from tablectl.rules.texas_holdem_bonus import CHECK, FLOP, FOLD_DECISION, RIVER, TURN

DECK = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2H 3H 4H 5H 6H 7H 8H"


def test_from_a_shoe_two_rounds_of_one_card_to_each_seat_and_the_dealer(walk):
    w = walk(THB, [1, 2], DECK, lambda d: d.options[0])
    assert w.order[:6] == [seat_to(1), seat_to(2), DEALER] * 2


def test_from_a_shuffler_two_card_packets_then_the_board_in_three_packets(walk):
    w = walk(THB, [1, 2], DECK, lambda d: d.options[0], packets=True)
    assert w.packets == [(seat_to(1), 2), (seat_to(2), 2), (DEALER, 2), (BOARD, 3), (BOARD, 1), (BOARD, 1)]
    assert w.discards == 1


def test_flop_bet_or_fold_then_turn_and_river_bet_or_check(walk):
    w = walk(THB, [1], DECK, lambda d: d.options[0])
    assert [d.options for d in w.asked] == [(FLOP, FOLD_DECISION), (TURN, CHECK), (RIVER, CHECK)]
    assert w.hands is not None and w.hands.seats[0].decisions == [FLOP, TURN, RIVER]


def test_no_burns_by_default(walk):
    w = walk(THB, [1], DECK, lambda d: d.options[0])
    assert BURN not in w.order


def test_house_rule_burns_one_before_flop_turn_and_river(walk):
    w = walk(THB, [1], DECK, lambda d: d.options[0], rules={"burn_before_community": True})
    assert w.order[4:] == [BURN, BOARD, BOARD, BOARD, BURN, BOARD, BURN, BOARD]


def test_a_folded_seat_is_not_asked_again(walk):
    w = walk(THB, [1, 2], DECK, [FOLD_DECISION, FLOP, CHECK, CHECK])
    assert [d.seat for d in w.asked] == [1, 2, 2, 2]


def test_when_every_seat_folds_no_board_is_dealt(walk):
    w = walk(THB, [1, 2], DECK, [FOLD_DECISION, FOLD_DECISION])
    assert BOARD not in w.order
    assert w.hands is not None and w.hands.board == []


def test_the_dealers_and_the_live_hands_are_turned_up(walk):
    w = walk(THB, [1, 2], DECK, [FOLD_DECISION, FLOP, CHECK, CHECK])
    assert w.effects == [Reveal(DEALER), Reveal(seat_to(2))]
