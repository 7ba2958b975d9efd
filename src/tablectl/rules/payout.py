"""What one bet returns per unit staked, and its conversion to a ``BetResult`` in cents.

Every game's outcome functions return ``Payout`` values; settlement multiplies them by the stakes
and the exact math by combination counts, so both read the same rule.

``odds`` is an exact ``Fraction`` (the math sums it over combinations). A live settlement needs
only ``floor(stake * odds)`` in cents: each ``Payout`` keeps its odds also as an integer
numerator and a positive denominator, so ``net`` is one integer multiplication and one floor
division — exactly ``math.floor(stake * odds)``, without building a ``Fraction`` per bet.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

from tablectl.rounds import BetResult

# builds a BetResult from its six fields in order, as ``BetResult._make`` does, without the named
# tuple's Python-level argument handling (a settlement builds one per bet)
_bet_result = tuple.__new__


@dataclass(frozen=True, slots=True)
class Payout:
    """A bet's result per unit staked: ``odds`` is the player's net (+40 for 40:1, -1/2 for a
    surrender, 0 for a push); ``outcome`` names it ("win", "lose", "push", "fold", "surrender",
    "no-action", or a pay-table line such as "straight-flush")."""

    outcome: str
    odds: Fraction
    # derived once from ``odds`` (exact integers; not part of the value)
    _num: int = field(init=False, repr=False, compare=False, hash=False)
    _den: int = field(init=False, repr=False, compare=False, hash=False)
    _pays: str = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        odds = Fraction(self.odds)
        object.__setattr__(self, "_num", odds.numerator)
        object.__setattr__(self, "_den", odds.denominator)  # always > 0
        object.__setattr__(self, "_pays", f"{odds}:1" if odds > 0 else "")

    @property
    def pays(self) -> str:
        """The odds as "N:1" text when the bet wins, else ""."""
        return self._pays

    def net(self, stake: int) -> int:
        """The player's net in cents on ``stake`` cents; a fraction of a cent goes to the banker.

        ``floor(stake * odds)`` in integers: ``odds = num / den`` with ``den > 0``, and Python's
        ``//`` floors towards minus infinity like ``math.floor``."""
        return stake * self._num // self._den

    def result(self, seat: int, bet: str, stake: int) -> BetResult:
        """The bet's ``BetResult`` for ``stake`` cents."""
        return _bet_result(BetResult, (seat, bet, stake, self.outcome, self._pays, stake * self._num // self._den))


@lru_cache(maxsize=1024)
def pays(outcome: str, odds: int | Fraction) -> Payout:
    """A payout of ``odds`` to one under the name ``outcome``. Payouts are immutable values: the
    same outcome and odds give the same (cached) object; ``odds`` is kept as a ``Fraction``."""
    return Payout(outcome, Fraction(odds))


@lru_cache(maxsize=256)
def top(table: Any) -> Payout:
    """A pay table's (``tablectl.rules.paytables``, frozen: hashable) largest win (a push if it
    pays nothing); cached, as a bank's bound asks for it every round."""
    return pays("top", max([0, *(p for _, p in table.lines())]))


WIN = pays("win", 1)
LOSE = pays("lose", -1)
PUSH = pays("push", 0)
FOLD = pays("fold", -1)
NO_ACTION = pays("no-action", 0)


def by_sign(sign: int) -> Payout:
    """Even money: ``WIN``, ``PUSH`` or ``LOSE`` for a comparison's sign."""
    return WIN if sign > 0 else LOSE if sign < 0 else PUSH
