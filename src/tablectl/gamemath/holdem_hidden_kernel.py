"""The compiled counting behind ``holdem_hidden``: one walk over the dealer's possible hands of a
Texas Hold'em Bonus Turn or River decision, shared by every hidden-card hypothesis (pure, numba).

The cards the player has not seen are ``free`` (47 at the Turn decision, 46 at the River's); the
board still to come is a set ``R`` of ``r`` of them (2 or 1) and the dealer's hole cards a pair
``D`` of the rest. The dealer's seven cards are the known board plus ``R | D``, a set of ``r + 2``
free cards, so each such set is valued once (C(47, 4) = 178,365 at the Turn, not the 1,070,190
(board, dealer hand) deals) and compared with the player's value on each of its splits into
``R`` and ``D``. Each split adds to ``counts[R, high, outcome]`` (``high``: the dealer's high
cards, Q-K-A, for the edge sort; outcome 0 won, 1 tied, 2 lost) and, for each *special* card in
``D`` (a dealer hole card or a partner's card a hypothesis names), to ``special[s, R, outcome]``:
what a dealer hand holding that card does against ``R``.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _value(base: int, m: np.ndarray, rank7: np.ndarray, flush_table: np.ndarray) -> int:
    """The best-five value of seven cards: rank-key sum ``base``, ranks per suit ``m`` (flush
    table entries are 0 below five cards, so a max suffices)."""
    v = rank7[base]
    for s in range(4):
        f = flush_table[m[s]]
        if f > v:
            v = f
    return v


@njit(cache=True)
def player_values(free: np.ndarray, r: int, own_base: int, own_masks: np.ndarray, key: np.ndarray,
                  rank7: np.ndarray, flush_table: np.ndarray, pv: np.ndarray) -> None:
    """``pv[i, j]`` (r = 2, i < j, both ways) or ``pv[i, 0]`` (r = 1): the player's value with
    the free cards at those positions completing the board (``own_base``/``own_masks``: the
    player's two cards and the known board)."""
    n = free.shape[0]
    m = np.empty(4, dtype=np.int64)
    for i in range(n):
        a = free[i]
        if r == 1:
            m[:] = own_masks
            m[a & 3] |= 1 << (a >> 2)
            pv[i, 0] = _value(own_base + key[a >> 2], m, rank7, flush_table)
            continue
        for j in range(i + 1, n):
            b = free[j]
            m[:] = own_masks
            m[a & 3] |= 1 << (a >> 2)
            m[b & 3] |= 1 << (b >> 2)
            v = _value(own_base + key[a >> 2] + key[b >> 2], m, rank7, flush_table)
            pv[i, j] = v
            pv[j, i] = v


@njit(cache=True)
def _split(pr: int, v: int, ri: int, rj: int, c: int, d: int, hi: np.ndarray, sid: np.ndarray,
           counts: np.ndarray, special: np.ndarray) -> None:
    """One split: the board ``R`` = positions (ri, rj) worth ``pr`` to the player, the dealer's
    hand the positions (c, d) worth ``v``."""
    o = (1 if pr <= v else 0) + (1 if pr < v else 0)
    counts[ri, rj, hi[c] + hi[d], o] += 1
    special[sid[c], ri, rj, o] += 1
    special[sid[d], ri, rj, o] += 1


@njit(cache=True)
def count_turn(free: np.ndarray, board_base: int, board_masks: np.ndarray, pv: np.ndarray, hi: np.ndarray,
               sid: np.ndarray, key: np.ndarray, rank7: np.ndarray, flush_table: np.ndarray, counts: np.ndarray,
               special: np.ndarray) -> None:
    """Every 4-set of free cards (board: the flop) valued once and split six ways (module doc);
    ``counts[i, j, high, o]`` and ``special[s, i, j, o]`` for the board positions i < j."""
    n = free.shape[0]
    m1 = np.empty(4, dtype=np.int64)
    m2 = np.empty(4, dtype=np.int64)
    m3 = np.empty(4, dtype=np.int64)
    m4 = np.empty(4, dtype=np.int64)
    for i0 in range(n):
        a = free[i0]
        m1[:] = board_masks
        m1[a & 3] |= 1 << (a >> 2)
        b1 = board_base + key[a >> 2]
        for i1 in range(i0 + 1, n):
            b = free[i1]
            m2[:] = m1
            m2[b & 3] |= 1 << (b >> 2)
            b2 = b1 + key[b >> 2]
            for i2 in range(i1 + 1, n):
                c = free[i2]
                m3[:] = m2
                m3[c & 3] |= 1 << (c >> 2)
                b3 = b2 + key[c >> 2]
                p01, p02, p12 = pv[i0, i1], pv[i0, i2], pv[i1, i2]
                for i3 in range(i2 + 1, n):
                    d = free[i3]
                    m4[:] = m3
                    m4[d & 3] |= 1 << (d >> 2)
                    v = _value(b3 + key[d >> 2], m4, rank7, flush_table)
                    _split(p01, v, i0, i1, i2, i3, hi, sid, counts, special)
                    _split(p02, v, i0, i2, i1, i3, hi, sid, counts, special)
                    _split(pv[i0, i3], v, i0, i3, i1, i2, hi, sid, counts, special)
                    _split(p12, v, i1, i2, i0, i3, hi, sid, counts, special)
                    _split(pv[i1, i3], v, i1, i3, i0, i2, hi, sid, counts, special)
                    _split(pv[i2, i3], v, i2, i3, i0, i1, hi, sid, counts, special)


@njit(cache=True)
def count_river(free: np.ndarray, board_base: int, board_masks: np.ndarray, pv: np.ndarray, hi: np.ndarray,
                sid: np.ndarray, key: np.ndarray, rank7: np.ndarray, flush_table: np.ndarray, counts: np.ndarray,
                special: np.ndarray) -> None:
    """Every 3-set of free cards (board: four cards) valued once and split three ways; the river
    card's position is the first board index (the second is 0)."""
    n = free.shape[0]
    m1 = np.empty(4, dtype=np.int64)
    m2 = np.empty(4, dtype=np.int64)
    m3 = np.empty(4, dtype=np.int64)
    for i0 in range(n):
        a = free[i0]
        m1[:] = board_masks
        m1[a & 3] |= 1 << (a >> 2)
        b1 = board_base + key[a >> 2]
        for i1 in range(i0 + 1, n):
            b = free[i1]
            m2[:] = m1
            m2[b & 3] |= 1 << (b >> 2)
            b2 = b1 + key[b >> 2]
            for i2 in range(i1 + 1, n):
                c = free[i2]
                m3[:] = m2
                m3[c & 3] |= 1 << (c >> 2)
                v = _value(b2 + key[c >> 2], m3, rank7, flush_table)
                _split(pv[i0, 0], v, i0, 0, i1, i2, hi, sid, counts, special)
                _split(pv[i1, 0], v, i1, 0, i0, i2, hi, sid, counts, special)
                _split(pv[i2, 0], v, i2, 0, i0, i1, hi, sid, counts, special)


@njit(cache=True)
def pair_outcomes(free: np.ndarray, r: int, board_base: int, board_masks: np.ndarray, pv: np.ndarray, x: int, y: int,
                  key: np.ndarray, rank7: np.ndarray, flush_table: np.ndarray, out: np.ndarray) -> None:
    """``out[i, j, o]`` = 1 for the outcome of the dealer holding the free cards at positions
    ``x`` and ``y`` against each board (positions i < j, or i and 0), 0 elsewhere."""
    n = free.shape[0]
    m = np.empty(4, dtype=np.int64)
    cx, cy = free[x], free[y]
    base = board_base + key[cx >> 2] + key[cy >> 2]
    for i in range(n):
        if i == x or i == y:
            continue
        a = free[i]
        for j in range(i + 1 if r == 2 else 0, n if r == 2 else 1):
            if r == 2 and (j == x or j == y):
                continue
            m[:] = board_masks
            m[cx & 3] |= 1 << (cx >> 2)
            m[cy & 3] |= 1 << (cy >> 2)
            m[a & 3] |= 1 << (a >> 2)
            total = base + key[a >> 2]
            if r == 2:
                b = free[j]
                m[b & 3] |= 1 << (b >> 2)
                total += key[b >> 2]
            v = _value(total, m, rank7, flush_table)
            pr = pv[i, j]
            out[i, j, (1 if pr <= v else 0) + (1 if pr < v else 0)] += 1


@njit(cache=True)
def totals(r: int, pv: np.ndarray, rows: np.ndarray, net_win: np.ndarray, net_tie: np.ndarray, net_loss: np.ndarray,
           out: np.ndarray) -> int:
    """Each option's total (``out[option]``, in the nets' integer units) over the boards weighted
    by ``rows[i, j, o]`` (won, tied, lost), the River bet chosen best per turn card at the Turn
    decision (r = 2); returns the weight they are totals over (each board counted from both its
    orders at the Turn, as the turn card and the river card). Nets are indexed [option, river
    bet (0: check, 1: bet; one entry at the River decision), category] (wins) or [option, river bet]."""
    n = pv.shape[0]
    weight = 0
    for i in range(n):
        for j in range(i + 1 if r == 2 else 0, n if r == 2 else 1):
            weight += rows[i, j, 0] + rows[i, j, 1] + rows[i, j, 2]
    if r == 1:
        for k in range(net_tie.shape[0]):
            s = 0
            for i in range(n):
                w, t, lo = rows[i, 0, 0], rows[i, 0, 1], rows[i, 0, 2]
                s += w * net_win[k, 0, pv[i, 0] >> 20] + t * net_tie[k, 0] + lo * net_loss[k, 0]
            out[k] = s
        return weight
    for k in range(net_tie.shape[0]):
        s = 0
        for x in range(n):
            best = 0
            for bet in range(net_tie.shape[1]):
                acc = 0
                for y in range(n):
                    if y == x:
                        continue
                    i, j = (x, y) if x < y else (y, x)
                    w, t, lo = rows[i, j, 0], rows[i, j, 1], rows[i, j, 2]
                    acc += w * net_win[k, bet, pv[i, j] >> 20] + t * net_tie[k, bet] + lo * net_loss[k, bet]
                if bet == 0 or acc > best:
                    best = acc
            s += best
        out[k] = s
    return 2 * weight


__all__ = ["count_river", "count_turn", "pair_outcomes", "player_values", "totals"]
