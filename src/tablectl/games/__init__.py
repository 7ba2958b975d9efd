"""The five games as the table controller knows them: one module per game, each a ``GameDef``
(decks, devices, burns, the deal script, decisions, when the round ends) with its procedure house
rules. Settlement lives in ``tablectl.rules``; the controller itself knows no game.
"""

from __future__ import annotations

from tablectl.games import (
    one_card_poker,
    one_for_the_money,
    texas_holdem_bonus,
    three_card_poker,
    three_card_poker_florida,
)
from tablectl.games.procedure import GameDef

GAMES: dict[str, GameDef] = {
    g.id: g
    for g in (
        one_card_poker.GAME_DEF,
        three_card_poker.GAME_DEF,
        one_for_the_money.GAME_DEF,
        three_card_poker_florida.GAME_DEF,
        texas_holdem_bonus.GAME_DEF,
    )
}
"""Game id -> definition: One Card Poker, Three Card Poker, One for the Money, Three Card Poker
(Florida), Texas Hold'em Bonus."""


class UnknownGame(LookupError):
    """A game id that is not one of ``GAMES``."""


def game(game_id: str) -> GameDef:
    """The definition of ``game_id``; ``UnknownGame`` names the known ids."""
    try:
        return GAMES[game_id]
    except KeyError:
        raise UnknownGame(f"unknown game {game_id!r} (expected one of {', '.join(GAMES)})") from None


__all__ = ["GAMES", "GameDef", "UnknownGame", "game"]
