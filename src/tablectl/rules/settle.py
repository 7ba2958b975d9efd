"""``settle(hands, rules)``: settle any game's round, dispatching on ``hands.game``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tablectl.rounds import RoundHands, Settlement
from tablectl.rules import (
    one_card_poker,
    one_for_the_money,
    texas_holdem_bonus,
    three_card_poker,
    three_card_poker_florida,
)
from tablectl.rules.errors import SettlementError
from tablectl.rules.houserules import RULES_BY_GAME, GameRules

GAMES: dict[str, Callable[[RoundHands, Any], Settlement]] = {
    one_card_poker.GAME: one_card_poker.settle_round,
    three_card_poker.GAME: three_card_poker.settle_round,
    one_for_the_money.GAME: one_for_the_money.settle_round,
    three_card_poker_florida.GAME: three_card_poker_florida.settle_round,
    texas_holdem_bonus.GAME: texas_holdem_bonus.settle_round,
}
"""Game id -> its settlement function."""


def settle(hands: RoundHands, rules: GameRules | None = None) -> Settlement:
    """Settle one round. ``rules``: the game's house rules (``None``: the defaults)."""
    try:
        settle_round = GAMES[hands.game]
    except KeyError:
        raise SettlementError(f"unknown game {hands.game!r} (expected one of {', '.join(GAMES)})") from None
    expected = RULES_BY_GAME[hands.game]
    if rules is None:
        rules = expected()
    elif not isinstance(rules, expected):
        raise SettlementError(f"{hands.game} is settled with {expected.__name__}, got {type(rules).__name__}")
    return settle_round(hands, rules)
