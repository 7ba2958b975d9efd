"""What one bet returns per unit staked, and its conversion to a ``BetResult`` in cents.

Every game's outcome functions return ``Payout`` values; settlement multiplies them by the stakes
and the exact math by combination counts, so both read the same rule.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from tablectl.rounds import BetResult


@dataclass(frozen=True, slots=True)
class Payout:
    """A bet's result per unit staked: ``odds`` is the player's net (+40 for 40:1, -1/2 for a
    surrender, 0 for a push); ``outcome`` names it ("win", "lose", "push", "fold", "surrender",
    "no-action", or a pay-table line such as "straight-flush")."""

    outcome: str
    odds: Fraction

    @property
    def pays(self) -> str:
        """The odds as "N:1" text when the bet wins, else ""."""
        return f"{self.odds}:1" if self.odds > 0 else ""

    def net(self, stake: int) -> int:
        """The player's net in cents on ``stake`` cents; a fraction of a cent goes to the banker."""
        return math.floor(stake * self.odds)

    def result(self, seat: int, bet: str, stake: int) -> BetResult:
        return BetResult(seat, bet, stake, self.outcome, self.pays, self.net(stake))


def pays(outcome: str, odds: int | Fraction) -> Payout:
    """A payout of ``odds`` to one under the name ``outcome``."""
    return Payout(outcome, Fraction(odds))


WIN = pays("win", 1)
LOSE = pays("lose", -1)
PUSH = pays("push", 0)
FOLD = pays("fold", -1)
NO_ACTION = pays("no-action", 0)


def by_sign(sign: int) -> Payout:
    """Even money: ``WIN``, ``PUSH`` or ``LOSE`` for a comparison's sign."""
    return WIN if sign > 0 else LOSE if sign < 0 else PUSH
