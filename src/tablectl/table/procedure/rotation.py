"""Rotation of a banking player (pure): One Card Poker's Designated Player button moves every
hand, the Three Card Poker player-dealer every two hands, clockwise to the next seat that wants
it (the DP: Florida 61D-11.002(5)(b); the player-dealer: Three Card Poker's published rule that
the position is offered around the table clockwise after every two hands)."""

from __future__ import annotations

from collections.abc import Collection


def next_banker(current: int | None, wanting: Collection[int], seats: int) -> int | None:
    """The first seat clockwise after ``current`` (from seat 1 when None) that wants the bank;
    ``current`` itself last. None when no seat wants it."""
    start = 0 if current is None else current
    for i in range(1, seats + 1):
        seat = (start + i - 1) % seats + 1
        if seat in wanting:
            return seat
    return None


def banker_for_round(
    current: int | None, hands_banked: int, every: int, wanting: Collection[int], seats: int
) -> tuple[int | None, int]:
    """Who banks the next round and how many hands they will have banked before it: the bank
    stays with ``current`` until it has banked ``every`` hands (and still wants it)."""
    if current is not None and hands_banked < every and current in wanting:
        return current, hands_banked
    nxt = next_banker(current, wanting, seats)
    if nxt == current:
        return current, 0
    return nxt, 0
