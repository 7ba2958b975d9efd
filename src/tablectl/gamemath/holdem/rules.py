"""Texas Hold'em Bonus flop and turn rules a dealer recognises, derived from the exact strategy.

Every flop (3 board cards) and turn (4) situation is put in one *class* a person reads off the
cards: what the player's own cards make (a straight or better; trips or better, two pair, an
overpair, top pair, a pocket pair under the top board card, a lower pair — each using a hole
card; or no pair of their own), the draw held (four to a flush, an open-ended straight draw, a
gutshot, both, none) and how many hole cards are over the board. A class's rule is to bet when
betting gains over the class as a whole (the exact EVs summed over its situations, each weighted
by its probability); the rules are then measured against the exact strategy: the share of
situations (by probability) where they agree, and the EV they cost per situation, in Antes.
Only hands the exact strategy plays pre-flop count. The counting walks are numba; the rule
text is pure Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

from tablectl.gamemath.holdem.main import _value
from tablectl.gamemath.holdem.situations import next_combination

MADE = (
    "a straight or better",
    "trips or better using a hole card",
    "two pair using a hole card",
    "an overpair (a pocket pair over the board)",
    "top pair (a hole card pairs the top board card)",
    "a pocket pair under the top board card",
    "a lower pair (a hole card pairs a board card under the top)",
    "no pair of one's own",
)
DRAWS = ("no draw", "a gutshot", "an open-ended straight draw", "four to a flush", "four to a flush and a straight draw")
OVERS = ("no overcard", "one overcard", "two overcards")
CELLS = len(MADE) * len(DRAWS) * len(OVERS)
STRAIGHT, TRIPS, TWO_PAIR, PAIR = 4, 3, 2, 1


def _straight_table() -> np.ndarray:
    """``[mask]``: whether the ranks ``mask`` (13 bits) hold five in a row (the ace low too)."""
    masks = np.arange(1 << 13)
    low = (masks << 1) | ((masks >> 12) & 1)  # bit 0: the ace playing low
    return np.array([any((m >> s) & 0b11111 == 0b11111 for s in range(10)) for m in low.tolist()], dtype=np.bool_)


_STRAIGHT = _straight_table()


@njit(cache=True)
def _completions(mask: int, board_mask: int) -> int:
    """Ranks not held whose card would make a straight that the board alone would not."""
    n = 0
    for x in range(13):
        if (mask >> x) & 1:
            continue
        if _STRAIGHT[mask | (1 << x)] and not _STRAIGHT[board_mask | (1 << x)]:
            n += 1
    return n


@njit(cache=True)
def cell_of(c1: int, c2: int, board: np.ndarray, n: int, made_category: int) -> int:
    """The class of hole cards ``c1, c2`` with ``board[:n]``, given the category of the best
    hand they make (``made_category``, the rules engine's numbering)."""
    return _cell(c1, c2, board, n, made_category, np.zeros(13, dtype=np.int64), np.zeros(4, dtype=np.int64))


@njit(cache=True)
def _cell(c1: int, c2: int, board: np.ndarray, n: int, made_category: int, counts: np.ndarray, suits: np.ndarray) -> int:
    """``cell_of`` with its work arrays given (cleared here): the walks make them once."""
    counts[:] = 0
    suits[:] = 0
    board_mask = 0
    top = -1
    for i in range(n):
        r = board[i] >> 2
        counts[r] += 1
        suits[board[i] & 3] += 1
        board_mask |= 1 << r
        if r > top:
            top = r
    most = 0
    pairs = 0
    for r in range(13):
        if counts[r] > most:
            most = counts[r]
        if counts[r] == 2:
            pairs += 1
    board_category = 0
    if most >= 4:
        board_category = 7
    elif most == 3:
        board_category = TRIPS
    elif pairs >= 2:
        board_category = TWO_PAIR
    elif pairs == 1:
        board_category = PAIR
    r1, r2 = c1 >> 2, c2 >> 2
    if made_category >= STRAIGHT:
        made = 0
    elif made_category <= board_category:
        made = 7
    elif made_category >= TRIPS:
        made = 1
    elif made_category == TWO_PAIR:
        made = 2
    elif r1 == r2:
        made = 3 if r1 > top else 5
    elif counts[r1] > 0 and r1 == top or counts[r2] > 0 and r2 == top:
        made = 4
    else:
        made = 6
    overs = (1 if r1 > top else 0) + (1 if r2 > top else 0)
    flush_draw = False
    for s in range(4):
        held = suits[s] + (1 if (c1 & 3) == s else 0) + (1 if (c2 & 3) == s else 0)
        if held == 4 and suits[s] < 4:
            flush_draw = True
    mask = board_mask | (1 << r1) | (1 << r2)
    straight = _completions(mask, board_mask) if made_category < STRAIGHT else 0
    if flush_draw and made_category < 5:
        draw = 4 if straight > 0 else 3
    elif straight >= 2:
        draw = 2
    elif straight == 1:
        draw = 1
    else:
        draw = 0
    return (made * 5 + draw) * 3 + overs


@njit(cache=True)
def tally_cells(reps: np.ndarray, n: int, gain: np.ndarray, binom: np.ndarray, key: np.ndarray, rank_table: np.ndarray,
                flush_table: np.ndarray, out: np.ndarray) -> None:
    """Over every ``n``-card board beside each starting hand ``r`` of ``reps``: ``out[r, cell]``
    = [situations, situations the exact strategy bets, sum of the bet's gain where positive,
    sum of its loss where negative]; ``gain[r, board]`` is what the bet adds (in any fixed unit),
    the board indexed by colex. Not weighted: ``weigh`` sums the hands a variant plays."""
    cards = np.zeros(6, dtype=np.int64)
    board = np.zeros(4, dtype=np.int64)
    counts = np.zeros(13, dtype=np.int64)
    suits = np.zeros(4, dtype=np.int64)
    for r in range(reps.shape[0]):
        h1, h2 = reps[r, 0], reps[r, 1]
        picks = np.arange(n)
        while True:
            index = 0
            clash = False
            for i in range(n):
                c = picks[i]
                board[i] = c
                cards[2 + i] = c
                index += binom[c, i + 1]
                if c == h1 or c == h2:
                    clash = True
            if not clash:
                cards[0], cards[1] = h1, h2
                category = _value(cards, n + 2, key, rank_table, flush_table) >> 20
                cell = _cell(h1, h2, board, n, category, counts, suits)
                g = np.int64(gain[r, index])
                out[r, cell, 0] += 1
                if g > 0:
                    out[r, cell, 1] += 1
                    out[r, cell, 2] += g
                else:
                    out[r, cell, 3] -= g
            if not next_combination(picks, 52):
                break


def weigh(tally: np.ndarray, weights: np.ndarray, play: np.ndarray) -> np.ndarray:
    """``tally_cells``'s per-hand tally summed over the starting hands played, each weighted by
    the deals it stands for: ``out[cell]`` as ``derive`` takes it."""
    return np.einsum("r,rck->ck", weights * play, tally)


@dataclass(frozen=True)
class StreetRules:
    """One street's rules: the classes to bet with (as text), and how they fare against the
    exact strategy."""

    street: str  # "flop" (the Turn bet) or "turn" (the River bet)
    bet_with: list[str]
    agreement: float  # share of situations, by probability, where the rules do as exact play does
    ev_cost: float  # Antes lost per situation against exact play
    classes: int  # classes met
    bet_classes: int

    def to_dict(self) -> dict[str, Any]:
        return {"street": self.street, "bet_with": self.bet_with, "agreement": self.agreement, "ev_cost": self.ev_cost,
                "classes": self.classes, "bet_classes": self.bet_classes}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> StreetRules:
        return cls(d["street"], list(d["bet_with"]), d["agreement"], d["ev_cost"], d["classes"], d["bet_classes"])

    def sentence(self) -> str:
        bet = "Turn" if self.street == "flop" else "River"
        return f"{self.street}: bet the {bet} (1x) with " + "; ".join(self.bet_with) + "; else check"


def derive(street: str, tally: np.ndarray, unit: int) -> StreetRules:
    """The rules from a street's ``tally_cells`` (gains in 1/``unit`` Antes)."""
    total = int(tally[:, 0].sum())
    bets = tally[:, 2] > tally[:, 3]
    agree = int(np.where(bets, tally[:, 1], tally[:, 0] - tally[:, 1]).sum())
    cost = int(np.where(bets, tally[:, 3], tally[:, 2]).sum())
    met = tally[:, 0] > 0
    return StreetRules(street, describe(bets, met), agree / total, cost / total / unit, int(met.sum()), int((bets & met).sum()))


def describe(bets: np.ndarray, met: np.ndarray) -> list[str]:
    """The classes bet with as phrases, merged where a whole group bets alike."""
    grid = bets.reshape(len(MADE), len(DRAWS), len(OVERS))
    seen = met.reshape(grid.shape)
    phrases = []
    for m, made in enumerate(MADE):
        if not (grid[m] | ~seen[m]).any() or not (grid[m] & seen[m]).any():
            continue
        if (grid[m] | ~seen[m]).all():
            phrases.append(made)
            continue
        for d, draw in enumerate(DRAWS):
            row_bets, row_seen = grid[m, d], seen[m, d]
            if not (row_bets & row_seen).any():
                continue
            what = _what(m, d)
            if (row_bets | ~row_seen).all():
                phrases.append(what)
            else:
                overs = " or ".join(OVERS[o] for o in range(len(OVERS)) if row_bets[o] and row_seen[o])
                phrases.append(f"{what}, with {overs}")
    return phrases


def _what(m: int, d: int) -> str:
    if m == len(MADE) - 1:
        return "no pair of one's own and no draw" if d == 0 else DRAWS[d]
    return f"{MADE[m]} and {DRAWS[d]}"


def classify(hole: Sequence[int], board: Sequence[int]) -> tuple[str, str, str]:
    """The class of dealt cards as (made, draw, overcards) text."""
    from tablectl.rules.hand7 import best_five

    cards = [*hole, *board]
    category = best_five(cards) >> 20 if len(cards) >= 5 else 0
    cell = cell_of(int(hole[0]), int(hole[1]), np.array(board, dtype=np.int64), len(board), category)
    return MADE[cell // 15], DRAWS[cell // 3 % 5], OVERS[cell % 3]


def rule_bets(rules: StreetRules, hole: Sequence[int], board: Sequence[int]) -> bool:
    """Whether ``rules`` bet with these cards (read from the rules' own text, as a person would)."""
    made, draw, overs = classify(hole, board)
    what = _what(MADE.index(made), DRAWS.index(draw))
    for phrase in rules.bet_with:
        head, _, tail = phrase.partition(", with ")
        if phrase in (made, what) or (head == what and overs in tail.split(" or ")):
            return True
    return False


__all__ = ["CELLS", "DRAWS", "MADE", "OVERS", "StreetRules", "cell_of", "classify", "derive", "describe", "rule_bets",
           "tally_cells", "weigh"]
