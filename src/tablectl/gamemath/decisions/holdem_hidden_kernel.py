"""The compiled counting behind ``holdem_hidden``: one walk over the dealer's possible hands of a
Texas Hold'em Bonus Turn or River decision, shared by every hidden-card hypothesis (pure, numba).

The cards the player has not seen are ``free`` (47 at the Turn decision, 46 at the River's); the
board still to come is a set ``R`` of ``r`` of them (2 or 1) and the dealer's hole cards a pair
``D`` of the rest. The dealer's seven cards are the known board plus ``R | D``, a set of ``r + 2``
free cards, so each such set is valued once (C(47, 4) = 178,365 at the Turn, not the 1,070,190
(board, dealer hand) deals) and compared with the player's value on each of its splits into
``R`` and ``D``. Each split adds to ``counts[R, high, outcome]`` (``high``: the dealer's high
cards, Q-K-A, for the edge sort; outcome 0 won, 1 tied, 2 lost). For each *named* card (a
dealer hole card or a partner's card a hypothesis names; put first among the free cards) the
counts of the dealer hands holding it go to ``special[s, R, outcome]``: in the same walk at the
Turn decision, in a walk of its own at the River's (:func:`count_named`: C(45, 2) pairs).
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
def _outcome(player: int, dealer: int) -> int:
    """0: the player wins, 1: a tie, 2: the dealer wins (branch-free)."""
    return (1 if player <= dealer else 0) + (1 if player < dealer else 0)


@njit(cache=True)
def _flushes(m: np.ndarray, flush_table: np.ndarray, other: np.ndarray) -> None:
    """``other[s]``: the best flush of six cards (ranks per suit ``m``) outside suit s (0: none)."""
    for s in range(4):
        f = 0
        for t in range(4):
            if t != s and flush_table[m[t]] > f:
                f = flush_table[m[t]]
        other[s] = f


@njit(cache=True)
def _row(won: np.ndarray, tied: np.ndarray, pv: np.ndarray, v: np.ndarray, start: int) -> None:
    """Boards (i, j) for j >= ``start`` against dealer values ``v[j]``: won and tied added (one
    contiguous, vectorisable pass)."""
    for j in range(start, v.shape[0]):
        won[j] += pv[j] > v[j]
        tied[j] += pv[j] == v[j]


@njit(cache=True)
def count_turn(free: np.ndarray, named: int, board_base: int, board_masks: np.ndarray, pv: np.ndarray, hi: np.ndarray,
               key: np.ndarray, rank7: np.ndarray, flush_table: np.ndarray, won: np.ndarray, tied: np.ndarray,
               named_won: np.ndarray, named_tied: np.ndarray) -> None:
    """Every 4-set of free cards (board: the flop) valued once and split six ways (module doc):
    for the boards at positions i < j, ``won[i, high, j]`` and ``tied[i, high, j]`` by the dealer
    hand's high cards, and ``named_won[s, i, j]``, ``named_tied[s, i, j]`` for the dealer hands
    holding the card at position s (the first ``named`` positions).

    For each first three cards (i0 < i1 < i2) the fourth card's values ``v`` are found first;
    the three boards without it sum their wins and ties over ``v`` and the three boards with it
    are rows of ``v`` compared with a row of ``pv`` (contiguous passes the compiler vectorises)."""
    n = free.shape[0]
    m1 = np.empty(4, dtype=np.int64)
    m2 = np.empty(4, dtype=np.int64)
    m3 = np.empty(4, dtype=np.int64)
    other = np.empty(4, dtype=np.int64)
    v = np.zeros(n, dtype=pv.dtype)
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
                _flushes(m3, flush_table, other)
                start = i2 + 1
                for i3 in range(start, n):
                    d = free[i3]
                    s = d & 3
                    x = rank7[b3 + key[d >> 2]]
                    f = flush_table[m3[s] | (1 << (d >> 2))]
                    if f > x:
                        x = f
                    if other[s] > x:
                        x = other[s]
                    v[i3] = x
                p01, p02, p12 = pv[i0, i1], pv[i0, i2], pv[i1, i2]
                # boards (i0,i1), (i0,i2), (i1,i2) against dealers (i2|i1|i0, i3): all, and high i3
                w01 = w01h = t01 = t01h = w02 = w02h = t02 = t02h = w12 = w12h = t12 = t12h = 0
                for i3 in range(start, n):
                    x, h = v[i3], hi[i3]
                    y, z = (1 if p01 > x else 0), (1 if p01 == x else 0)
                    w01, w01h, t01, t01h = w01 + y, w01h + y * h, t01 + z, t01h + z * h
                    y, z = (1 if p02 > x else 0), (1 if p02 == x else 0)
                    w02, w02h, t02, t02h = w02 + y, w02h + y * h, t02 + z, t02h + z * h
                    y, z = (1 if p12 > x else 0), (1 if p12 == x else 0)
                    w12, w12h, t12, t12h = w12 + y, w12h + y * h, t12 + z, t12h + z * h
                h0, h1, h2 = hi[i0], hi[i1], hi[i2]
                won[i0, h2, i1] += w01 - w01h
                won[i0, h2 + 1, i1] += w01h
                tied[i0, h2, i1] += t01 - t01h
                tied[i0, h2 + 1, i1] += t01h
                won[i0, h1, i2] += w02 - w02h
                won[i0, h1 + 1, i2] += w02h
                tied[i0, h1, i2] += t02 - t02h
                tied[i0, h1 + 1, i2] += t02h
                won[i1, h0, i2] += w12 - w12h
                won[i1, h0 + 1, i2] += w12h
                tied[i1, h0, i2] += t12 - t12h
                tied[i1, h0 + 1, i2] += t12h
                # boards (i0,i3), (i1,i3), (i2,i3) against dealers (i1,i2), (i0,i2), (i0,i1)
                wa, ta, pa = won[i0, h1 + h2], tied[i0, h1 + h2], pv[i0]
                wb, tb, pb = won[i1, h0 + h2], tied[i1, h0 + h2], pv[i1]
                wc, tc, pc = won[i2, h0 + h1], tied[i2, h0 + h1], pv[i2]
                for i3 in range(start, n):
                    x = v[i3]
                    wa[i3] += pa[i3] > x
                    ta[i3] += pa[i3] == x
                    wb[i3] += pb[i3] > x
                    tb[i3] += pb[i3] == x
                    wc[i3] += pc[i3] > x
                    tc[i3] += pc[i3] == x
                if i0 >= named:
                    continue
                named_won[i0, i1, i2] += w12  # dealer (i0, i3)
                named_tied[i0, i1, i2] += t12
                _row(named_won[i0, i1], named_tied[i0, i1], pv[i1], v, start)  # dealer (i0, i2)
                _row(named_won[i0, i2], named_tied[i0, i2], pv[i2], v, start)  # dealer (i0, i1)
                if i1 >= named:
                    continue
                named_won[i1, i0, i2] += w02  # dealer (i1, i3)
                named_tied[i1, i0, i2] += t02
                _row(named_won[i1, i0], named_tied[i1, i0], pv[i0], v, start)  # dealer (i1, i2)
                _row(named_won[i1, i2], named_tied[i1, i2], pv[i2], v, start)  # dealer (i0, i1)
                if i2 >= named:
                    continue
                named_won[i2, i0, i1] += w01  # dealer (i2, i3)
                named_tied[i2, i0, i1] += t01
                _row(named_won[i2, i0], named_tied[i2, i0], pv[i0], v, start)  # dealer (i1, i2)
                _row(named_won[i2, i1], named_tied[i2, i1], pv[i1], v, start)  # dealer (i0, i2)
                for i3 in range(start, named):  # the fourth card named too: dealers (i3, i2|i1|i0)
                    x = v[i3]
                    named_won[i3, i0, i1] += p01 > x
                    named_tied[i3, i0, i1] += p01 == x
                    named_won[i3, i0, i2] += p02 > x
                    named_tied[i3, i0, i2] += p02 == x
                    named_won[i3, i1, i2] += p12 > x
                    named_tied[i3, i1, i2] += p12 == x


@njit(cache=True)
def turn_counts(hi: np.ndarray, won: np.ndarray, tied: np.ndarray, named_won: np.ndarray, named_tied: np.ndarray,
                counts: np.ndarray, special: np.ndarray) -> None:
    """:func:`count_turn`'s wins and ties as ``counts[i, j, high, o]`` and ``special[s, i, j, o]``
    (o: won, tied, lost), the losses from how many dealer hands each board leaves."""
    n = hi.shape[0]
    highs = 0
    for i in range(n):
        highs += hi[i]
    for i in range(n):
        for j in range(i + 1, n):
            hh = highs - hi[i] - hi[j]
            ll = n - 2 - hh
            dealt = (ll * (ll - 1) // 2, hh * ll, hh * (hh - 1) // 2)
            for h in range(3):
                counts[i, j, h, 0] = won[i, h, j]
                counts[i, j, h, 1] = tied[i, h, j]
                counts[i, j, h, 2] = dealt[h] - won[i, h, j] - tied[i, h, j]
            for s in range(special.shape[0]):
                if s == i or s == j:
                    continue
                special[s, i, j, 0] = named_won[s, i, j]
                special[s, i, j, 1] = named_tied[s, i, j]
                special[s, i, j, 2] = n - 3 - named_won[s, i, j] - named_tied[s, i, j]


@njit(cache=True)
def count_river(free: np.ndarray, board_base: int, board_masks: np.ndarray, pv: np.ndarray, hi: np.ndarray,
                key: np.ndarray, rank7: np.ndarray, flush_table: np.ndarray, counts: np.ndarray) -> None:
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
                o0, o1, o2 = _outcome(pv[i0, 0], v), _outcome(pv[i1, 0], v), _outcome(pv[i2, 0], v)
                counts[i0, 0, hi[i1] + hi[i2], o0] += 1
                counts[i1, 0, hi[i0] + hi[i2], o1] += 1
                counts[i2, 0, hi[i0] + hi[i1], o2] += 1


@njit(cache=True)
def count_named(free: np.ndarray, p: int, board_base: int, board_masks: np.ndarray, pv: np.ndarray, key: np.ndarray,
                rank7: np.ndarray, flush_table: np.ndarray, special: np.ndarray) -> None:
    """At the River decision: ``special[i, 0, o]``, the dealer hands holding the free card at
    position ``p`` against each river card i, from one walk over the pairs of other free cards
    (the river card and the dealer's other card, either way)."""
    n = free.shape[0]
    c = free[p]
    m0 = board_masks.copy()
    m0[c & 3] |= 1 << (c >> 2)
    base = board_base + key[c >> 2]
    m2 = np.empty(4, dtype=np.int64)
    for i0 in range(n):
        if i0 == p:
            continue
        a = free[i0]
        for i1 in range(i0 + 1, n):
            if i1 == p:
                continue
            b = free[i1]
            m2[:] = m0
            m2[a & 3] |= 1 << (a >> 2)
            m2[b & 3] |= 1 << (b >> 2)
            v = _value(base + key[a >> 2] + key[b >> 2], m2, rank7, flush_table)
            special[i0, 0, _outcome(pv[i0, 0], v)] += 1
            special[i1, 0, _outcome(pv[i1, 0], v)] += 1


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
            out[i, j, _outcome(pv[i, j], v)] += 1


@njit(cache=True)
def totals(r: int, pv: np.ndarray, rows: np.ndarray, net_win: np.ndarray, net_tie: np.ndarray, net_loss: np.ndarray,
           out: np.ndarray) -> int:
    """Each option's total (``out[option]``, in the nets' integer units) over the boards weighted
    by ``rows[i, j, o]`` (won, tied, lost), the River bet chosen best per turn card at the Turn
    decision (r = 2); returns the weight they are totals over (each board counted from both its
    orders at the Turn, as the turn card and the river card). Nets are indexed [option, river
    bet (0: check, 1: bet; one entry at the River decision), category] (wins) or [option, river bet]."""
    n = pv.shape[0]
    options, bets = net_tie.shape[0], net_tie.shape[1]
    acc = np.zeros((n, options, bets), dtype=np.int64)  # by turn card (the River decision: by river card)
    weight = 0
    for i in range(n):
        for j in range(i + 1 if r == 2 else 0, n if r == 2 else 1):
            w, t, lo = rows[i, j, 0], rows[i, j, 1], rows[i, j, 2]
            if w == 0 and t == 0 and lo == 0:
                continue
            weight += w + t + lo
            category = pv[i, j] >> 20
            for k in range(options):
                for bet in range(bets):
                    net = w * net_win[k, bet, category] + t * net_tie[k, bet] + lo * net_loss[k, bet]
                    acc[i, k, bet] += net
                    if r == 2:
                        acc[j, k, bet] += net
    for k in range(options):
        s = 0
        for x in range(n):
            best = acc[x, k, 0]
            for bet in range(1, bets):
                if acc[x, k, bet] > best:
                    best = acc[x, k, bet]
            s += best
        out[k] = s
    return 2 * weight if r == 2 else weight


OWN, HOLE, EDGE, TEAM = 0, 1, 2, 3  # the kinds of hypothesis ``hypothesis_totals`` takes


@njit(cache=True)
def hypothesis_totals(r: int, free: np.ndarray, board_base: int, board_masks: np.ndarray, pv: np.ndarray,
                      counts: np.ndarray, special: np.ndarray, kind: np.ndarray, seen: np.ndarray, weights: np.ndarray,
                      key: np.ndarray, rank7: np.ndarray, flush_table: np.ndarray, net_win: np.ndarray,
                      net_tie: np.ndarray, net_loss: np.ndarray, out: np.ndarray, total_weight: np.ndarray) -> None:
    """For hypothesis h of ``kind[h]``: the boards' counts (OWN: every dealer hand; EDGE: by
    ``weights[h, high]``; HOLE: those holding the card at position ``seen[h, 0]``; TEAM: every
    one less those holding a card at positions ``seen[h]`` (-1 ends them), by inclusion and
    exclusion, boards holding them left out), then :func:`totals` into ``out[h]`` and
    ``total_weight[h]``."""
    n, width = pv.shape[0], pv.shape[1]
    rows = np.empty((n, width, 3), dtype=np.int64)
    for h in range(kind.shape[0]):
        k = kind[h]
        if k == HOLE:
            rows[:] = special[seen[h, 0]]
        else:
            for i in range(n):
                for j in range(width):
                    for o in range(3):
                        if k == EDGE:
                            rows[i, j, o] = (weights[h, 0] * counts[i, j, 0, o] + weights[h, 1] * counts[i, j, 1, o]
                                             + weights[h, 2] * counts[i, j, 2, o])
                        else:
                            rows[i, j, o] = counts[i, j, 0, o] + counts[i, j, 1, o] + counts[i, j, 2, o]
        if k == TEAM:
            m = 0
            while m < seen.shape[1] and seen[h, m] >= 0:
                rows -= special[seen[h, m]]
                m += 1
            for x in range(m):
                for y in range(x + 1, m):
                    a, b = min(seen[h, x], seen[h, y]), max(seen[h, x], seen[h, y])
                    pair_outcomes(free, r, board_base, board_masks, pv, a, b, key, rank7, flush_table, rows)
            for x in range(m):  # boards holding a partner's card cannot come
                p = seen[h, x]
                rows[p, :, :] = 0
                if r == 2:
                    rows[:, p, :] = 0
        total_weight[h] = totals(r, pv, rows, net_win, net_tie, net_loss, out[h])


__all__ = ["EDGE", "HOLE", "OWN", "TEAM", "count_named", "count_river", "count_turn", "hypothesis_totals", "pair_outcomes",
           "player_values", "totals", "turn_counts"]
