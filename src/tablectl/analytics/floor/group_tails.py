"""Each floor group's p-value (pure): the wagers a table, player bank, dealer (at one kind of bank), day or seat made,
by kind and stake (the named query ``floor_wagers``), with each wager's exact distribution
(``wager_outcomes``), give the tail of the group's result at its z (``tails``).

A house-banked group's p-value is its lower tail (the bank won this little or less); a player
bank's is the tail on the side its result lies (two tests, one each side). A group with no
analysed wager has no p-value.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from tablectl.analytics.dataset.queries import Result
from tablectl.analytics.floor.tails import Kind, lower_tail, upper_tail

Outcomes = dict[tuple[Any, ...], tuple[tuple[float, float], ...]]
#: family -> (the group's key in a ``floor_wagers`` row, the key in a report row, house-banked only)
KEYS: dict[str, tuple[Callable[[dict[str, Any]], Hashable], Callable[[dict[str, Any]], Hashable], bool]] = {
    "tables": (lambda w: w["table_id"], lambda r: r["table_id"], False),
    "dealers": (lambda w: (w["dealer"], w["bank"]), lambda r: (r["dealer"], r["bank"]), False),
    "days": (lambda w: str(w["date"]), lambda r: str(r["date"]), True),
    "seats": (lambda w: (w["table_id"], w["seat"]), lambda r: (r["table_id"], r["seat"]), False),
}


def outcome_table(outcomes: Result) -> Outcomes:
    """(game, decks, rules_id, wager) -> its (result per unit, probability) pairs, from ``wager_outcomes``."""
    found: dict[tuple[Any, ...], list[tuple[float, float]]] = {}
    for r in outcomes.dicts():
        found.setdefault((r["game"], r["decks"], r["rules_id"], r["wager"]), []).append((r["result"], r["probability"]))
    return {k: tuple(sorted(v)) for k, v in found.items()}


def kinds_by_group(wagers: Result, outcomes: Outcomes, family: str) -> dict[Hashable, list[Kind]]:
    """The wagers of each group of ``family`` (``tables``, ``dealers``, ``days``, ``seats``) by kind and stake."""
    key, _, house_only = KEYS[family]
    counts: dict[Hashable, dict[tuple[Any, ...], int]] = {}
    for w in wagers.dicts():
        if house_only and w["bank"] != "house":
            continue
        kind = (w["game"], w["decks"], w["rules_id"], w["wager"], float(w["stake"]))
        if kind[:4] not in outcomes:
            continue
        group = counts.setdefault(key(w), {})
        group[kind] = group.get(kind, 0) + int(w["n"])
    return {g: [Kind(n, k[4], outcomes[k[:4]]) for k, n in sorted(c.items(), key=lambda kv: str(kv[0]))]
            for g, c in counts.items()}


def p_value(kinds: list[Kind], z: float | None, two_sided: bool = False) -> float | None:
    """The p-value of a group at ``z`` (None: not tested): its lower tail; ``two_sided`` (a player
    bank) the tail on ``z``'s side."""
    if z is None:
        return None
    return upper_tail(kinds, z) if two_sided and z > 0 else lower_tail(kinds, z)


def with_p(result: Result, family: str, kinds: dict[Hashable, list[Kind]], two_sided: Callable[[dict[str, Any]], bool]
           = lambda row: False) -> Result:
    """``result`` (a family's rows) with the column ``p``."""
    _, key, _ = KEYS[family]
    rows = [(*row, p_value(kinds.get(key(d), []), d.get("z"), two_sided(d)))
            for row, d in zip(result.rows, result.dicts(), strict=True)]
    return Result([*result.columns, "p"], rows)


__all__ = ["KEYS", "kinds_by_group", "outcome_table", "p_value", "with_p"]
