"""Texas Hold'em Bonus's dealer hands for a round's theo_var (pure): every pair of dealer hole
cards the seen cards leave, one per class of pairs the round settles alike.

What is seen: every seat's two hole cards and the board as logged (the whole board once any seat
plays on; dealt short only when every seat folded). The dealer's two hole cards are then every
pair of the cards no seat holds and the board does not show (one deck: C(45, 2) = 990 pairs with
one seat, fewer with more), each equally likely. Two pairs settle alike where, for every seat that
played on, the dealer's best five of seven beats, ties or loses to the seat's the same way (ranked
all at once with the rules engine's lookup tables, ``holdem_tables``; the Ante's win or push above
the dealer is the seat's own hand), and, where a seat has a Bonus, both pairs are or neither is
a pair of aces (the one line whose pay depends on the dealer's cards: ``aces-against-aces``).
As the seats' hands are fixed, a pair's class is the place of the dealer's hand among the seats'
distinct hands (below the lowest, equal to it, between it and the next, ...) and its aces.

``theo_variance`` settles each seat alone by the rules engine, once per class of its own (the
game settles seat by seat against the one dealer hand, with no bank limit); a pair's house result
is the sum of its seats', so the seats' covariance is kept by the classes of all seats together.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

import numpy as np

from tablectl.gamemath.holdem.tables import RANK_KEY, flush, ranks
from tablectl.rounds import RoundHands, SeatHand
from tablectl.rules import texas_holdem_bonus as thb
from tablectl.rules.hand7 import best_five

#: a dealer hand standing for its class: its cards, how many hands settle alike, and per seat that
#: does not bank the class of its own settlement
Class = tuple[tuple[int, ...], int, dict[int, int]]
_ACE = 12


@cache
def _pairs() -> tuple[np.ndarray, np.ndarray]:
    """Every pair of cards a < b of one deck (1,326)."""
    a, b = np.triu_indices(52, 1)
    return a.astype(np.int64), b.astype(np.int64)


def _dealer_values(board: list[int], a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The best five of the five ``board`` cards with each hole pair (``a``, ``b``), as the rules
    engine's ``best_five`` values them."""
    key = int(RANK_KEY[[c >> 2 for c in board]].sum())
    best = ranks(7)[key + RANK_KEY[a >> 2] + RANK_KEY[b >> 2]].astype(np.int64)
    table = flush()
    for suit in range(4):
        mine = [c >> 2 for c in board if c & 3 == suit]
        if len(mine) < 3:  # two hole cards cannot make a flush of it
            continue
        mask = sum(1 << r for r in mine) | np.where(a & 3 == suit, 1 << (a >> 2), 0) \
            | np.where(b & 3 == suit, 1 << (b >> 2), 0)
        best = np.maximum(best, table[mask])
    return best


@dataclass(frozen=True, slots=True)
class _Classes:
    """The dealer's possible hole pairs (``a``, ``b``) and each one's class (``joint``: its place
    among the seats' distinct hands ``hands`` times 2, plus 1 for two aces where a seat has a
    Bonus); per seat that does not bank, its hand's value (None: no showdown) and its Bonus."""

    a: np.ndarray
    b: np.ndarray
    joint: np.ndarray
    hands: list[int]
    seats: list[tuple[SeatHand, int | None, bool]]

    def seat_class(self, joint: int, value: int | None, bonus: bool) -> int:
        """A seat's own class for pairs of class ``joint``: showdown (0 lose, 1 tie, 2 win; 0
        without one) times 2, plus 1 for the dealer's two aces where the seat has a Bonus."""
        place, aces = divmod(joint, 2)
        showdown = 0
        if value is not None:
            tie = 2 * self.hands.index(value) + 1
            showdown = 2 if place < tie else 1 if place == tie else 0
        return showdown * 2 + (aces if bonus else 0)


def _classes(hands: RoundHands, decks: int) -> _Classes:
    """Every pair of the unseen cards and its class (see :class:`_Classes`)."""
    if decks != 1:
        raise ValueError(f"Texas Hold'em Bonus is dealt from one deck, not {decks}")
    players = [s for s in hands.seats if s.seat != hands.banker_seat]
    board = list(hands.board)
    seen = [c for s in players for c in s.cards] + board
    if len(set(seen)) != len(seen):
        raise ValueError("a card seen twice among the seats' cards and the board")
    a, b = _pairs()
    held = np.zeros(52, dtype=bool)
    held[seen] = True
    keep = ~(held[a] | held[b])
    a, b = a[keep], b[keep]
    seats: list[tuple[SeatHand, int | None, bool]] = []
    for seat in players:
        value = None
        if seat.wagers.get(thb.ANTE) and seat.decisions[:1] != [thb.FOLD_DECISION]:  # a showdown
            if len(board) != 5:
                raise ValueError(f"seat {seat.seat} played on with {len(board)} board cards, not 5")
            if len(seat.cards) != 2:
                raise ValueError(f"seat {seat.seat} holds {len(seat.cards)} cards, not 2")
            value = best_five(list(seat.cards) + board)
        seats.append((seat, value, bool(seat.wagers.get(thb.BONUS))))
    distinct = sorted({v for _, v, _ in seats if v is not None})
    joint = np.zeros(len(a), dtype=np.int64)
    if distinct:
        dealer = _dealer_values(board, a, b)
        joint = (np.searchsorted(distinct, dealer, "left") + np.searchsorted(distinct, dealer, "right")) * 2
    if any(bonus for _, _, bonus in seats):
        joint += (a >> 2 == _ACE) & (b >> 2 == _ACE)
    return _Classes(a, b, joint, distinct, seats)


def _joint(found: _Classes) -> list[tuple[int, int, int]]:
    """(class, a pair of it (its index), how many pairs) of every class some pair is in."""
    counts = np.bincount(found.joint)
    pair = np.zeros(len(counts), dtype=np.int64)
    pair[found.joint] = np.arange(len(found.joint))  # any pair of the class: they settle alike
    return [(j, i, n) for j, (i, n) in enumerate(zip(pair.tolist(), counts.tolist())) if n]


def holdem_classes(hands: RoundHands, decks: int) -> Iterator[Class]:
    """The dealer's hole pairs given every seat's cards and the board, one per class settling
    alike (see the module docstring), with how many pairs it stands for and, per seat that does
    not bank, the class of its own settlement."""
    found = _classes(hands, decks)
    for joint, i, n in _joint(found):
        yield ((int(found.a[i]), int(found.b[i])), n,
               {seat.seat: found.seat_class(joint, value, bonus) for seat, value, bonus in found.seats})


__all__ = ["Class", "holdem_classes"]
