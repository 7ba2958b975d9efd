"""Checks and helpers on round input shared by the games' settlement."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from tablectl.cards import text
from tablectl.rounds import RoundHands, SeatHand
from tablectl.rules.errors import SettlementError


def players(hands: RoundHands, descending: bool = False) -> list[SeatHand]:
    """The seats to settle (never the banker's own), in seat order from the dealer's left, or from
    the dealer's right when ``descending``."""
    seats = [s for s in hands.seats if s.seat != hands.banker_seat]
    numbers = [s.seat for s in seats]
    if len(set(numbers)) != len(numbers):
        raise SettlementError(f"a seat appears twice: {sorted(numbers)}")
    return sorted(seats, key=lambda s: s.seat, reverse=descending)


def wagers(seat: SeatHand, allowed: Collection[str]) -> dict[str, int]:
    """The seat's wagers, checked: known bet names, whole cents, not negative; zero stakes dropped."""
    for bet, stake in seat.wagers.items():
        if bet not in allowed:
            raise SettlementError(f"seat {seat.seat}: unknown wager {bet!r} (expected {', '.join(allowed)})")
        if not isinstance(stake, int) or stake < 0:
            raise SettlementError(f"seat {seat.seat}: wager {bet} must be whole cents >= 0, got {stake!r}")
    return {bet: stake for bet, stake in seat.wagers.items() if stake}


def exactly(cards: Sequence[int], n: int, whose: str) -> list[int]:
    """``cards`` checked to be ``n`` card ints."""
    ok = len(cards) == n
    if ok:
        for c in cards:
            if not isinstance(c, int) or not 0 <= c < 52:
                ok = False
                break
    if not ok:
        shown = " ".join(text(c) if isinstance(c, int) and 0 <= c < 52 else repr(c) for c in cards)
        raise SettlementError(f"{whose}: expected {n} cards, got [{shown}]")
    return list(cards)


def decisions(seat: SeatHand, valid: Iterable[tuple[str, ...]]) -> tuple[str, ...]:
    """The seat's decisions, checked to be one of the ``valid`` sequences."""
    made = tuple(seat.decisions)
    options = list(valid)
    if made not in options:
        shown = " | ".join(" ".join(v) or "(none)" for v in options)
        raise SettlementError(f"seat {seat.seat}: decisions {list(made)} are not one of: {shown}")
    return made
