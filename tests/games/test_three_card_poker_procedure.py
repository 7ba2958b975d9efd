"""Player-banked Three Card Poker's procedure, as the deal script walks it."""

from __future__ import annotations

from tablectl.games.procedure import DEALER, Reveal, seat_to
from tablectl.games.three_card_poker import GAME_DEF as TCP
from tablectl.rules.three_card_poker import FOLD_DECISION, PLAY_DECISION

DECK = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2H 3H"


def test_a_three_card_packet_per_seat_clockwise_then_the_dealers(walk):
    w = walk(TCP, [2, 5], DECK, [PLAY_DECISION, PLAY_DECISION], banker=8, packets=True)
    assert w.packets == [(seat_to(2), 3), (seat_to(5), 3), (DEALER, 3)]


def test_the_rest_of_the_deck_is_discarded_before_the_decisions(walk):
    w = walk(TCP, [2], DECK, lambda d: PLAY_DECISION, banker=8, packets=True)
    assert w.discards == 1


def test_each_seat_with_an_ante_plays_or_folds_from_the_dealers_left(walk):
    w = walk(TCP, [1, 3, 4], DECK, lambda d: PLAY_DECISION, banker=8, packets=True)
    assert [(d.seat, d.options) for d in w.asked] == [(s, (PLAY_DECISION, FOLD_DECISION)) for s in (1, 3, 4)]


def test_cards_are_dealt_face_down(walk):
    w = walk(TCP, [1], DECK, [PLAY_DECISION], banker=8, packets=True)
    hands = w.hands
    assert hands is not None and len(hands.seats[0].cards) == 3 and len(hands.dealer) == 3


def test_the_dealers_hand_and_the_hands_that_played_are_turned_up_not_the_folded(walk):
    w = walk(TCP, [1, 2], DECK, [FOLD_DECISION, PLAY_DECISION], banker=8, packets=True)
    assert w.effects == [Reveal(DEALER), Reveal(seat_to(2))]


def test_the_bank_moves_every_two_hands():
    assert (TCP.banker, TCP.bank_every) == ("player-dealer", 2)
