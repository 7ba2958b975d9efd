"""The most a bank could pay on a round's wagers (``max_bank_pay`` of each player-banked game)
and that a bank staking that much settles exactly as with no limit."""

from __future__ import annotations

import dataclasses
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tablectl.cards import full_deck
from tablectl.rounds import RoundHands, SeatHand
from tablectl.rules import one_card_poker as ocp
from tablectl.rules import three_card_poker as tcp
from tablectl.rules import three_card_poker_florida as florida
from tablectl.rules.houserules import FloridaRules, OneCardPokerRules, ThreeCardPokerRules
from tablectl.rules.settle import cover_binds, max_bank_pay, settle

SHIPPED_TCP = ThreeCardPokerRules.from_dict({
    "limit_to_banker_stake": True, "fold_forfeits_pairplus": True, "fold_forfeits_six_card_bonus": False,
    "ante_bonus": {"straight_flush": 5, "three_of_a_kind": 4, "straight": 1},
    "pairplus": {"straight_flush": 40, "three_of_a_kind": 30, "straight": 6, "flush": 4, "pair": 1},
})


def test_three_card_poker_bound_is_ante_play_ante_bonus_pair_plus_and_six_card_bonus_tops() -> None:
    # $10 Ante: Ante 10 + Play 10 + Ante bonus 5 x 10; $5 Pair Plus 40:1; $5 6 Card Bonus 1000:1
    wagers = [{"ante": 1000, "pairplus": 500, "six-card-bonus": 500}]
    assert tcp.max_bank_pay(wagers, SHIPPED_TCP) == 1000 + 1000 + 5000 + 20_000 + 500_000


def test_three_card_poker_bound_sums_the_seats() -> None:
    assert tcp.max_bank_pay([{"ante": 1000}, {"pairplus": 100}], SHIPPED_TCP) == 7000 + 4000


def test_three_card_poker_bound_follows_the_pay_tables() -> None:
    rules = dataclasses.replace(SHIPPED_TCP, pairplus=dataclasses.replace(SHIPPED_TCP.pairplus, straight_flush=100))
    assert tcp.max_bank_pay([{"pairplus": 100}], rules) == 10_000


def test_florida_bound_is_ante_play_and_the_pairplus_top_line() -> None:
    assert florida.max_bank_pay([{"ante": 1000, "pairplus": 500}], FloridaRules()) == 2000 + 200 * 500


def test_one_card_poker_bound_is_primary_war_and_the_tie_top_line() -> None:
    assert ocp.max_bank_pay([{"primary": 1000, "tie": 500}], OneCardPokerRules()) == 2000 + 200 * 500


def test_house_banked_games_have_no_bound() -> None:
    assert max_bank_pay("texas-holdem-bonus", [{"ante": 100}], None) is None


def test_the_limit_binds_only_where_the_rules_limit_and_the_stake_is_short() -> None:
    assert cover_binds(999, 1000, SHIPPED_TCP)
    assert not cover_binds(1000, 1000, SHIPPED_TCP)
    assert not cover_binds(None, 1000, SHIPPED_TCP)
    assert not cover_binds(1, 1000, dataclasses.replace(SHIPPED_TCP, limit_to_banker_stake=False))


def _tcp_round(seed: int, n: int, extend: bool) -> tuple[RoundHands, ThreeCardPokerRules]:
    rng = random.Random(seed)
    deck = full_deck()
    rng.shuffle(deck)
    seats = []
    for s in range(1, n + 1):
        wagers = {k: 100 * rng.randint(1, 50) for k in ("ante", "pairplus", "six-card-bonus") if rng.random() < 0.7}
        wagers = wagers or {"ante": 500}
        decisions = [rng.choice(["play", "fold"])] if "ante" in wagers else []
        seats.append(SeatHand(s, [deck.pop() for _ in range(3)], wagers, decisions))
    rules = dataclasses.replace(SHIPPED_TCP, losses_extend_cover=extend)
    return RoundHands("three-card-poker", seats, [deck.pop() for _ in range(3)], banker_seat=8), rules


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(1, 7), extend=st.booleans())
def test_a_three_card_poker_bank_staking_the_bound_settles_as_with_no_limit(seed: int, n: int, extend: bool) -> None:
    hands, rules = _tcp_round(seed, n, extend)
    hands.banker_stake = tcp.max_bank_pay([s.wagers for s in hands.seats], rules)
    unlimited = settle(hands, dataclasses.replace(rules, limit_to_banker_stake=False))
    assert settle(hands, rules) == unlimited


def test_a_bank_staking_a_cent_less_than_the_bound_can_be_capped() -> None:
    # a straight flush wins the Ante, the Play and the Ante bonus and Pair Plus top lines
    from tablectl.cards import cards

    seat = SeatHand(1, cards("2s 3s 4s"), {"ante": 1000, "pairplus": 100}, ["play"])
    hands = RoundHands("three-card-poker", [seat], cards("Kh 7d 2c"), banker_seat=8)
    bound = tcp.max_bank_pay([seat.wagers], SHIPPED_TCP)
    hands.banker_stake = bound
    assert sum(b.net for b in settle(hands, SHIPPED_TCP).results) == bound
    hands.banker_stake = bound - 1
    assert sum(b.net for b in settle(hands, SHIPPED_TCP).results) == bound - 1
