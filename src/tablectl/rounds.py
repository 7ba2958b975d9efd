"""What one round came to, as plain values: the contract between the table controller (which
builds it from cards and dealer inputs), the rules engine (which settles it) and review (which
rebuilds it from the log and settles it again).

Amounts are integers in cents. Seats are numbered clockwise from the dealer's left, from 1.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class SeatHand:
    """One player position's part in a round."""

    seat: int
    cards: list[int] = field(default_factory=list)  # final cards, in deal order
    wagers: dict[str, int] = field(default_factory=dict)  # bet -> cents, as placed before the deal
    decisions: list[str] = field(default_factory=list)  # in the order made (see each game)
    traded: list[int] = field(default_factory=list)  # cards given up (One for the Money's trade)
    war: list[tuple[int, int]] = field(default_factory=list)  # One Card Poker: (player, DP) per war


@dataclass(slots=True)
class RoundHands:
    """The final cards, decisions and wagers of a round: everything settlement needs."""

    game: str
    seats: list[SeatHand]
    dealer: list[int] = field(default_factory=list)  # dealer / designated player / player-dealer
    board: list[int] = field(default_factory=list)  # community cards
    banker_seat: int | None = None  # the DP or player-dealer, when a player banks
    banker_stake: int | None = None  # cents the banker put up (limits payouts where the game says)


@dataclass(slots=True)
class BetResult:
    """How one bet of one seat was settled: a value, never changed once settled (not a frozen
    dataclass only because a round builds many, and a frozen dataclass is several times dearer
    to build).

    ``outcome`` is a short name ("win", "lose", "push", "fold", "surrender", "no-action", or a pay
    table line such as "straight-flush"); ``pays`` the odds paid as "N:1" text ("" if none);
    ``net`` what the player won (+) or lost (-) on it, in cents.
    """

    seat: int
    bet: str
    stake: int
    outcome: str
    pays: str
    net: int


@dataclass(slots=True)
class Settlement:
    """A round's settlement, in the order the game settles it."""

    results: list[BetResult]

    def net_for(self, seat: int) -> int:
        return sum(r.net for r in self.results if r.seat == seat)
