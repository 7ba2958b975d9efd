"""Exact values of Texas Hold'em Bonus decisions after the flop (Turn bet or check) and after the
turn (River bet or check), from what the player saw.

Every board completion (the river card; after the flop, each turn and river card in order) is
dealt from the unseen cards, and against each the dealer's unknown hole cards (weighted, like the
other games, by the orders of dealing that agree with an edge sort's marks). Hands are valued by
the lookup tables built from the rules engine's evaluator (``holdem_tables``), in a compiled
loop; each outcome class (win by a hand of a given category, loss, tie) is settled by the rules'
``texas_holdem_bonus.main_payouts``. After the flop the River bet is chosen optimally, knowing the
turn card. Values are per Ante, over the Ante, Flop, Turn and River bets (the Bonus is a separate
wager and is left out).

The pre-flop decision (Flop bet or fold) needs the whole game tree below it (the full analysis
takes minutes, ``holdem_strategy``): it is valued only without hidden information and only where
that analysis is cached on the machine (from its stored per-hand value, a float); otherwise its
values are None (not valued).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import factorial, lcm

import numpy as np
from numba import njit

from tablectl.gamemath.decisions.sight import HIGH, LOW, DecisionValues, Sight
from tablectl.gamemath.holdem.main import board_plus_two
from tablectl.gamemath.holdem.tables import RANK_KEY, flush, ranks
from tablectl.rules import texas_holdem_bonus as thb
from tablectl.rules.hand7 import pack5
from tablectl.rules.houserules import TexasHoldemBonusRules
from tablectl.rules.payout import FOLD

CATEGORIES = 10  # the rules engine's hand categories (value >> 20)


@njit(cache=True)
def board_counts(boards: np.ndarray, own: np.ndarray, known: np.ndarray, free: np.ndarray, want_high: int,
                 want_low: int, rest: int, key: np.ndarray, rank7: np.ndarray, flush_table: np.ndarray,
                 out: np.ndarray) -> None:
    """For each 5-card board (row of ``boards``): the player's value and the weighted dealer deals
    it beats, ties and loses to. ``known``: dealer cards known; ``free``: the cards the dealer's
    unknown ones may be (unseen, board excluded per row); ``out[i]`` = (value, won, tied, lost)."""
    masks = np.zeros(4, dtype=np.int64)
    m = 2 - known.shape[0]
    for i in range(boards.shape[0]):
        base = 0
        masks[:] = 0
        for j in range(5):
            c = boards[i, j]
            base += key[c >> 2]
            masks[c & 3] |= 1 << (c >> 2)
        pv = board_plus_two(base, masks, own[0], own[1], rank7, flush_table, key)
        won = tied = lost = 0
        if m == 0:
            dv = board_plus_two(base, masks, known[0], known[1], rank7, flush_table, key)
            won, tied, lost = int(pv > dv), int(pv == dv), int(pv < dv)
        else:
            for x in range(free.shape[0]):
                a = free[x]
                if a == boards[i, 0] or a == boards[i, 1] or a == boards[i, 2] or a == boards[i, 3] or a == boards[i, 4]:
                    continue
                if m == 1:
                    h = 1 if (a >> 2) >= 10 else 0
                    w = (h if want_high else 1) * ((1 - h) if want_low else 1)
                    if w == 0:
                        continue
                    dv = board_plus_two(base, masks, known[0], a, rank7, flush_table, key)
                    if pv > dv:
                        won += w
                    elif pv == dv:
                        tied += w
                    else:
                        lost += w
                    continue
                for y in range(x + 1, free.shape[0]):
                    b = free[y]
                    if b == boards[i, 0] or b == boards[i, 1] or b == boards[i, 2] or b == boards[i, 3] or b == boards[i, 4]:
                        continue
                    h = (1 if (a >> 2) >= 10 else 0) + (1 if (b >> 2) >= 10 else 0)
                    lo = 2 - h
                    w = rest
                    for k in range(want_high):
                        w *= h - k
                    for k in range(want_low):
                        w *= lo - k
                    if w <= 0:
                        continue
                    dv = board_plus_two(base, masks, a, b, rank7, flush_table, key)
                    if pv > dv:
                        won += w
                    elif pv == dv:
                        tied += w
                    else:
                        lost += w
        out[i, 0] = pv
        out[i, 1] = won
        out[i, 2] = tied
        out[i, 3] = lost


@cache
def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return RANK_KEY, ranks(7), flush()


@cache
def _net(sign: int, category: int, decisions: tuple[str, ...], ante_pays_from: str) -> Fraction:
    """Net per Ante of the main bets for a hand of ``category`` that wins (1), ties (0) or loses (-1)."""
    player = pack5(category) + 1  # only the comparison and the category matter to main_payouts
    payouts = thb.main_payouts(player, player - sign, decisions, TexasHoldemBonusRules(ante_pays_from=ante_pays_from))
    return sum((p.odds * thb.MULTIPLE[bet] for bet, p in payouts), Fraction(0))


@cache
def _nets(options: tuple[str, ...], made: tuple[str, ...], river_decision: bool,
          variant: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The options' nets per Ante as integers over one denominator: wins [option, river bet,
    category], ties and losses [option, river bet]; and the denominator."""
    bets = (0,) if river_decision else (0, 1)
    decisions = [[made + ((o,) if o != thb.CHECK else ()) + ((thb.RIVER,) if b else ()) for b in bets] for o in options]
    win = [[[_net(1, c, d, variant) for c in range(CATEGORIES)] for d in row] for row in decisions]
    tie = [[_net(0, 0, d, variant) for d in row] for row in decisions]
    loss = [[_net(-1, 0, d, variant) for d in row] for row in decisions]
    every = [f for row in win for cell in row for f in cell] + [f for row in tie + loss for f in row]
    den = lcm(*(f.denominator for f in every))

    def as_int(x: list) -> np.ndarray:  # type: ignore[type-arg]
        scaled = np.array(x, dtype=object) * den
        return np.array([int(f) for f in scaled.ravel()], dtype=np.int64).reshape(scaled.shape)

    return as_int(win), as_int(tie), as_int(loss), den


