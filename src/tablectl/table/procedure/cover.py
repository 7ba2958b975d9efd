"""The bank's stake against the round's action (pure): in a game whose payouts stop at the
banking player's stake (``limit_to_banker_stake``), a stake below the most the bank could pay on
the round's wagers (``tablectl.rules.settle.max_bank_pay``) may leave winning players unpaid.
The round is still dealt (the house rule allows it); the table logs the shortfall on the round's
``round_started`` line (``bank_could_pay``) and the display warns on the bank's row."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tablectl.rules.settle import cover_binds, max_bank_pay


def bank_short(game: str, wagers: Mapping[int, Mapping[str, int]] | None, stake: int | None, rules: Any) -> int | None:
    """The most the bank could pay on ``wagers`` when ``stake`` is below it and payouts stop at the
    stake, else None (the stake covers every bet, or does not limit anything)."""
    if wagers is None or stake is None or not getattr(rules, "limit_to_banker_stake", False):
        return None  # cover_binds would say no whatever the bound
    bound = max_bank_pay(game, wagers.values(), rules)
    return bound if cover_binds(stake, bound, rules) else None


__all__ = ["bank_short"]
