"""The cards on the table during a round, by position (pure): what the controller shows and what a
restarted controller rebuilds from the log.

A layout maps a position (``seat:N``, ``dealer``, ``dp``, ``board``) to its cards in deal order,
each ``[card, face_up]`` (card None: a misread not identified yet).
"""

from __future__ import annotations

from typing import Any

from tablectl.games.procedure import seat_to

Layout = dict[str, list[list[Any]]]


def lay(layout: Layout, to: str, card: int | None, face_up: bool) -> None:
    """A card dealt to ``to``."""
    held = layout.get(to)
    if held is None:
        layout[to] = held = []
    held.append([card, face_up])


def take_back(layout: Layout, to: str, card: int) -> None:
    """The last copy of ``card`` at ``to`` leaves the layout (an exposed card becomes a burn)."""
    held = layout.get(to, [])
    for i in range(len(held) - 1, -1, -1):
        if held[i][0] == card:
            del held[i]
            return


def reveal(layout: Layout, to: str) -> list[list[Any]]:
    """Every card at ``to`` turns face up; returns them."""
    cards = layout.get(to, [])
    for entry in cards:
        entry[1] = True
    return cards


def trade_out(layout: Layout, seat: int, card: int) -> str:
    """``seat`` gives up ``card`` (One for the Money's trade); returns the seat's position."""
    position = seat_to(seat)
    held = layout.get(position, [])
    for i, (c, _) in enumerate(held):
        if c == card:
            del held[i]
            break
    return position