def _board_nets(rows: np.ndarray, nets: tuple[np.ndarray, np.ndarray, np.ndarray, int], option: int,
                river: int) -> np.ndarray:
    """Each board's net (rows of :func:`_counts`) for the option at ``option`` and the River bet
    ``river`` (0: none; 1: made), in units of the nets' denominator: exact integers."""
    win, tie, loss, _ = nets
    won = rows[:, 1] * win[option, river, rows[:, 0] >> 20]
    return won + rows[:, 2] * tie[option, river] + rows[:, 3] * loss[option, river]


def _counts(sight: Sight, boards: np.ndarray) -> np.ndarray:
    known = np.array([c for c in sight.dealer if isinstance(c, int)], dtype=np.int64)
    marks = [c for c in sight.dealer if isinstance(c, str)]
    seen = set(sight.seen())
    free = np.array([c for c in range(52) if c not in seen], dtype=np.int64)
    unmarked = 2 - len(known) - len(marks)
    out = np.zeros((len(boards), 4), dtype=np.int64)
    key, rank7, flush_table = _tables()
    board_counts(boards, np.array(sight.own, dtype=np.int64), known, free, marks.count(HIGH), marks.count(LOW),
                 factorial(unmarked), key, rank7, flush_table, out)
    return out


def values(options: tuple[str, ...], sight: Sight, rules: TexasHoldemBonusRules) -> DecisionValues:
    """Each option's value per Ante: ``options`` (flop, fold), (turn, check) or (river, check)."""
    variant = rules.ante_pays_from
    if thb.FLOP in options:
        return _preflop(options, sight, variant)
    seen = set(sight.seen())
    unseen = [c for c in range(52) if c not in seen]
    board = list(sight.board)
    made = tuple(d for d in sight.made if d != thb.CHECK)
    if len(board) == 4:  # River bet or check
        rows = _counts(sight, np.array([board + [x] for x in unseen], dtype=np.int64))
        n = int(rows[:, 1:].sum())
        nets = _nets(options, made, True, variant)
        return DecisionValues({o: Fraction(int(_board_nets(rows, nets, i, 0).sum()), nets[3] * n)
                               for i, o in enumerate(options)})
    if len(board) != 3:
        raise ValueError(f"a Turn decision needs 3 board cards, got {len(board)}")
    first, second = np.triu_indices(len(unseen), 1)  # every pair of the cards to come, each board once
    cards = np.array(unseen, dtype=np.int64)
    boards = np.concatenate([np.tile(np.array(board, dtype=np.int64), (len(first), 1)), cards[first, None],
                             cards[second, None]], axis=1)
    rows = _counts(sight, boards)
    n = 2 * int(rows[:, 1:].sum())  # each board comes from two orders: x turn, y river and back
    nets = _nets(options, made, False, variant)
    out: dict[str, Fraction | None] = {}
    for i, o in enumerate(options):
        per_turn = np.zeros((2, len(unseen)), dtype=np.int64)  # per River bet (none, made) and turn card
        for river in (0, 1):  # each board's net, added to both of its cards' (either may be the turn)
            net = _board_nets(rows, nets, i, river)
            np.add.at(per_turn[river], first, net)
            np.add.at(per_turn[river], second, net)
        out[o] = Fraction(int(per_turn.max(axis=0).sum()), nets[3] * n)  # the River bet chosen per turn card
    return DecisionValues(out)


def _preflop(options: tuple[str, ...], sight: Sight, variant: str) -> DecisionValues:
    fold = Fraction(FOLD.odds)
    play = _cached_preflop(sight, variant)
    return DecisionValues({o: (fold if o == thb.FOLD_DECISION else play) for o in options})


def _cached_preflop(sight: Sight, variant: str) -> Fraction | None:
    if sight.dealer and any(c is not None for c in sight.dealer) or sight.others:
        return None
    from tablectl.gamemath.holdem.strategy import VARIANTS, cached

    reports = cached()
    if reports is None:
        return None
    names = "23456789TJQKA"
    hi, lo = sorted((c >> 2 for c in sight.own), reverse=True)
    label = names[hi] * 2 if hi == lo else names[hi] + names[lo] + ("s" if (sight.own[0] & 3) == (sight.own[1] & 3) else "o")
    for entry in reports[VARIANTS.index(variant)].preflop:
        if entry["hand"] == label:
            return Fraction(entry["ev"])
    return None


__all__ = ["board_counts", "values"]
