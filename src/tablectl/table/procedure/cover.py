"""The bank's stake against the round's action (pure): in a game whose payouts stop at the
banking player's stake (``limit_to_banker_stake``), a stake below the most the bank could pay on
the round's wagers (``tablectl.rules.settle.max_bank_pay``) may leave winning players unpaid.
The round is still dealt (the house rule allows it); the table logs the shortfall on the round's
``round_started`` line (``bank_could_pay``) and the display warns on the bank's row."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tablectl.config import TableConfig
from tablectl.eventlog.records import LOG_INT_MAX
from tablectl.rules.bets import BetLimit
from tablectl.rules.settle import cover_binds, max_bank_pay


def bank_short(game: str, wagers: Mapping[int, Mapping[str, int]] | None, stake: int | None, rules: Any) -> int | None:
    """The most the bank could pay on ``wagers`` when ``stake`` is below it and payouts stop at the
    stake, else None (the stake covers every bet, or does not limit anything)."""
    if wagers is None or stake is None or not getattr(rules, "limit_to_banker_stake", False):
        return None  # cover_binds would say no whatever the bound
    bound = max_bank_pay(game, wagers.values(), rules)
    return bound if cover_binds(stake, bound, rules) else None



def bank_stake_limit(config: TableConfig) -> BetLimit:
    """The limits of the bank's stake (cents, above 0): at most what the bank could pay on a full
    table, every seat at every bet's maximum (``tablectl.rules.settle.max_bank_pay``: a larger stake
    covers nothing more), or, in a game whose payouts never stop at a stake, what a log line holds."""
    seats = max(config.seats - (1 if config.game_def.banker else 0), 1)
    most = max_bank_pay(config.game, [{bet: limit.maximum for bet, limit in config.bet_limits.items()}] * seats,
                        config.settlement_rules)
    return BetLimit(1, LOG_INT_MAX if most is None else min(most, LOG_INT_MAX))


__all__ = ["bank_short", "bank_stake_limit"]
