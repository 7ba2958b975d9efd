"""Checks and helpers on round input shared by the games' settlement.

Each check has a fast path for input that is right (the common case: one loop, nothing built)
and builds its error message only when the input is wrong.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from operator import attrgetter

from tablectl.cards import text
from tablectl.rounds import RoundHands, SeatHand
from tablectl.rules.errors import SettlementError

_SEAT = attrgetter("seat")


def players(hands: RoundHands, descending: bool = False) -> list[SeatHand]:
    """The seats to settle (never the banker's own), in seat order from the dealer's left, or from
    the dealer's right when ``descending``."""
    banker = hands.banker_seat
    seats: list[SeatHand] = []
    ordered = True
    for seat in hands.seats:  # one pass: the players, and whether they come in seat order
        if seat.seat != banker:
            if ordered and seats and seats[-1].seat >= seat.seat:
                ordered = False
            seats.append(seat)
    if not ordered:  # not in seat order, as deal scripts give it: check and sort
        if len({s.seat for s in seats}) != len(seats):
            raise SettlementError(f"a seat appears twice: {sorted(s.seat for s in seats)}")
        seats.sort(key=_SEAT)
    if descending:
        seats.reverse()
    return seats


def wagers(seat: SeatHand, allowed: Collection[str]) -> Mapping[str, int]:
    """The seat's wagers, checked: known bet names, whole cents, not negative; zero stakes dropped.

    When every stake is a positive ``int`` of a known bet (the usual case) this is the seat's own
    mapping, not a copy: read it, do not change it."""
    stakes = seat.wagers
    for bet, stake in stakes.items():
        if bet not in allowed or type(stake) is not int or stake <= 0:
            return _checked_wagers(seat, allowed)
    return stakes


def _checked_wagers(seat: SeatHand, allowed: Collection[str]) -> dict[str, int]:
    for bet, stake in seat.wagers.items():
        if bet not in allowed:
            raise SettlementError(f"seat {seat.seat}: unknown wager {bet!r} (expected {', '.join(allowed)})")
        if not isinstance(stake, int) or stake < 0:
            raise SettlementError(f"seat {seat.seat}: wager {bet} must be whole cents >= 0, got {stake!r}")
    return {bet: stake for bet, stake in seat.wagers.items() if stake}


def exactly(cards: Sequence[int], n: int, whose: str) -> list[int]:
    """``cards`` checked to be ``n`` card ints."""
    if not _are_cards(cards, n):
        raise _wrong_cards(cards, n, whose)
    return list(cards)


def hand(seat: SeatHand, n: int) -> list[int]:
    """The seat's cards, checked to be ``n`` card ints (as ``exactly``, for "seat N")."""
    cards = seat.cards
    if not _are_cards(cards, n):
        raise _wrong_cards(cards, n, f"seat {seat.seat}")
    return list(cards)


def card(seat: SeatHand) -> int:
    """The seat's one card, checked to be a card int (``hand(seat, 1)``'s card, and its error)."""
    cards = seat.cards
    if not _are_cards(cards, 1):
        raise _wrong_cards(cards, 1, f"seat {seat.seat}")
    return cards[0]


def traded(seat: SeatHand, n: int) -> list[int]:
    """The cards the seat traded away, checked to be ``n`` card ints (as ``exactly``)."""
    cards = seat.traded
    if not _are_cards(cards, n):
        raise _wrong_cards(cards, n, f"seat {seat.seat}'s traded card")
    return list(cards)


def _are_cards(cards: Sequence[int], n: int) -> bool:
    if len(cards) != n:
        return False
    for c in cards:
        if not isinstance(c, int) or not 0 <= c < 52:
            return False
    return True


def _wrong_cards(cards: Sequence[int], n: int, whose: str) -> SettlementError:
    shown = " ".join(text(c) if isinstance(c, int) and 0 <= c < 52 else repr(c) for c in cards)
    return SettlementError(f"{whose}: expected {n} cards, got [{shown}]")


def decisions(seat: SeatHand, valid: Collection[tuple[str, ...]]) -> tuple[str, ...]:
    """The seat's decisions, checked to be one of the ``valid`` sequences."""
    made = tuple(seat.decisions)
    if made not in valid:
        shown = " | ".join(" ".join(v) or "(none)" for v in valid)
        raise SettlementError(f"seat {seat.seat}: decisions {list(made)} are not one of: {shown}")
    return made
