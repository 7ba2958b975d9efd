"""One for the Money's procedure, as the deal script walks it."""

from __future__ import annotations

from tablectl.cards import card
from tablectl.games.one_for_the_money import GAME_DEF as OFTM
from tablectl.games.procedure import DEALER, Reveal, Trade, seat_to
from tablectl.rules.one_for_the_money import CHECK, RAISE, STAND, TRADE


def test_one_card_up_to_each_seat_then_two_down_to_the_dealer(walk):
    w = walk(OFTM, [1, 4], "2S 3S 4S 5S", [CHECK, CHECK])
    assert w.order == [seat_to(1), seat_to(4), DEALER, DEALER]
    assert w.asked[0].options == (CHECK, RAISE, TRADE)


def test_a_trade_discards_the_card_and_deals_its_replacement(walk):
    w = walk(OFTM, [1, 2], "2S 3S 4S 5S 9D", [TRADE, STAND, CHECK])
    assert Trade(1, card("2S")) in w.effects
    assert w.to(seat_to(1)) == ["2S", "9D"]
    hands = w.hands
    assert hands is not None and hands.seats[0].cards == [card("9D")] and hands.seats[0].traded == [card("2S")]


def test_after_a_trade_the_player_stands_or_raises(walk):
    w = walk(OFTM, [1], "2S 4S 5S 9D", [TRADE, RAISE])
    assert w.asked[1].options == (STAND, RAISE)
    assert w.hands is not None and w.hands.seats[0].decisions == [TRADE, RAISE]


def test_the_dealer_turns_both_cards_up_at_the_end(walk):
    w = walk(OFTM, [1], "2S 4S 5S", [CHECK])
    assert w.effects == [Reveal(DEALER)]


def test_a_normal_round_may_take_a_trade_per_seat():
    assert OFTM.round_budget(7, OFTM.procedure_rules()) == 7 * 2 + 2
