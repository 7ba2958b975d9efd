"""Which games' decisions the export values under the hidden-information hypotheses."""

from __future__ import annotations

from tablectl.analytics.sightings import UNSIGHTED, sightings
from tablectl.games import GAMES
from tablectl.rounds import RoundHands


def test_a_texas_holdem_bonus_round_gives_no_sightings_whatever_its_decisions() -> None:
    judged = [object()]  # never looked at: the game alone decides
    assert sightings(RoundHands("texas-holdem-bonus", []), judged) == []  # type: ignore[list-item]


def test_every_unsighted_game_is_a_game_tablectl_knows() -> None:
    assert UNSIGHTED <= set(GAMES)
