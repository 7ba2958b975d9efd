"""Validation of every card against the procedure: the named violation kinds and the pure
judgements the controller applies (from plain values: the table state, the burn mark, what the
procedure expects).

Every violation puts the table on hold until a supervisor resolves it. ``WHAT_TO_DO`` is the
short instruction the display shows beside it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tablectl.games.procedure import CardStep
from tablectl.rules.bets import BetLimit
from tablectl.table import lifecycle as lc

BURN_MISSING = "burn_missing"
BURN_EXTRA = "burn_extra"
TOO_MANY_CARDS = "too_many_cards"
TOO_FEW_CARDS = "too_few_cards"
WRONG_POSITION = "wrong_position"
FOREIGN_CARD = "foreign_card"
WRONG_STATE = "wrong_state"
PENETRATION_CAP = "penetration_cap"
CARD_NOT_RETURNED = "card_not_returned"
DECK_CHECK = "deck_check"
MISREAD = "misread"
SETTLEMENT_FAILED = "settlement_failed"
EVENTS_LOST = "events_lost"
BAD_EVENT = "bad_event"

KINDS = (
    BURN_MISSING,
    BURN_EXTRA,
    TOO_MANY_CARDS,
    TOO_FEW_CARDS,
    WRONG_POSITION,
    FOREIGN_CARD,
    WRONG_STATE,
    PENETRATION_CAP,
    CARD_NOT_RETURNED,
    DECK_CHECK,
    MISREAD,
    SETTLEMENT_FAILED,
    EVENTS_LOST,
    BAD_EVENT,
)

WHAT_TO_DO: dict[str, str] = {
    BURN_MISSING: "A burn was skipped. Supervisor: check the layout; resolve to go on, or void the round.",
    BURN_EXTRA: "A card was burned where a card was due. Supervisor: resolve; the next card takes its place.",
    TOO_MANY_CARDS: "A card the round does not need. Put it in the discards; supervisor resolves.",
    TOO_FEW_CARDS: "The round ended short of cards. Supervisor: resolve to deal on, or void the round.",
    WRONG_POSITION: "A packet not the size or order the deal needs. Discard it; supervisor resolves.",
    FOREIGN_CARD: "A card beyond the shoe's composition (foreign or duplicate). Remove it; supervisor checks the shoe.",
    WRONG_STATE: "A card drawn when no card may be dealt. Put it in the discards; supervisor resolves.",
    PENETRATION_CAP: "Past the penetration cap: stop dealing. Resolving voids the round; change the shoe.",
    CARD_NOT_RETURNED: "Cards of the last round never came back to the shuffler. Find them; supervisor resolves.",
    DECK_CHECK: "The deck check failed. Take the deck out, check it, reload and shuffle again.",
    MISREAD: "The device could not read a card. Dealer: identify it; then the supervisor resolves.",
    SETTLEMENT_FAILED: "The round could not be settled. Supervisor: settle by hand, or void the round.",
    EVENTS_LOST: "Device events were lost for good. Supervisor: reconcile the layout with the device; void if in doubt.",
    BAD_EVENT: "The device sent an event that cannot be taken (never issued, or unreadable); it was dropped. Supervisor: check the device's cable; reconcile the layout with the device.",
}


@dataclass(slots=True)
class Violation:
    """One violation: its kind, the round, a one-line detail and the log fields it came with."""

    kind: str
    round: int | None
    detail: str
    seq: int = 0  # the log line that recorded it
    fields: dict[str, Any] = field(default_factory=dict)

    @property
    def what_to_do(self) -> str:
        return WHAT_TO_DO[self.kind]


# --- where a card drawn from a shoe or a continuous shuffler goes -------------------------------

TO_DUE_BURN = "due_burn"  # the burn due after a shuffle or a dealer change
TO_STEP = "step"  # the procedure's next step (a position, or a burn the script asks for)
TO_EXTRA_BURN = "extra_burn"  # burned, though a card was due (the procedure does not move)
AFTER_BURNS = "after_burns"  # the burns due were skipped: the next position after them
TO_DISCARD = "discard"  # not accepted as dealt


@dataclass(frozen=True, slots=True)
class CardVerdict:
    """Where a card goes and the violation it raises (None: none)."""

    placement: str
    violation: str | None = None
    where: str | None = None  # the burn's reason, for burn violations


_ACCEPT_STEP = CardVerdict(TO_STEP)
_ACCEPT_DUE_BURN = CardVerdict(TO_DUE_BURN)


def judge_card(state: str, *, marked: bool, burn_due: str | None, step: CardStep | None) -> CardVerdict:
    """Judge one card drawn in ``state`` (the lifecycle state). ``marked``: the dealer declared
    it a burn (the device's burn button or the dealer input). ``burn_due``: the reason a burn is
    due before any other card (after a shuffle, at a dealer change), else None. ``step``: what
    the round's procedure expects next (None: nothing, e.g. a decision is awaited)."""
    if state == lc.IN_ROUND:
        if burn_due is not None:
            if marked:
                return _ACCEPT_DUE_BURN
            return CardVerdict(AFTER_BURNS, BURN_MISSING, burn_due)
        if step is None:
            if marked:
                return CardVerdict(TO_EXTRA_BURN, BURN_EXTRA)
            return CardVerdict(TO_DISCARD, TOO_MANY_CARDS)
        if step.burn:
            if marked:
                return _ACCEPT_STEP
            return CardVerdict(AFTER_BURNS, BURN_MISSING, step.reason)  # type: ignore[union-attr]
        if marked:
            return CardVerdict(TO_EXTRA_BURN, BURN_EXTRA)
        return _ACCEPT_STEP
    if state in (lc.READY, lc.RESHUFFLE_DUE) and burn_due is not None and marked:
        return _ACCEPT_DUE_BURN
    if state == lc.SETTLING:
        return CardVerdict(TO_DISCARD, TOO_MANY_CARDS)
    return CardVerdict(TO_DISCARD, WRONG_STATE)


def judge_packet(
    state: str, *, index: int, expected_index: int, size: int, packet: tuple[CardStep, int] | None
) -> CardVerdict:
    """Judge one packet from a hand-forming shuffler: packet ``index`` of ``size`` cards, where
    the procedure expects packet ``expected_index`` to be ``packet`` = (step, card count)."""
    if state != lc.IN_ROUND:
        return CardVerdict(TO_DISCARD, TOO_MANY_CARDS if state == lc.SETTLING else WRONG_STATE)
    if packet is None:
        return CardVerdict(TO_DISCARD, TOO_MANY_CARDS)
    step, count = packet
    if index != expected_index:
        return CardVerdict(TO_DISCARD, WRONG_POSITION)
    if size != count:
        if step.burn:
            return CardVerdict(AFTER_BURNS, BURN_MISSING, step.reason)  # type: ignore[union-attr]
        return CardVerdict(TO_DISCARD, WRONG_POSITION)
    return _ACCEPT_STEP


def check_wagers(
    wagers: Mapping[str, int],
    *,
    known: tuple[str, ...],
    required: tuple[str, ...],
    limits: Mapping[str, BetLimit],
    names: Mapping[str, str] | None = None,
) -> str | None:
    """Why one seat's wagers (bet -> cents) cannot be taken, or None (one line naming the bet and
    the limit). ``required``: at least one of these bets; ``limits``: each bet's limits
    (``tablectl.rules.bets``); ``names``: the name the table gives a bet, where it differs."""
    names = names or {}
    for bet, cents in wagers.items():
        if bet not in known:
            return f"unknown bet {bet!r} (this game takes {', '.join(names.get(b, b) for b in known)})"
        if not isinstance(cents, int) or isinstance(cents, bool) or cents < 0:
            return f"{names.get(bet, bet)}: {cents!r} is not an amount in cents"
        limit = limits.get(bet)
        problem = limit.problem(cents) if cents and limit is not None else None
        if problem:
            return f"{names.get(bet, bet)}: {problem}"
    for bet in required:
        if wagers.get(bet, 0) > 0:
            return None
    return f"needs a {' or '.join(names.get(b, b) for b in required)} wager"


class WagerCheck:
    """:func:`check_wagers` for one table (its bets, limits and names bound): a seat's wagers
    that pass, the usual case, pass on a short path; any other is judged by ``check_wagers``."""

    __slots__ = ("_known", "_required", "_limits", "_names")

    def __init__(self, known: tuple[str, ...], required: tuple[str, ...], limits: Mapping[str, BetLimit],
                 names: Mapping[str, str] | None = None) -> None:
        self._known = known
        self._required = required
        self._limits = limits
        self._names = names

    def __call__(self, wagers: Mapping[str, int]) -> str | None:
        """Why the wagers cannot be taken, or None (:func:`check_wagers`)."""
        known, limits = self._known, self._limits
        for bet, cents in wagers.items():
            if bet not in known or type(cents) is not int or cents < 0:
                return self._judge(wagers)
            if cents:
                limit = limits.get(bet)
                if limit is not None and limit.problem(cents):
                    return self._judge(wagers)
        for bet in self._required:
            if wagers.get(bet, 0) > 0:
                return None
        return self._judge(wagers)

    def _judge(self, wagers: Mapping[str, int]) -> str | None:
        return check_wagers(wagers, known=self._known, required=self._required, limits=self._limits, names=self._names)


__all__ = [
    "AFTER_BURNS",
    "BAD_EVENT",
    "BURN_EXTRA",
    "BURN_MISSING",
    "CARD_NOT_RETURNED",
    "DECK_CHECK",
    "EVENTS_LOST",
    "FOREIGN_CARD",
    "KINDS",
    "MISREAD",
    "PENETRATION_CAP",
    "SETTLEMENT_FAILED",
    "TOO_FEW_CARDS",
    "TOO_MANY_CARDS",
    "TO_DISCARD",
    "TO_DUE_BURN",
    "TO_EXTRA_BURN",
    "TO_STEP",
    "WHAT_TO_DO",
    "WRONG_POSITION",
    "WRONG_STATE",
    "CardVerdict",
    "Violation",
    "WagerCheck",
    "check_wagers",
    "judge_card",
    "judge_packet",
]
