"""The covariances a round's variance needs beside each wager's own variance
(``expected.WagerMath.variance``), from ``tablectl.gamemath.variance.joint``: between two wagers of one
seat (``seats`` "same") and between a wager of one seat and a wager of another seat of the same
round (``seats`` "other"), per unit of each initial wager, under the rules in force.

The variance of a round's house result with initial wagers ``s_i`` on wagers ``w_i`` is

    sum_i s_i^2 variance(w_i) + sum_{i != j} s_i s_j covariance(w_i, w_j, same seat or not)

A pair the math does not give is taken as uncorrelated (:data:`COVERED` says which pairs it gives).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import orjson

#: game -> the pairs of wagers :func:`covariances` gives, by "same" or "other" seat
COVERED: dict[str, dict[str, tuple[tuple[str, str], ...]]] = {
    "one-card-poker": {"same": (("primary", "tie"),),
                       "other": (("primary", "primary"), ("primary", "tie"), ("tie", "tie"))},
    "three-card-poker": {"same": (("ante", "pairplus"),), "other": ()},
    "three-card-poker-florida": {"same": (("ante", "pairplus"),), "other": ()},
}


@dataclass(frozen=True)
class Covariance:
    """Cov of the results of ``wager_a`` and ``wager_b`` per unit of each, on one seat or two."""

    wager_a: str
    wager_b: str
    seats: str
    covariance: float


def covariances(game: str, decks: int | None, rules: dict[str, Any] | None) -> list[Covariance]:
    """Every covariance of ``game`` at ``decks`` decks under ``rules`` (as logged; None: the
    defaults), each pair in both orders. Empty for a game or rules the math does not take."""
    return list(_cached(game, decks, orjson.dumps(rules, option=orjson.OPT_SORT_KEYS).decode()))


@cache
def _cached(game: str, decks: int | None, rules_json: str) -> tuple[Covariance, ...]:
    from tablectl.gamemath.variance import joint
    from tablectl.review.replay import game_rules

    if game not in COVERED:
        return ()
    try:
        rules = game_rules(game, orjson.loads(rules_json), "export").settlement
    except ValueError:
        return ()
    found: dict[str, dict[tuple[str, str], Any]] = {}
    if game == "one-card-poker":
        found["same"] = joint.one_card_poker(decks or 6, rules)
        found["other"] = joint.one_card_poker_seats(decks or 6, rules)
    elif game == "three-card-poker":
        found["same"] = joint.three_card_poker(rules)
    else:
        found["same"] = joint.florida_variant(rules)
    out: dict[tuple[str, str, str], Covariance] = {}
    for seats, pairs in found.items():
        for (a, b), value in pairs.items():
            for x, y in ((a, b), (b, a)):
                out[x, y, seats] = Covariance(x, y, seats, float(value))
    return tuple(out.values())


def round_variance(stakes: dict[tuple[int, str], float], variance: dict[str, float],
                   covariance: dict[tuple[str, str, str], float]) -> float:
    """The variance of one round's house result with the initial wagers ``stakes`` ((seat, wager)
    -> stake), each wager's ``variance`` per unit and the ``covariance`` per unit of two wagers
    ((wager_a, wager_b, "same" or "other" seat); a pair not given: uncorrelated)."""
    total = sum(s * s * variance[w] for (_, w), s in stakes.items())
    for (seat_a, a), s_a in stakes.items():
        for (seat_b, b), s_b in stakes.items():
            if (seat_a, a) != (seat_b, b):
                total += s_a * s_b * covariance.get((a, b, "same" if seat_a == seat_b else "other"), 0.0)
    return total
