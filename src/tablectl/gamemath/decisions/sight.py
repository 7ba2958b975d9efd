"""What a player could see at one decision, and the exact values of the options it had (pure data).

A :class:`Sight` lists the cards a seat knew of when it decided: its own cards, the board, what it
knew of each dealer card (the card itself, only whether it is high -- Q, K or A -- or low, or
nothing) and any other cards it saw (other players' hands). :class:`DecisionValues` holds the
exact expected value of each option, in units of the seat's initial wager of the main game (the
Ante; One Card Poker's primary wager), with the best option and the cost of any choice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

HIGH: Literal["high"] = "high"
LOW: Literal["low"] = "low"
HIGH_RANKS = frozenset((10, 11, 12))  # Q, K, A: what an edge sort tells apart

DealerCard = int | Literal["high", "low"] | None
"""One dealer card as the player knew it: the card, ``"high"``/``"low"`` (edge-sorted), or None."""

#: on equal values the option that risks less money is the best (as gamemath's strategies choose)
WAGER_ORDER = ("fold", "surrender", "check", "stand", "play", "raise", "extend", "trade", "flop", "turn", "river")
_RISK = {o: i for i, o in enumerate(WAGER_ORDER)}


def is_high(card: int) -> bool:
    """True for a queen, king or ace (the "high" side of an edge sort)."""
    return card >> 2 in HIGH_RANKS


@dataclass(frozen=True, slots=True)
class Sight:
    """The cards a seat knew of at a decision (cards are ints, rank * 4 + suit).

    ``own``: its cards in the order dealt (One for the Money after a trade: the card traded, then
    the new one). ``made``: its decisions earlier in the round (Texas Hold'em Bonus: ``flop``,
    then ``turn`` or ``check``; One for the Money: ``trade``). ``dealer``: one entry per dealer
    card of the game (three in Three Card Poker, two in One for the Money and Texas Hold'em Bonus,
    one in One Card Poker); empty means nothing known of any."""

    own: tuple[int, ...]
    board: tuple[int, ...] = ()
    dealer: tuple[DealerCard, ...] = ()
    others: tuple[int, ...] = ()
    made: tuple[str, ...] = ()

    def knowing(self, dealer: tuple[int, ...]) -> Sight:
        """The same sight with every dealer card known."""
        return Sight(self.own, self.board, tuple(dealer), self.others, self.made)

    def seen(self) -> tuple[int, ...]:
        """Every card this sight names: own, board, dealer cards known, others."""
        return (*self.own, *self.board, *(c for c in self.dealer if isinstance(c, int)), *self.others)


@dataclass(frozen=True, slots=True)
class DecisionValues:
    """Each option's exact expected value (net, in units of the initial main wager) at one
    decision; ``None`` for a decision the math does not value (``best`` is then None)."""

    values: dict[str, Fraction | None] = field(default_factory=dict)

    @property
    def best(self) -> str | None:
        """The option of the highest value (on a tie, the one risking less; WAGER_ORDER)."""
        best, top, rank = None, None, 0
        for o, v in self.values.items():  # one pass: judging calls this for every decision
            if v is None:
                return None
            r = _RISK.get(o, len(WAGER_ORDER))
            if top is None or v > top or (v == top and r < rank):
                best, top, rank = o, v, r
        return best

    def cost(self, choice: str) -> Fraction | None:
        """What ``choice`` gives up against the best option (0 for the best), in initial wagers."""
        best = self.best
        value = self.values.get(choice)
        if best is None or value is None:
            return None
        top = self.values[best]
        assert top is not None
        return top - value


__all__ = ["HIGH", "HIGH_RANKS", "LOW", "WAGER_ORDER", "DealerCard", "DecisionValues", "Sight", "is_high"]
