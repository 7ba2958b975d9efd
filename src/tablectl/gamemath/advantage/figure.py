"""The shape of an advantage-play figure: the player's best strategy and exact edge when he holds
hidden information (dealer cards seen, card backs sorted high/low, other players' cards).

A figure counts equally likely *cases*: a deal together with what the player learns about it (a
deal where one of the dealer's three cards is seen is three cases, one per card that may show).
In each case the player makes the choice with the highest exact expectation given what he knows;
``player_net`` is the total of his net results over all cases, per unit of the initial wager, so
the player's edge is ``player_net / cases`` (positive: the player wins). Ties between choices go
to the smaller wager.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any


@dataclass(frozen=True)
class AdvantageFigure:
    """One kind of hidden information in one game: the best strategy with it, and its exact edge.

    ``kind`` is ``"hole-card"``, ``"edge-sort"``, ``"shared-cards"`` or ``"none"`` (own cards only,
    the baseline); ``information`` says in words what the player knows; ``played`` counts the cases
    in which the player puts up more than the initial wager; ``strategy`` summarises the best play
    in words."""

    game_bet: str
    kind: str
    information: str
    cases: int
    player_net: Fraction
    played: int
    strategy: tuple[str, ...] = ()

    @property
    def player_edge(self) -> Fraction:
        """The player's expected net per unit of the initial wager (positive: the player wins)."""
        return self.player_net / self.cases

    @property
    def share_played(self) -> Fraction:
        return Fraction(self.played, self.cases)

    def to_cache(self) -> dict[str, Any]:
        """Every field, exactly (``player_net`` as a fraction's text), for ``from_cache``."""
        return {
            "game_bet": self.game_bet, "kind": self.kind, "information": self.information, "cases": self.cases,
            "player_net": str(self.player_net), "played": self.played, "strategy": list(self.strategy),
        }  # fmt: skip

    @classmethod
    def from_cache(cls, data: dict[str, Any]) -> AdvantageFigure:
        return cls(
            str(data["game_bet"]), str(data["kind"]), str(data["information"]), int(data["cases"]),
            Fraction(data["player_net"]), int(data["played"]), tuple(str(s) for s in data["strategy"]),
        )  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        return {
            "bet": self.game_bet,
            "kind": self.kind,
            "information": self.information,
            "cases": self.cases,
            "player_edge": float(self.player_edge),
            "player_edge_exact": str(self.player_edge),
            "share_played": float(self.share_played),
            "strategy": list(self.strategy),
        }


def rank_runs(ranks: Iterable[str]) -> str:
    """Ranks (as ``RANKS`` letters) in words, consecutive ones as a range: ``2-8,T,Q-A``."""
    order = "23456789TJQKA"
    indices = sorted(order.index(r) for r in ranks)
    runs: list[list[int]] = []
    for i in indices:
        if runs and i == runs[-1][-1] + 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    return ",".join(order[r[0]] if len(r) == 1 else f"{order[r[0]]}-{order[r[-1]]}" for r in runs)
