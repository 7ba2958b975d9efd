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
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import numpy as np

from tablectl.gamemath.holdem_tables import RANK_KEY, flush, ranks
from tablectl.rounds import RoundHands
from tablectl.rules import texas_holdem_bonus as thb

Deal = tuple[tuple[int, ...], int]  # (the dealer's cards, how many pairs settle alike)
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


def _value(cards: list[int]) -> int:
    """The best five of seven ``cards``, as ``best_five`` values them (from the same tables)."""
    best = int(ranks(7)[int(RANK_KEY[[c >> 2 for c in cards]].sum())])
    table = flush()
    for suit in range(4):
        best = max(best, int(table[sum(1 << (c >> 2) for c in cards if c & 3 == suit)]))
    return best


def holdem_deals(hands: RoundHands, decks: int) -> Iterator[Deal]:
    """The dealer's hole pairs given every seat's cards and the board, one per class settling
    alike (see the module docstring), with how many pairs it stands for."""
    if decks != 1:
        raise ValueError(f"Texas Hold'em Bonus is dealt from one deck, not {decks}")
    players = [s for s in hands.seats if s.seat != hands.banker_seat]
    seen = [c for s in players for c in s.cards] + list(hands.board)
    if len(set(seen)) != len(seen):
        raise ValueError("a card seen twice among the seats' cards and the board")
    a, b = _pairs()
    held = np.zeros(52, dtype=bool)
    held[seen] = True
    keep = ~(held[a] | held[b])
    a, b = a[keep], b[keep]
    code = np.zeros(len(a), dtype=np.int64)
    shown = [s for s in players if s.wagers.get(thb.ANTE) and s.decisions[:1] != [thb.FOLD_DECISION]]
    if shown:
        if len(hands.board) != 5:
            raise ValueError(f"a seat played on with {len(hands.board)} board cards, not 5")
        dealer = _dealer_values(list(hands.board), a, b)
        for seat in shown:  # the showdown: whether the seat's hand beats, ties or loses to the dealer's
            if len(seat.cards) != 2:
                raise ValueError(f"seat {seat.seat} holds {len(seat.cards)} cards, not 2")
            code = code * 3 + np.sign(_value(list(seat.cards) + list(hands.board)) - dealer) + 1
    if any(s.wagers.get(thb.BONUS) for s in players):
        code = code * 2 + ((a >> 2 == _ACE) & (b >> 2 == _ACE))
    _, first, counts = np.unique(code, return_index=True, return_counts=True)
    for i, n in zip(first.tolist(), counts.tolist()):
        yield (int(a[i]), int(b[i])), int(n)


__all__ = ["Deal", "holdem_deals"]
