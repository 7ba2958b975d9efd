"""One Card Poker's procedure, as the deal script walks it."""

from __future__ import annotations

from tablectl.cards import cards
from tablectl.games.one_card_poker import GAME_DEF as OCP
from tablectl.games.procedure import BURN, DP, seat_to
from tablectl.rules.one_card_poker import DP_DECLINES, EXTEND, SURRENDER
from tablectl.rules.settle import settle


def test_one_card_to_each_seat_clockwise_then_the_dp(walk):
    w = walk(OCP, [1, 3, 5], "2S 3S 4S 5S", banker=7)
    assert w.order == [seat_to(1), seat_to(3), seat_to(5), DP]


def test_house_rule_dp_card_first_reverses_the_order(walk):
    w = walk(OCP, [1, 3], "2S 3S 4S", banker=7, rules={"dp_card": "first"})
    assert w.order == [DP, seat_to(1), seat_to(3)]


def test_no_tie_ends_the_round_without_a_decision(walk):
    w = walk(OCP, [1, 2], "AS KS QS", banker=7)
    assert w.asked == []
    assert w.hands is not None and w.hands.dealer == [40]  # QS


def test_ties_are_asked_from_the_dealers_right_to_left(walk):
    w = walk(OCP, [1, 2, 4], "9S 5H 9D 9C", [SURRENDER, SURRENDER], banker=6)
    assert [d.seat for d in w.asked] == [4, 1]


def test_a_surrender_asks_nothing_of_the_dp(walk):
    w = walk(OCP, [1], "9S 9C", [SURRENDER], banker=6)
    assert [(d.seat, d.banker) for d in w.asked] == [(1, False)]
    assert w.hands is not None and w.hands.seats[0].decisions == [SURRENDER]


def test_dp_declining_the_war_deals_no_war(walk):
    w = walk(OCP, [1], "9S 9C", [EXTEND, DP_DECLINES], banker=6)
    assert w.asked[1].seat == 6 and w.asked[1].banker
    assert len(w.placements) == 2
    assert w.hands is not None and w.hands.seats[0].decisions == [EXTEND, DP_DECLINES]


def test_a_war_is_burn_three_player_card_burn_three_dp_card(walk):
    w = walk(OCP, [1], "9S 9C  2S 2H 2D KS 3S 3H 3D 4C", [EXTEND, EXTEND], banker=6)
    assert w.order[2:] == [BURN] * 3 + [seat_to(1)] + [BURN] * 3 + [DP]
    assert w.hands is not None and w.hands.seats[0].war == [tuple(cards("KS 4C"))]


def test_a_tied_war_is_dealt_again_without_more_decisions(walk):
    w = walk(OCP, [1], "9S 9C  2S 2H 2D KS 3S 3H 3D KC  4S 4H 4D AS 5S 5H 5D 6C", [EXTEND, EXTEND], banker=6)
    assert len(w.asked) == 2
    assert w.hands is not None and len(w.hands.seats[0].war) == 2


def test_the_round_it_builds_is_settled_by_the_rules_engine(walk):
    w = walk(OCP, [1, 2], "9S 9H 9C  2S 2H 2D KS 3S 3H 3D 4C", [SURRENDER, EXTEND, EXTEND], banker=6)
    hands = w.hands
    assert hands is not None
    hands.banker_seat = 6
    for seat in hands.seats:
        seat.wagers = {"primary": 1000}
    settlement = settle(hands)
    assert (settlement.net_for(1), settlement.net_for(2)) == (2000, -500)


def test_the_normal_round_budget_counts_the_war_reserve():
    rules = OCP.procedure_rules({"war_reserve": 2})
    assert OCP.round_budget(6, rules) == 6 + 1 + 2 * 8
