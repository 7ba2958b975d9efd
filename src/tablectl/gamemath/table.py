"""The shape of an analysis: each bet's outcomes with pays and combination counts, exact."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tablectl.gamemath.advantage.figure import AdvantageFigure


@dataclass(frozen=True, slots=True)
class OutcomeLine:
    """One outcome of a bet: its net pay per unit of the initial wager, and how many equally
    likely deals produce it."""

    outcome: str
    pays: Fraction
    combinations: int


@dataclass(frozen=True)
class BetAnalysis:
    """A bet (under one set of rules) with all its outcomes; ``combinations`` is the number of
    equally likely deals enumerated, ``strategy`` the player's decisions assumed or found."""

    bet: str
    rules: dict[str, Any]
    outcomes: tuple[OutcomeLine, ...]
    strategy: tuple[str, ...] = ()

    @property
    def combinations(self) -> int:
        return sum(line.combinations for line in self.outcomes)

    def probability(self, line: OutcomeLine) -> Fraction:
        return Fraction(line.combinations, self.combinations)

    def expected_return(self, line: OutcomeLine) -> Fraction:
        return line.pays * self.probability(line)

    @property
    def house_edge(self) -> Fraction:
        """The banker's expected win per unit of the initial wager (positive: the house wins)."""
        return -sum((line.pays * line.combinations for line in self.outcomes), Fraction(0)) / self.combinations

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "bet": self.bet,
            "rules": self.rules,
            "outcomes": [
                {
                    "outcome": line.outcome,
                    "pays": _number(line.pays),
                    "combinations": line.combinations,
                    "probability": float(self.probability(line)),
                    "return": float(self.expected_return(line)),
                }
                for line in self.outcomes
            ],
            "combinations": self.combinations,
            "house_edge": float(self.house_edge),
            "house_edge_exact": str(self.house_edge),
        }
        if self.strategy:
            data["strategy"] = list(self.strategy)
        return data


@dataclass(frozen=True)
class GameAnalysis:
    """Every analysed bet of a game at a number of decks, and its advantage-play figures."""

    game: str
    decks: int
    bets: list[BetAnalysis] = field(default_factory=list)
    advantage: list[AdvantageFigure] = field(default_factory=list)
    """The player's best strategy and edge with each kind of hidden information (advantage play)."""

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"game": self.game, "decks": self.decks, "bets": [b.to_dict() for b in self.bets]}
        if self.advantage:
            data["advantage"] = [figure.to_dict() for figure in self.advantage]
        return data


class Tally:
    """Combination counts accumulated by (outcome, pays)."""

    __slots__ = ("_counts",)

    def __init__(self) -> None:
        self._counts: defaultdict[tuple[str, Fraction], int] = defaultdict(int)

    def add(self, outcome: str, pays: Fraction | int, combinations: int) -> None:
        if combinations:
            self._counts[outcome, Fraction(pays)] += combinations

    def lines(self) -> tuple[OutcomeLine, ...]:
        """The outcomes, best pay first (then by name)."""
        ordered = sorted(self._counts.items(), key=lambda item: (-item[0][1], item[0][0]))
        return tuple(OutcomeLine(name, pays, count) for (name, pays), count in ordered)

    def analysis(self, bet: str, rules: dict[str, Any], strategy: Iterable[str] = ()) -> BetAnalysis:
        return BetAnalysis(bet, rules, self.lines(), tuple(strategy))


def _number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)
