"""The people at the table (pure state): the dealer on duty, the players the pit entered by seat,
and, in a player-banked game, the bank — who holds it, how many hands they have banked, and which seats want it when it comes round
(``tablectl.table.procedure.rotation`` says where it goes). ``TableCore`` logs what changes.

Between rounds the bank is with the seat that banks the next round: it moves on (``move_on``)
whenever what decides it changes — a round collected, a seat offering or withdrawing, a restart
taking the rotation over from the log — never only when the next round starts, so the seat the
table shows banking is the one it keeps out of the next round."""

from __future__ import annotations

from dataclasses import dataclass, field

from tablectl.table.procedure.rotation import banker_for_round


@dataclass
class People:
    """The dealer on duty and the bank's rotation. ``every``: hands a banker keeps the bank
    (0: the game has no banking player); ``seats``: the table's seats."""

    every: int
    seats: int
    dealer: str | None = None
    banker: int | None = None
    hands: int = 0  # hands the banker has banked
    wanting: set[int] = field(default_factory=set)  # seats that want the bank
    players: dict[int, str] = field(default_factory=dict)  # seat -> the player id the pit entered

    @property
    def banked(self) -> bool:
        return self.every > 0

    def for_round(self) -> tuple[int | None, int]:
        """Who banks the next round, and the hands they will have banked before it."""
        return banker_for_round(self.banker, self.hands, self.every, self.wanting, self.seats)

    def take_round(self, banker: int | None, hands: int) -> int | None:
        """The round starts with ``banker``; the banker before it (to log a change)."""
        previous = self.banker
        self.banker, self.hands = banker, hands
        return previous

    def round_banked(self) -> tuple[int | None, int | None] | None:
        """A round was collected: the banker has banked one more hand; (new, previous) banker
        when the bank moves on, else None."""
        if not self.banked or self.banker is None:
            return None
        self.hands += 1
        return self.move_on()

    def move_on(self) -> tuple[int | None, int | None] | None:
        """Between rounds: the bank goes where the rotation puts it for the next round (a banker
        whose hands are done, or who no longer wants it, hands it on; nobody banking, the first
        seat that wants it takes it); (new, previous) banker when it moves, else None."""
        if not self.banked:
            return None
        nxt, hands = self.for_round()
        if nxt == self.banker:
            return None
        previous = self.banker
        self.banker, self.hands = nxt, hands
        return nxt, previous

    def offer(self, seat: int, wants: bool, *, may_take: bool) -> tuple[int | None, int | None] | None:
        """``seat`` wants (or no longer wants) the bank. With no round in play (``may_take``) the
        bank moves on at once if that changes who banks the next round: (new, previous) banker,
        else None."""
        if wants:
            self.wanting.add(seat)
        else:
            self.wanting.discard(seat)
        return self.move_on() if may_take else None

    def sign_in(self, dealer: str) -> str | None:
        """``dealer`` takes the table; the dealer before (None: a first sign-in)."""
        previous, self.dealer = self.dealer, dealer
        return previous

    def seat_player(self, seat: int, player: str | None) -> str | None:
        """``player`` sits at ``seat`` (None: the seat's player leaves); the player before."""
        previous = self.players.pop(seat, None)
        if player is not None:
            self.players[seat] = player
        return previous


__all__ = ["People"]
