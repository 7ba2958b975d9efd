"""What one round came to, as plain values: the contract between the table controller (which
builds it from cards and dealer inputs), the rules engine (which settles it) and review (which
rebuilds it from the log and settles it again).

Amounts are integers in cents. Seats are numbered clockwise from the dealer's left, from 1.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple


@dataclass(slots=True, init=False)
class SeatHand:
    """One player position's part in a round. Omitted lists and the wagers start empty (each hand
    its own)."""

    seat: int
    cards: list[int] = field(default_factory=list)  # final cards, in deal order
    wagers: dict[str, int] = field(default_factory=dict)  # bet -> cents, as placed before the deal
    decisions: list[str] = field(default_factory=list)  # in the order made (see each game)
    traded: list[int] = field(default_factory=list)  # cards given up (One for the Money's trade)
    war: list[tuple[int, int]] = field(default_factory=list)  # One Card Poker: (player, DP) per war

    # Written out rather than generated: a script builds one per seat and round, and the generated
    # ``__init__`` calls ``list()`` / ``dict()`` for every omitted field, a literal is cheaper.
    def __init__(
        self,
        seat: int,
        cards: list[int] | None = None,
        wagers: dict[str, int] | None = None,
        decisions: list[str] | None = None,
        traded: list[int] | None = None,
        war: list[tuple[int, int]] | None = None,
    ) -> None:
        self.seat = seat
        self.cards = [] if cards is None else cards
        self.wagers = {} if wagers is None else wagers
        self.decisions = [] if decisions is None else decisions
        self.traded = [] if traded is None else traded
        self.war = [] if war is None else war


@dataclass(slots=True, init=False)
class RoundHands:
    """The final cards, decisions and wagers of a round: everything settlement needs."""

    game: str
    seats: list[SeatHand]
    dealer: list[int] = field(default_factory=list)  # dealer / designated player / player-dealer
    board: list[int] = field(default_factory=list)  # community cards
    banker_seat: int | None = None  # the DP or player-dealer, when a player banks
    banker_stake: int | None = None  # cents the banker put up (limits payouts where the game says)

    def __init__(  # written out for the reason given at SeatHand's
        self,
        game: str,
        seats: list[SeatHand],
        dealer: list[int] | None = None,
        board: list[int] | None = None,
        banker_seat: int | None = None,
        banker_stake: int | None = None,
    ) -> None:
        self.game = game
        self.seats = seats
        self.dealer = [] if dealer is None else dealer
        self.board = [] if board is None else board
        self.banker_seat = banker_seat
        self.banker_stake = banker_stake


class BetResult(NamedTuple):
    """How one bet of one seat was settled: an immutable value, in the field order of a logged
    ``settled`` line (so a row of the settlement compares with a logged row as it is).

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
