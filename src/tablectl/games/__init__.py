"""The five games as the table controller knows them: one module per game, each a ``GameDef``
(decks, devices, burns, the deal script, decisions, when the round ends) with its procedure house
rules. Settlement lives in ``tablectl.rules``; the controller itself knows no game.

``GAMES`` maps each game id to its definition and imports a game's module only when that game is
looked up, so that a command about one table (``tablectl config check``) loads one game.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping

from tablectl.games.procedure import GameDef

#: game id -> its module under ``tablectl.games`` (each exports ``GAME_DEF``), in the games' order
_MODULES: dict[str, str] = {
    "one-card-poker": "one_card_poker",
    "three-card-poker": "three_card_poker",
    "one-for-the-money": "one_for_the_money",
    "three-card-poker-florida": "three_card_poker_florida",
    "texas-holdem-bonus": "texas_holdem_bonus",
}


class _Games(Mapping[str, GameDef]):
    """Game id -> ``GameDef``, each game's module imported on its first lookup."""

    def __init__(self, modules: Mapping[str, str]) -> None:
        self._modules = dict(modules)
        self._loaded: dict[str, GameDef] = {}

    def __getitem__(self, game_id: str) -> GameDef:
        found = self._loaded.get(game_id)
        if found is None:
            module = self._modules[game_id]  # KeyError for an unknown id, as a dict
            found = importlib.import_module(f"tablectl.games.{module}").GAME_DEF
            if found.id != game_id:
                raise RuntimeError(f"tablectl.games.{module} defines {found.id!r}, not {game_id!r}")
            self._loaded[game_id] = found
        return found

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._modules

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __len__(self) -> int:
        return len(self._modules)

    def __repr__(self) -> str:
        return f"GAMES({', '.join(self._modules)})"


GAMES: Mapping[str, GameDef] = _Games(_MODULES)
"""Game id -> definition, in the games' order."""


class UnknownGame(LookupError):
    """A game id that is not one of ``GAMES``."""


def game(game_id: str) -> GameDef:
    """The definition of ``game_id``; ``UnknownGame`` names the known ids."""
    try:
        return GAMES[game_id]
    except KeyError:
        raise UnknownGame(f"unknown game {game_id!r} (expected one of {', '.join(GAMES)})") from None


__all__ = ["GAMES", "GameDef", "UnknownGame", "game"]
