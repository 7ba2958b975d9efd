"""The bets of each game as a table takes them (pure): the name the table gives each bet, the limits
of every bet (minimum, maximum, unit) and the top payout of a bet's pay table.

A game's primary bets (``GameDef.limited``: the Ante, One Card Poker's primary wager, Florida's
Ante and Pairplus) take the table's ``min_bet``/``max_bet``; every other bet (a side bet) has its
own limits, ``SIDE_BET_LIMITS`` below unless the table config sets them (``[limits.BET]``,
``tablectl.config``). The default side-bet limits keep each shipped pay table's top payout under
$25,000 on the maximum bet:

============================  ==========  =========  ===================
game / bet                     top pays    limits     top payout at max
============================  ==========  =========  ===================
One Card Poker tie             200 to 1    $1-$100    $20,000
Three Card Poker pairplus      40 to 1     $1-$100    $4,000
Three Card Poker 6 Card Bonus  1000 to 1   $1-$25     $25,000
One for the Money side bet     100 to 1    $1-$100    $10,000 (Perfect Match; 3 Card Bonus 40 to 1: $4,000)
Texas Hold'em Bonus bonus      1000 to 1   $1-$25     $25,000
============================  ==========  =========  ===================

Every side bet is in whole dollars (unit $1). A side bet's default maximum is never above the
table's ``max_bet``. Bets made during the round (a Play, Raise, Flop, Turn or River bet) are a
multiple of the Ante and have no limits of their own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tablectl.rules import one_card_poker as ocp
from tablectl.rules import one_for_the_money as oftm
from tablectl.rules import texas_holdem_bonus as thb
from tablectl.rules import three_card_poker as tcp
from tablectl.rules import three_card_poker_florida as fl

DOLLAR = 100  # cents


@dataclass(frozen=True, slots=True)
class BetLimit:
    """One bet's limits, in cents: ``minimum`` <= amount <= ``maximum``, a multiple of ``unit``."""

    minimum: int
    maximum: int
    unit: int = 1

    def problem(self, cents: int) -> str | None:
        """Why ``cents`` (above 0) is not a bet within these limits, or None."""
        if not self.minimum <= cents <= self.maximum:
            return f"{money(cents)} is outside the limits {money(self.minimum)}-{money(self.maximum)}"
        if cents % self.unit:
            steps = "whole dollars" if self.unit == DOLLAR else f"in steps of {money(self.unit)}"
            return f"{money(cents)} is not {steps}"
        return None


#: side bet -> its default limits, by game (the primary bets take the table's min_bet/max_bet)
SIDE_BET_LIMITS: dict[str, dict[str, BetLimit]] = {
    ocp.GAME: {ocp.TIE: BetLimit(1 * DOLLAR, 100 * DOLLAR, DOLLAR)},
    tcp.GAME: {
        tcp.PAIRPLUS: BetLimit(1 * DOLLAR, 100 * DOLLAR, DOLLAR),
        tcp.SIX_CARD_BONUS: BetLimit(1 * DOLLAR, 25 * DOLLAR, DOLLAR),
    },
    fl.GAME: {},
    oftm.GAME: {oftm.BONUS: BetLimit(1 * DOLLAR, 100 * DOLLAR, DOLLAR)},
    thb.GAME: {thb.BONUS: BetLimit(1 * DOLLAR, 25 * DOLLAR, DOLLAR)},
}


def money(cents: int) -> str:
    """``$12``, ``$1,012.50``, ``-$5``."""
    sign, cents = ("-", -cents) if cents < 0 else ("", cents)
    return f"{sign}${cents // 100:,}" if cents % 100 == 0 else f"{sign}${cents / 100:,.2f}"


def bet_names(game: str, rules: Any) -> dict[str, str]:
    """Bet (the rules engine's name) -> the name the table gives it, where they differ: One for
    the Money's side bet is the table's ``perfect-match`` or ``three-card-bonus``."""
    if game == oftm.GAME:
        return {oftm.BONUS: rules.side_bet}
    return {}


