"""Three Card Poker, Florida variant, as the deal script walks it."""

from __future__ import annotations

from tablectl.games.procedure import DEALER, Reveal, seat_to
from tablectl.games.three_card_poker_florida import GAME_DEF as FL
from tablectl.rules.three_card_poker_florida import FOLD_DECISION, RAISE

DECK = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2H 3H"


def test_three_cards_to_each_seat_and_the_dealer(walk):
    w = walk(FL, [1, 2], DECK, [RAISE, RAISE], packets=True)
    assert w.packets == [(seat_to(1), 3), (seat_to(2), 3), (DEALER, 3)]


def test_only_a_seat_with_an_ante_decides(walk):
    wagers = {1: {"ante": 500}, 2: {"pairplus": 500}, 3: {"ante": 500, "pairplus": 500}}
    w = walk(FL, [1, 2, 3], DECK + " 4H 5H 6H", [RAISE, FOLD_DECISION], packets=True, wagers=wagers)
    assert [d.seat for d in w.asked] == [1, 3]


def test_folded_hands_stay_face_down(walk):
    w = walk(FL, [1, 2], DECK, [FOLD_DECISION, RAISE], packets=True)
    assert w.effects == [Reveal(DEALER), Reveal(seat_to(2))]


def test_no_banking_player():
    assert FL.banker is None
