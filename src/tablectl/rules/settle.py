"""``settle(hands, rules)``: settle any game's round, dispatching on ``hands.game``."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
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


BANK_BOUNDS: dict[str, Callable[[Iterable[Mapping[str, int]], Any], int]] = {
    one_card_poker.GAME: one_card_poker.max_bank_pay,
    three_card_poker.GAME: three_card_poker.max_bank_pay,
    three_card_poker_florida.GAME: three_card_poker_florida.max_bank_pay,
}
"""Game id -> the most its bank could pay on a round's wagers (the games whose payouts may be
limited to the bank's stake)."""


def max_bank_pay(game: str, wagers: Iterable[Mapping[str, int]], rules: GameRules) -> int | None:
    """The most the bank of ``game`` could pay on ``wagers`` (each seat's, cents) under ``rules``,
    whatever the cards: a bank staking at least this settles exactly as with no limit. None for a
    game whose payouts are never limited to a stake."""
    bound = BANK_BOUNDS.get(game)
    return None if bound is None else bound(wagers, rules)


def cover_binds(stake: int | None, bound: int | None, rules: Any) -> bool:
    """Whether the limit to the bank's ``stake`` could change a round's settlement: the rules
    limit payouts to it, a stake was given and it is below ``bound`` (:func:`max_bank_pay`)."""
    if not getattr(rules, "limit_to_banker_stake", False) or stake is None or bound is None:
        return False
    return stake < bound


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
