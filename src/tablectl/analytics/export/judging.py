"""Each settled round's player decisions judged for the export (pure, no I/O).

A :class:`Judge` takes a round's ``RoundHands`` as review's replay settled it and gives, per
decision of each seat (by its place among the seat's decisions), the values the decisions dataset
holds (:data:`COLUMNS`): the chosen and the best option's exact value per unit of the seat's
initial main wager, the best option, the cost of the choice in units and in cents (units x the
initial wager), and the best option had the seat seen the dealer's cards -- all None where the
math does not value the decision. It also gives the round's *theoretical win*: what the house
expects to win given the wagers and the decisions actually made, from the players' information
(:meth:`Judge.theo_win`). One judge serves a whole export; the decision values are cached per
process (``tablectl.gamemath.decisions.value``).
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache
from typing import Any, NamedTuple

from tablectl.analytics.expected import wager_math
from tablectl.gamemath.decisions.judge import JudgedDecision, judge_round, main_wager
from tablectl.gamemath.decisions.value import DecisionError
from tablectl.gamemath.variance.theo import COVERED as SPREAD_ENUMERATED
from tablectl.gamemath.variance.theo import theo_variance
from tablectl.games import GAMES
from tablectl.rounds import RoundHands
from tablectl.rules.errors import SettlementError

#: the decisions dataset's judged columns, in schema order
COLUMNS = ("ev_choice", "ev_best", "best", "cost_units", "cost", "best_knowing_dealer")
NOT_JUDGED: tuple[None, ...] = (None,) * len(COLUMNS)


class RoundJudgement(NamedTuple):
    """A round's judged decisions, by (seat, place among the seat's decisions), as dataset values,
    and its theoretical win in cents (None: some wager or decision the math does not value);
    ``judged``: the decisions as ``gamemath.decisions.judge`` judged them (the sightings are made from them).
    A named tuple: one is made per round, at C speed."""

    decisions: dict[tuple[int, int], tuple[Any, ...]]
    theo_win: float | None
    theo_var: float | None = None  # E[(win - theo_win)^2 | what the players saw], cents^2 (gamemath.variance.theo)
    judged: tuple[JudgedDecision, ...] = ()


def values(j: JudgedDecision, stake: int | None) -> tuple[Any, ...]:
    """One judged decision as the decisions dataset's :data:`COLUMNS` (``stake``: the seat's
    initial main wager in cents)."""
    choice = j.values.get(j.point.choice)
    best = j.values.get(j.best) if j.best is not None else None
    cost = j.cost
    # float(cost * stake) without the Fraction: int / int is correctly rounded, as float() of one
    cents = None if cost is None or stake is None else cost.numerator * stake / cost.denominator
    return (None if choice is None else float(choice), None if best is None else float(best), j.best,
            None if cost is None else float(cost), cents, j.best_knowing_dealer)


class Judge:
    """Judges rounds under the settlement rules review replayed them with (one per export)."""

    def __init__(self) -> None:
        # (game, decks, rules id) -> (D, {wager: its exact edge x D, an integer; None: not valued}):
        # the edges are floats, so a common denominator D makes every one an integer numerator
        self._edges: dict[tuple[str, int | None, str], tuple[int, dict[str, int | None]]] = {}

    def round(self, hands: RoundHands, settlement: Any, decks: int | None, logged_rules: dict[str, Any] | None,
              rules_key: str) -> RoundJudgement:
        """Judge ``hands`` (settled under ``settlement``, from ``decks`` decks; ``logged_rules`` as
        logged, ``rules_key`` their id) into dataset values and the round's theoretical win."""
        seats = hands.seats
        for s in seats:
            if s.decisions:
                return self._decided(hands, settlement, decks, logged_rules, rules_key)
        # most rounds: no decision to judge, the theoretical win is the wagers' part alone
        numerator, denominator = self._wagers_part(hands, decks, logged_rules, rules_key)
        if numerator is None:
            return RoundJudgement({}, None)
        if hands.game not in SPREAD_ENUMERATED:  # no Fraction: int / int is float() of one
            return RoundJudgement({}, numerator / denominator)
        exact = Fraction(numerator, denominator)
        return RoundJudgement({}, float(exact), _theo_var(hands, settlement, decks, exact))

    def _decided(self, hands: RoundHands, settlement: Any, decks: int | None, logged_rules: dict[str, Any] | None,
                 rules_key: str) -> RoundJudgement:
        """:meth:`round` of a round with decisions."""
        out: dict[tuple[int, int], tuple[Any, ...]] = {}
        main = _main_wager(hands.game)
        try:
            judged = judge_round(hands, settlement, decks or 1)
        except DecisionError:
            judged = []
        stakes = {s.seat: s.wagers.get(main) for s in hands.seats}
        # the decisions' part of the theoretical win, exact: the costs x the stakes, as a numerator
        # over a denominator (None: a decision not valued)
        numerator: int | None = 0
        denominator = 1
        for j in judged:
            stake = stakes.get(j.point.seat)
            out[j.point.seat, j.point.index] = row = values(j, stake)
            if numerator is not None:
                if row[4] is None:
                    numerator = None
                else:  # the cost and the stake are known
                    cost = j.cost
                    numerator = numerator * cost.denominator + cost.numerator * stake * denominator  # type: ignore[union-attr,operator]
                    denominator *= cost.denominator  # type: ignore[union-attr]
        if numerator is None:
            return RoundJudgement(out, None, judged=tuple(judged))
        wagers, wagers_denominator = self._wagers_part(hands, decks, logged_rules, rules_key)
        if wagers is None:
            return RoundJudgement(out, None, judged=tuple(judged))
        numerator, denominator = wagers * denominator + numerator * wagers_denominator, wagers_denominator * denominator
        if hands.game not in SPREAD_ENUMERATED:  # no spread, and no Fraction: int / int is float() of one
            return RoundJudgement(out, numerator / denominator, None, tuple(judged))
        exact = Fraction(numerator, denominator)
        return RoundJudgement(out, float(exact), _theo_var(hands, settlement, decks, exact), tuple(judged))

    def _wagers_part(self, hands: RoundHands, decks: int | None, logged: dict[str, Any] | None,
                     key: str) -> tuple[int | None, int]:
        """The wagers' part of the theoretical win: the stakes times the edges, exact, as an integer
        numerator over a common denominator (the numerator None: a wager the math does not value)."""
        found = self._edges.get((hands.game, decks, key))
        denominator, edges = found if found is not None else self._edges_of(hands.game, decks, logged, key)
        numerator = 0
        banker = hands.banker_seat
        for seat in hands.seats:
            if seat.seat == banker:
                continue
            for wager, stake in seat.wagers.items():
                if stake:
                    edge = edges.get(wager)
                    if edge is None:
                        return None, denominator
                    numerator += edge * stake
        return numerator, denominator

    def _edges_of(self, game: str, decks: int | None, logged: dict[str, Any] | None,
                  key: str) -> tuple[int, dict[str, int | None]]:
        """A common denominator D and each wager's house edge x D (an integer; None: not valued)."""
        found = self._edges.get((game, decks, key))
        if found is None:
            exact: dict[str, Fraction | None] = {}
            if game != "texas-holdem-bonus" or _main_game_cached():  # else: its main game's analysis
                # takes minutes: never started by an export
                exact = {m.wager: None if m.edge is None else Fraction(m.edge) for m in wager_math(game, decks, logged)}
            denominator = math.lcm(1, *(e.denominator for e in exact.values() if e is not None))
            found = (denominator, {w: None if e is None else int(e * denominator) for w, e in exact.items()})
            self._edges[game, decks, key] = found
        return found


def _theo_var(hands: RoundHands, settlement: Any, decks: int | None, theo: Fraction | float) -> float | None:
    """The round's exact spread about ``theo`` (None: its game's unknown cards are not enumerated,
    or its cards do not settle)."""
    try:
        return theo_variance(hands, settlement, decks or 1, theo)
    except (SettlementError, ValueError):
        return None


@cache
def _main_wager(game: str) -> str:
    """``main_wager`` of ``game`` (of no wagers: a game unknown)."""
    found = GAMES.get(game)
    return main_wager(found.wagers if found else ())


def _main_game_cached() -> bool:
    from tablectl.gamemath.holdem import strategy as holdem_strategy

    return holdem_strategy.cached() is not None


__all__ = ["COLUMNS", "NOT_JUDGED", "Judge", "RoundJudgement", "values"]
