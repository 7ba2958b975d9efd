"""The virtual dealer's players decide by the game math's strategy."""

from __future__ import annotations

import random

from tablectl.cards import cards
from tablectl.games.three_card_poker import OPTIONS
from tablectl.table.simulated.players import Players


def test_the_three_card_poker_player_folds_q63_and_plays_q64() -> None:
    players = Players("three-card-poker", 1, random.Random(1))
    play, fold = OPTIONS
    assert players.decide(OPTIONS, cards("QS 6H 3D")) == fold
    assert players.decide(OPTIONS, cards("QS 6H 4D")) == play
    assert players.decide(OPTIONS, cards("4D QS 6H")) == play


def test_a_player_with_an_error_rate_errs_at_that_rate() -> None:
    players = Players("three-card-poker", 1, random.Random(2), errors=0.1)
    play, _ = OPTIONS
    wrong = sum(players.decide(OPTIONS, cards("AS KH 2D")) != play for _ in range(4000))
    assert 320 < wrong < 480
