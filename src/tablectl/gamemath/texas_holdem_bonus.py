"""Texas Hold'em Bonus: exact analysis of the Bonus bet.

The Bonus looks at the player's two hole cards, and at the dealer's two for its top line (aces
against aces): the player's C(52,2) hands each meet the dealer's C(50,2), counted as a pair of
aces or not (C(aces left, 2) pairs of aces). Each class is settled by ``bonus_payout`` on
representative dealer cards. The main game (Ante, Flop, Turn, River under the optimal strategy
over every flop, turn and river) is ``holdem_main`` and ``holdem_strategy``: one entry per house
rule on the Ante (it pays from a straight, the seed; or from a flush, the Atlantic City rule).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from math import comb
from pathlib import Path

from tablectl.gamemath.table import BetAnalysis, Tally
from tablectl.rules import texas_holdem_bonus as thb
from tablectl.rules.houserules import TexasHoldemBonusRules

_ACE = 12


def bonus(rules: TexasHoldemBonusRules | None = None) -> BetAnalysis:
    rules = rules or TexasHoldemBonusRules()
    tally = Tally()
    for hole in combinations(range(52), 2):
        rest = [c for c in range(52) if c not in hole]
        aces = [c for c in rest if c >> 2 == _ACE]
        others = [c for c in rest if c >> 2 != _ACE]
        dealer_aces = comb(len(aces), 2)
        for dealer, n in (((aces[0], aces[-1]), dealer_aces), ((others[0], others[1]), comb(50, 2) - dealer_aces)):
            if n:
                payout = thb.bonus_payout(hole, dealer, rules.bonus)
                tally.add(payout.outcome, payout.odds, n)
    return tally.analysis("bonus", {"pay_table": rules.bonus.describe()})


def analyses(*, main: bool = True, strategy_file: Path | None = None, export: Path | None = None,
             progress: Callable[[float], None] | None = None) -> list[BetAnalysis]:
    """The main game's variants (under a minute of CPU the first time on a machine, ``progress``
    told the share done, then cached; ``main`` False leaves them out; ``export``: the exact
    strategy written there too, solved again) and the Bonus."""
    if not main:
        return [bonus()]
    from tablectl.gamemath.holdem.strategy import analyse

    return [*analyse(strategy_file=strategy_file, export=export, progress=progress), bonus()]
