"""One-card hands: the rank decides, suits never do."""

from __future__ import annotations

from tablectl.cards import DECK_SIZE, rank
from tablectl.rules.hand1 import compare1


def test_every_pair_of_cards_compares_by_rank_alone() -> None:
    for player in range(DECK_SIZE):
        for other in range(DECK_SIZE):
            by_rank = (rank(player) > rank(other)) - (rank(player) < rank(other))
            assert compare1(player, other) == by_rank, (player, other)
