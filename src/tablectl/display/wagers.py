"""Wagers at the keys (pure): the table's betting limits, a seat's wagers typed as text, and the
wagers a round starts with when nobody types anything.

A routine round needs no typing: a seat plays what it played last round ("same as last round"),
or the table default (the table minimum on the game's first required bet) the first time. ``$``
on a selected seat changes what it bets, as a line such as ``25`` (the required bet),
``ante 25 pairplus 5`` or ``a 25 p 5`` (a bet's name, any unique beginning of it, or its initials:
``scb`` for ``six-card-bonus``; each bet by the name the table gives it, One for the Money's side
bet ``perfect-match`` or ``three-card-bonus``), in dollars (``7.50`` where the game allows cents).
The bets typed change only those bets: ``tie 5`` adds a Tie to the primary wager the seat stands
on; ``0`` on a bet takes it down. The amounts are checked against each bet's limits
(``tablectl.rules.bets``: the table's ``min_bet``/``max_bet`` on the primary bets, each side bet
its own) by the same check the controller makes (``tablectl.table.procedure.validation.check_wagers``), so
a refusal is one line, at once, naming the bet and its limits.

A bet-recognition system gives its wagers to the same input the keys do:
``controller.start_round(seats, wagers={seat: {bet: cents}}, banker_stake=cents)``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Context, Decimal, Inexact, InvalidOperation

from tablectl.eventlog.records import LOG_INT_MAX
from tablectl.rules.bets import BetLimit, money
from tablectl.table.procedure.cover import bank_stake_limit
from tablectl.table.procedure.validation import check_wagers

Wagers = Mapping[str, int]
_NUMBER = re.compile(r"\$?[0-9.]+")
_EXACT = Context(traps=[Inexact, InvalidOperation])  # an amount in cents is exact or not taken


@dataclass(frozen=True, slots=True)
class TableLimits:
    """The bets of the game (the rules engine's names), the name the table gives each, and every
    bet's limits, in cents (``tablectl.rules.bets``)."""

    bets: tuple[str, ...]
    required: tuple[str, ...]
    limits: Mapping[str, BetLimit] = field(default_factory=dict)
    names: Mapping[str, str] = field(default_factory=dict)  # bet -> the table's name, where it differs
    banker_stake_limits: bool = False  # payouts stop at the banking player's stake: it must be known
    stake: BetLimit = BetLimit(1, LOG_INT_MAX)  # the bank's stake (``tablectl.table.procedure.cover.bank_stake_limit``)

    @classmethod
    def of(cls, config: object) -> TableLimits:
        """The limits of a ``TableConfig``."""
        game = config.game_def  # type: ignore[attr-defined]
        rules = config.settlement_rules  # type: ignore[attr-defined]
        return cls(
            bets=tuple(game.wagers), required=tuple(game.required),
            limits=config.bet_limits, names=config.bet_names,  # type: ignore[attr-defined]
            banker_stake_limits=bool(game.banker and getattr(rules, "limit_to_banker_stake", False)),
            stake=bank_stake_limit(config),  # type: ignore[arg-type]
        )

    @property
    def minimum(self) -> int:
        """The table minimum: the least bet on the game's first required bet."""
        return self.limits[self.required[0]].minimum if self.required[0] in self.limits else 0

    @property
    def default(self) -> dict[str, int]:
        """The table default: the minimum on the first required bet."""
        return {self.required[0]: self.minimum}

    def name(self, bet: str) -> str:
        """The name the table gives ``bet``."""
        return self.names.get(bet, bet)

    @property
    def example(self) -> str:
        """A wager line for this game, from its own bet names: ``ante 25 pairplus 5``."""
        first = self.required[0]
        line = f"{self.name(first)} {max(25, self.minimum // 100)}"
        side = next((b for b in self.bets if b != first), None)
        if side is not None:
            limit = self.limits.get(side)
            line += f" {self.name(side)} {max(5, limit.minimum // 100) if limit else 5}"
        return line

    def problem(self, wagers: Wagers) -> str | None:
        """Why these wagers cannot be taken, or None."""
        return check_wagers(dict(wagers), known=self.bets, required=self.required, limits=self.limits, names=self.names)

    def bet_named(self, word: str) -> str | None:
        """The bet a typed word names (the table's name for it, a unique beginning of that name,
        or its initials: ``scb`` for ``six-card-bonus``)."""
        w = word.lower()
        by_name = {self.name(b): b for b in self.bets}
        if w in by_name:
            return by_name[w]
        initials = {"".join(p[0] for p in n.split("-")): b for n, b in by_name.items() if "-" in n}
        if w in initials:
            return initials[w]
        starting = [b for n, b in by_name.items() if n.startswith(w)]
        return starting[0] if len(starting) == 1 else None


def cents(text: str) -> int | None:
    """``25`` -> 2500, ``7.50`` -> 750, ``$10`` -> 1000; None when it is not an amount: anything
    but digits and a point (``1e3``, ``1_000``, ``-5``), a fraction of a cent, or more digits than
    are counted exactly."""
    if not _NUMBER.fullmatch(text):
        return None
    try:
        value = _EXACT.multiply(Decimal(text.lstrip("$")), 100)
    except (InvalidOperation, Inexact):
        return None
    if value != value.to_integral_value():
        return None
    return int(value)


def parse(text: str, limits: TableLimits, standing: Wagers | None = None) -> dict[str, int] | str:
    """A seat's wagers typed as text, on top of the wagers it stands on (``standing``: a side bet
    typed alone is added to them, ``0`` takes a bet down), checked against the limits; or why not
    (one line)."""
    words = text.replace(",", " ").split()
    if not words:
        return f"type an amount, or bets and amounts (e.g. {limits.example})"
    out: dict[str, int] = dict(standing or {})
    if _NUMBER.fullmatch(words[0]):
        words = [limits.required[0], *words]
    if len(words) % 2:
        return f"{words[-1]!r} has no amount"
    for name, amount in zip(words[::2], words[1::2], strict=True):
        bet = limits.bet_named(name)
        if bet is None:
            return f"no bet {name!r} at this table (bets: {', '.join(limits.name(b) for b in limits.bets)})"
        value = cents(amount)
        if value is None:
            return f"{limits.name(bet)}: {amount!r} is not an amount in dollars"
        out[bet] = value
    placed = {b: v for b, v in out.items() if v}
    problem = limits.problem(placed)
    return problem if problem else placed


def for_round(seats: tuple[int, ...], standing: Mapping[int, Wagers], limits: TableLimits) -> dict[int, dict[str, int]]:
    """Each seat's wagers for the round: what it stands on, else the table default."""
    return {s: dict(standing.get(s) or limits.default) for s in seats}


def shown(wagers: Wagers, names: Mapping[str, str] | None = None) -> str:
    """``ante $25 pairplus $5`` (no empty bets; each bet by the table's name for it)."""
    names = names or {}
    return " ".join(f"{names.get(b, b)} {money(v)}" for b, v in wagers.items() if v)


__all__ = ["TableLimits", "Wagers", "cents", "for_round", "parse", "shown"]
