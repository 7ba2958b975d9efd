"""The exact mean and variance of one round's result for the bank (the house, a DP or a
player-dealer), from the wagers placed against it: each wager's edge and variance
(``analytics.expected``) and the covariances between wagers of one seat and of two seats
(``analytics.variance``). ``detection.bank_check`` judges the bank's results against them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tablectl.analytics.expected import wager_math
from tablectl.analytics.variance import covariances, round_variance


class BankMathError(ValueError):
    """A wager the game math does not give the edge and variance of."""


def round_moments(game: str, stakes: Mapping[tuple[int, str], float], decks: int | None = None,
                  rules: dict[str, Any] | None = None) -> tuple[float, float]:
    """(mean, variance) of the bank's result in one round with the initial wagers ``stakes``
    ((seat, wager) -> stake, any unit) at ``game`` under ``rules`` (None: the defaults)."""
    math = {w.wager: w for w in wager_math(game, decks, rules)}
    for seat, wager in stakes:
        found = math.get(wager)
        if found is None or found.edge is None or found.variance is None:
            why = found.note if found is not None else "no such wager"
            raise BankMathError(f"{game}: seat {seat}'s {wager!r}: no exact edge and variance ({why})")
    mean = sum(s * math[w].edge for (_, w), s in stakes.items())  # type: ignore[misc]
    variance = {w: m.variance for w, m in math.items() if m.variance is not None}
    covariance = {(c.wager_a, c.wager_b, c.seats): c.covariance for c in covariances(game, decks, rules)}
    return float(mean), round_variance(dict(stakes), variance, covariance)


__all__ = ["BankMathError", "round_moments"]
