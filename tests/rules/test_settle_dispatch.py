"""``settle`` dispatches on the game id and checks the rules' type."""

import pytest

from tablectl.cards import card
from tablectl.rounds import RoundHands, SeatHand
from tablectl.rules.errors import SettlementError
from tablectl.rules.houserules import FloridaRules, OneCardPokerRules
from tablectl.rules.settle import GAMES, settle


def one_card_round() -> RoundHands:
    return RoundHands("one-card-poker", [SeatHand(1, [card("KH")], {"primary": 100})], dealer=[card("2S")])


def test_every_game_id_has_a_settlement() -> None:
    assert set(GAMES) == {
        "one-card-poker",
        "three-card-poker",
        "one-for-the-money",
        "three-card-poker-florida",
        "texas-holdem-bonus",
    }


def test_an_unknown_game_cannot_be_settled() -> None:
    with pytest.raises(SettlementError, match="unknown game"):
        settle(RoundHands("baccarat", []))


def test_another_games_rules_are_refused() -> None:
    with pytest.raises(SettlementError, match="OneCardPokerRules"):
        settle(one_card_round(), FloridaRules())


def test_default_rules_apply_when_none_are_given() -> None:
    assert settle(one_card_round()) == settle(one_card_round(), OneCardPokerRules())


def test_an_unknown_wager_is_refused() -> None:
    hands = RoundHands("one-card-poker", [SeatHand(1, [card("KH")], {"side": 100})], dealer=[card("2S")])
    with pytest.raises(SettlementError, match="unknown wager"):
        settle(hands)


def test_a_missing_card_is_refused() -> None:
    hands = RoundHands("one-card-poker", [SeatHand(1, [], {"primary": 100})], dealer=[card("2S")])
    with pytest.raises(SettlementError, match="seat 1"):
        settle(hands)