def top_pays(game: str, rules: Any) -> dict[str, int]:
    """Bet -> the largest payout (to one) of its pay table, for the bets placed before the deal
    that are paid from a pay table."""
    if game == ocp.GAME:
        return {ocp.TIE: max(p for _, p in rules.tie_wager.lines())}
    if game == tcp.GAME:
        return {
            tcp.PAIRPLUS: max(p for _, p in rules.pairplus.lines()),
            tcp.SIX_CARD_BONUS: max(p for _, p in rules.six_card_bonus.lines()),
        }
    if game == fl.GAME:
        return {fl.PAIRPLUS: max(p for _, p in rules.pairplus.lines())}
    if game == oftm.GAME:
        table = rules.perfect_match if rules.side_bet == "perfect-match" else rules.three_card_bonus
        return {oftm.BONUS: max(p for _, p in table.lines())}
    if game == thb.GAME:
        return {thb.BONUS: max(p for _, p in rules.bonus.lines())}
    return {}


#: decision -> (the bet it makes, that bet's stake as a multiple of the bet it follows, that bet),
#: by game: the bets a seat makes during the round
ROUND_BETS: dict[str, dict[str, tuple[str, int, str]]] = {
    ocp.GAME: {ocp.EXTEND: (ocp.WAR, 1, ocp.PRIMARY)},
    tcp.GAME: {tcp.PLAY_DECISION: (tcp.PLAY, 1, tcp.ANTE)},
    fl.GAME: {fl.RAISE: (fl.PLAY, 1, fl.ANTE)},
    oftm.GAME: {oftm.TRADE: (oftm.TRADE_BET, 1, oftm.ANTE), oftm.RAISE: (oftm.RAISE_BET, 1, oftm.ANTE)},
    thb.GAME: {d: (d, thb.MULTIPLE[d], thb.ANTE) for d in (thb.FLOP, thb.TURN, thb.RIVER)},
}


def round_wagers(game: str, wagers: Mapping[str, int], decisions: tuple[str, ...] | list[str]) -> dict[str, int]:
    """A seat's wagers so far in the round: those placed before the deal, then each bet its
    decisions made (Texas Hold'em Bonus's Flop at 2x the Ante, Turn and River at 1x; a Play, a
    Raise, a Trade, a war), in the order made."""
    out = dict(wagers)
    made = ROUND_BETS.get(game, {})
    for decision in decisions:
        if decision in made:
            bet, times, of = made[decision]
            if out.get(of):
                out[bet] = out.get(bet, 0) + wagers.get(of, 0) * times
    return out


def table_limits(
    game: str,
    wagers: tuple[str, ...],
    primary: tuple[str, ...],
    *,
    min_bet: int,
    max_bet: int,
    whole_dollars: bool,
    configured: Mapping[str, BetLimit] | None = None,
) -> dict[str, BetLimit]:
    """Every bet placed before the deal -> its limits: the table's ``min_bet``/``max_bet`` for the
    ``primary`` bets (in whole dollars where the game's wager is), ``SIDE_BET_LIMITS`` (capped at
    ``max_bet``) for the others; a ``configured`` limit replaces either."""
    out: dict[str, BetLimit] = {}
    defaults = SIDE_BET_LIMITS.get(game, {})
    for bet in wagers:
        if bet in primary:
            limit = BetLimit(min_bet, max_bet, DOLLAR if whole_dollars else 1)
        else:
            side = defaults.get(bet, BetLimit(DOLLAR, max_bet, DOLLAR))
            top = min(side.maximum, max_bet // side.unit * side.unit)
            limit = BetLimit(min(side.minimum, top), top, side.unit)
        out[bet] = (configured or {}).get(bet, limit)
    return out


__all__ = ["DOLLAR", "ROUND_BETS", "SIDE_BET_LIMITS", "BetLimit", "bet_names", "money", "round_wagers", "table_limits", "top_pays"]
