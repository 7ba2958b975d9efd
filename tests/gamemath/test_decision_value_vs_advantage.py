"""The decision values, played best case by case, give the same exact edges as the advantage-play
figures (``gamemath.advantage.threecard``, counted apart), on a reduced deck: with own cards only,
one dealer card seen, one read high or low, and all three seen."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest

from tablectl.gamemath.advantage import threecard as adv
from tablectl.gamemath.decisions.sight import HIGH, LOW, is_high
from tablectl.gamemath.decisions.value import Sight, decision_values

DECK = [r * 4 + s for r in (1, 10, 11) for s in range(4)]  # 3s, queens and kings: 12 cards
OUTSIDE = tuple(c for c in range(52) if c not in DECK)  # seen by nobody, dealt to nobody: as if removed


def best(game: str, options: tuple[str, str], sight: Sight) -> Fraction:
    values = decision_values(game, options, sight)
    return max(v for v in values.values.values() if v is not None)


def mean(values: list[Fraction]) -> Fraction:
    return sum(values, Fraction(0)) / len(values)


@pytest.mark.parametrize("game, options, bonus", [
    ("three-card-poker", ("play", "fold"), None),
    ("three-card-poker-florida", ("raise", "fold"), adv.no_bonus),
])
def test_best_play_by_decision_values_earns_the_advantage_figures_edges(game: str, options: tuple[str, str], bonus: object) -> None:
    figures = {(f.kind, f.information): f.player_edge for f in adv.ante_play(DECK, bonus=bonus)}  # type: ignore[arg-type]
    hands = list(combinations(DECK, 3))
    mine: dict[str, list[Fraction]] = {"none": [], "seen1": [], "sort1": [], "seen3": []}
    for own in hands:
        rest = [c for c in DECK if c not in own]
        mine["none"].append(best(game, options, Sight(own, others=OUTSIDE)))
        mine["seen1"] += [best(game, options, Sight(own, dealer=(c, None, None), others=OUTSIDE)) for c in rest]
        highs = sum(map(is_high, rest))
        sort = [best(game, options, Sight(own, dealer=(mark, None, None), others=OUTSIDE)) for mark in (HIGH, LOW)]
        mine["sort1"] += [sort[0]] * highs + [sort[1]] * (len(rest) - highs)
        mine["seen3"] += [best(game, options, Sight(own, dealer=d, others=OUTSIDE)) for d in combinations(rest, 3)]
    assert mean(mine["none"]) == figures["none", "own cards only"]
    assert mean(mine["seen1"]) == figures["hole-card", "one dealer card seen"]
    assert mean(mine["sort1"]) == figures["edge-sort", "one dealer card read high (Q, K, A) or low"]
    assert mean(mine["seen3"]) == figures["hole-card", "all three dealer cards seen"]
