"""Helpers for the games' deal-script specifications: walk a round through its ``RoundCursor``
with given cards and decisions, recording where each card went and what was asked."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from tablectl.cards import cards as parse_cards
from tablectl.cards import text
from tablectl.games.procedure import Decide, GameDef, Reveal, RoundContext, Trade
from tablectl.rounds import RoundHands
from tablectl.table.procedure.cursor import RoundCursor


@dataclass
class Walk:
    """What happened in one walked round."""

    placements: list[tuple[str, str]] = field(default_factory=list)  # (position, card text)
    asked: list[Decide] = field(default_factory=list)
    effects: list[Reveal | Trade] = field(default_factory=list)
    packets: list[tuple[str, int]] = field(default_factory=list)  # (position, size)
    discards: int = 0
    hands: RoundHands | None = None

    def to(self, position: str) -> list[str]:
        """The cards that went to ``position``, in order."""
        return [c for p, c in self.placements if p == position]

    @property
    def order(self) -> list[str]:
        return [p for p, _ in self.placements]


Chooser = Callable[[Decide], str] | Sequence[str]


def _walk(
    game: GameDef,
    seats: Iterable[int],
    cards: str | Sequence[str],
    decide: Chooser = (),
    *,
    banker: int | None = None,
    packets: bool = False,
    wagers: dict[int, dict[str, int]] | None = None,
    rules: dict[str, Any] | None = None,
) -> Walk:
    ctx = RoundContext(tuple(seats), wagers, banker, packets, game.procedure_rules(rules))
    cursor = RoundCursor(game.script, ctx)
    supply = iter(parse_cards(cards))
    choices = iter(decide) if not callable(decide) else None
    walk = Walk()
    used = 0
    while not cursor.done:
        walk.effects += cursor.take_effects()
        if cursor.expected() is not None:
            step, n = cursor.packet() if packets else (cursor.expected(), 1)  # type: ignore[misc]
            if packets:
                walk.packets.append((step.to, n))
            for _ in range(n):
                card = next(supply)
                placed = cursor.place(card)
                walk.placements.append((placed.to, text(card)))
                used += 1
        elif cursor.decision is not None:
            d = cursor.decision
            walk.asked.append(d)
            choice = decide(d) if callable(decide) else next(choices)  # type: ignore[arg-type]
            cursor.decide(d.seat, choice)
        elif cursor.discard:
            walk.discards += 1
            cursor.discarded(52 - used)
        else:  # pragma: no cover - the cursor always waits for something until done
            raise AssertionError("the cursor waits for nothing")
    walk.effects += cursor.take_effects()
    walk.hands = cursor.hands
    return walk


@pytest.fixture
def walk() -> Callable[..., Walk]:
    """``walk(game, seats, cards, decide, banker=, packets=, wagers=, rules=)`` -> ``Walk``."""
    return _walk
