"""Wagers at the keys (pure): the table's betting limits, a seat's wagers typed as text, and the
wagers a round starts with when nobody types anything.

A routine round needs no typing: a seat plays what it played last round ("same as last round"),
or the table default (the table minimum on the game's first required bet) the first time. ``$``
on a selected seat changes what it bets, as a line such as ``25`` (the required bet),
``ante 25 pairplus 5`` or ``a 25 p 5`` (a bet's name, any unique beginning of it, or its initials:
``scb`` for ``six-card-bonus``), in dollars (``7.50`` where the game allows cents). ``0`` on a bet
takes it down. The amounts are checked against the limits of the config (``min_bet``/``max_bet``,
whole dollars where the game's sheet says so) by the same check the controller makes
(``tablectl.table.validation.check_wagers``), so a refusal is one line, at once.

A bet-recognition system gives its wagers to the same input the keys do:
``controller.start_round(seats, wagers={seat: {bet: cents}}, banker_stake=cents)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
import re
from decimal import Decimal, InvalidOperation

from tablectl.table.validation import check_wagers

Wagers = Mapping[str, int]
_NUMBER = re.compile(r"\$?[0-9.]+")


@dataclass(frozen=True, slots=True)
class TableLimits:
    """The bets of the game and the limits of the table, in cents."""

    bets: tuple[str, ...]
    required: tuple[str, ...]
    limited: tuple[str, ...]
    minimum: int
    maximum: int
    whole_dollars: bool = False
    banker_stake_limits: bool = False  # payouts stop at the banking player's stake: it must be known

    @classmethod
    def of(cls, config: object) -> TableLimits:
        """The limits of a ``TableConfig``."""
        game = config.game_def  # type: ignore[attr-defined]
        rules = config.settlement_rules  # type: ignore[attr-defined]
        return cls(
            bets=tuple(game.wagers), required=tuple(game.required), limited=tuple(game.limited),
            minimum=config.min_bet, maximum=config.max_bet,  # type: ignore[attr-defined]
            whole_dollars=config.whole_dollar_bets,  # type: ignore[attr-defined]
            banker_stake_limits=bool(game.banker and getattr(rules, "limit_to_banker_stake", False)),
        )

    @property
    def default(self) -> dict[str, int]:
        """The table default: the minimum on the first required bet."""
        return {self.required[0]: self.minimum}

    def problem(self, wagers: Wagers) -> str | None:
        """Why these wagers cannot be taken, or None."""
        return check_wagers(
            dict(wagers), known=self.bets, required=self.required, limited=self.limited,
            minimum=self.minimum, maximum=self.maximum, whole_dollars=self.whole_dollars,
        )

    def bet_named(self, word: str) -> str | None:
        """The bet a typed word names (its name, a unique beginning of it, or its initials)."""
        w = word.lower()
        if w in self.bets:
            return w
        initials = {"".join(p[0] for p in b.split("-")): b for b in self.bets if "-" in b}
        if w in initials:
            return initials[w]
        starting = [b for b in self.bets if b.startswith(w)]
        return starting[0] if len(starting) == 1 else None


def cents(text: str) -> int | None:
    """``25`` -> 2500, ``7.50`` -> 750, ``$10`` -> 1000; None when it is not an amount."""
    try:
        value = Decimal(text.lstrip("$"))
    except InvalidOperation:
        return None
    if not value.is_finite() or value < 0 or value * 100 != int(value * 100):
        return None
    return int(value * 100)


def parse(text: str, limits: TableLimits) -> dict[str, int] | str:
    """A seat's wagers typed as text, checked against the limits; or why not (one line)."""
    words = text.replace(",", " ").split()
    if not words:
        return "type an amount, or bets and amounts (e.g. 25 or ante 25 pairplus 5)"
    out: dict[str, int] = {}
    if _NUMBER.fullmatch(words[0]):
        words = [limits.required[0], *words]
    if len(words) % 2:
        return f"{words[-1]!r} has no amount"
    for name, amount in zip(words[::2], words[1::2], strict=True):
        bet = limits.bet_named(name)
        if bet is None:
            return f"no bet {name!r} at this table (bets: {', '.join(limits.bets)})"
        value = cents(amount)
        if value is None:
            return f"{bet}: {amount!r} is not an amount in dollars"
        out[bet] = value
    placed = {b: v for b, v in out.items() if v}
    problem = limits.problem(placed)
    return problem if problem else placed


def for_round(seats: tuple[int, ...], standing: Mapping[int, Wagers], limits: TableLimits) -> dict[int, dict[str, int]]:
    """Each seat's wagers for the round: what it stands on, else the table default."""
    return {s: dict(standing.get(s) or limits.default) for s in seats}


def money(cents: int) -> str:
    """``$12`` or ``$12.50`` (negative: ``-$5``)."""
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}${cents // 100}" if cents % 100 == 0 else f"{sign}${cents / 100:.2f}"


def shown(wagers: Wagers) -> str:
    """``ante $25 pairplus $5`` (no empty bets)."""
    return " ".join(f"{b} {money(v)}" for b, v in wagers.items() if v)


__all__ = ["TableLimits", "Wagers", "cents", "for_round", "money", "parse", "shown"]
