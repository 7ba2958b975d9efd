"""The rounds dataset's bank columns: what the bank staked, the most it could pay on the round's
wagers and whether a limit to its stake could change the round's settlement
(``tablectl.rules.settle.max_bank_pay`` / ``cover_binds``). Pure: the rules as logged in, the
three values out; each rule set is read once per process (keyed by its rules id)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tablectl.rules.settle import cover_binds, max_bank_pay

_NOT_USABLE = object()
_settlements: dict[tuple[str, str], Any] = {}  # (game, rules id) -> its settlement rules


def bank_cover(game: str | None, rules_id: str, logged: dict[str, Any] | None, stake: int | None,
               wagers: Iterable[Mapping[str, int]]) -> tuple[int | None, int | None, bool | None]:
    """``(banker_stake, bank_max_pay, cover_binds)`` of a round of ``game`` logged under
    ``logged`` (``rules_id``): the bound and the flag are None for a game no player banks or
    rules that cannot be read."""
    if game is None:
        return stake, None, None
    rules = _settlements.get((game, rules_id))
    if rules is None:
        from tablectl.review.replay import game_rules

        try:
            rules = game_rules(game, logged, "export").settlement
        except ValueError:
            rules = _NOT_USABLE
        _settlements[game, rules_id] = rules
    if rules is _NOT_USABLE:
        return stake, None, None
    bound = max_bank_pay(game, wagers, rules)
    if bound is None:
        return stake, None, None
    return stake, bound, cover_binds(stake, bound, rules)
