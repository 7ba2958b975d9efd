"""Texas Hold'em Bonus with the dealer's hole cards seen: the exact count for one pair of hands
(both seen) or one player hand and seen dealer card (one seen); numba, pure computation, no I/O.

Every 5-card board of the cards left is settled, player against dealer (best five of seven, the
rules engine's values from ``holdem_tables``), and the result goes to the five turn nodes
(4 board cards) inside the board: dealer hands won ``W``, lost ``L`` and won with the Ante paid
``WQ``. Per Ante, a showdown pays ``s + 2 + t + r`` on a win (``s`` = 1 when the Ante pays), costs
``3 + t + r`` on a loss and pushes on a tie, for Turn bet ``t`` and River bet ``r`` (0 or 1). So
at a turn node, summed over its cases, ``X = WQ + 2W - 3L`` and ``Y = W - L``: the River bet is
made iff ``Y > 0`` and the node is worth ``X + tY + max(Y, 0)``; at a flop (3 cards) the Turn bet
is made iff the sum of its turn nodes' ``Y`` is positive; before the flop the player bets the
Flop iff the sum over the flops beats folding (-1 per case). Ties between choices go to the
smaller wager (``solve_tree``).

- Both dealer cards seen (``pair``): a turn node's cases are its rivers.
- One dealer card seen (``one_seen``): a turn node's cases are its (dealer's other card, river)
  pairs: per board, the dealer's hand is ranked for every card that may be his other one (by
  its rank, plus the flush its suit may make) and the board's wins, losses and paid wins over
  them are added; so the unseen card is averaged at each node before the tree is solved.

A *case* is a deal in dealing order: (the dealer's other card,) the flop as a set, the turn card,
the river card (20 per 5-card board). Every sum is an integer.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tablectl.gamemath.holdem.main import _popcount
from tablectl.gamemath.holdem.main import _turn_node as _sorted_node

# result slots of ``pair`` and ``one_seen``
NET, PLAYED, TURN_BETS, RIVER_BETS, CASES = range(5)
SLOTS = 5


def binomials(n: int) -> np.ndarray:
    """``C(i, k)`` for ``i <= n``, ``k <= 5``."""
    table = np.zeros((n + 1, 6), dtype=np.int64)
    for i in range(n + 1):
        table[i, 0] = 1
        for k in range(1, 6):
            table[i, k] = table[i - 1, k - 1] + table[i - 1, k] if i else 0
    return table


@njit(cache=True)
def _hand(base: int, m0: int, m1: int, m2: int, m3: int, a: int, b: int, rank7: np.ndarray,
          flush_table: np.ndarray, key: np.ndarray) -> int:
    """The best-five value of the board (rank-key sum ``base``, ranks per suit ``m0..m3``) plus
    the cards ``a`` and ``b``; as ``holdem_main.board_plus_two``, with the suit masks in registers."""
    v = rank7[base + key[a >> 2] + key[b >> 2]]
    for s in range(4):
        m = m0 if s == 0 else m1 if s == 1 else m2 if s == 2 else m3
        if (a & 3) == s:
            m |= 1 << (a >> 2)
        if (b & 3) == s:
            m |= 1 << (b >> 2)
        if _popcount(m) >= 5 and flush_table[m] > v:
            v = flush_table[m]
    return v


WON, LOST, PAID = 1, 1 << 16, 1 << 32
"""A turn node's counts packed in one int64: wins, losses and wins with the Ante paid (each < 2**16)."""


@njit(cache=True)
def walk_boards(deck: np.ndarray, cards: np.ndarray, k: int, player: np.ndarray, dealer: np.ndarray,
                threshold: int, key: np.ndarray, rank7: np.ndarray, flush_table: np.ndarray, binom: np.ndarray,
                counts: np.ndarray) -> None:
    """Every 5-card board of the positions ``cards[:k]`` (ascending): the player's hole cards
    ``player`` against the dealer's ``dealer`` (card ids), each result added to the board's five
    turn nodes in ``counts`` (packed: ``WON``, ``LOST``, ``PAID`` for a win whose category is at
    least ``threshold``)."""
    a0, a1 = player[0], player[1]
    e0, e1 = dealer[0], dealer[1]
    for i0 in range(k - 4):
        p0 = cards[i0]
        c = deck[p0]
        s0 = key[c >> 2]
        x0 = _add(0, 0, 0, 0, c)
        for i1 in range(i0 + 1, k - 3):
            p1 = cards[i1]
            c = deck[p1]
            s1 = s0 + key[c >> 2]
            x1 = _add(x0[0], x0[1], x0[2], x0[3], c)
            for i2 in range(i1 + 1, k - 2):
                p2 = cards[i2]
                c = deck[p2]
                s2 = s1 + key[c >> 2]
                x2 = _add(x1[0], x1[1], x1[2], x1[3], c)
                for i3 in range(i2 + 1, k - 1):
                    p3 = cards[i3]
                    c = deck[p3]
                    s3 = s2 + key[c >> 2]
                    x3 = _add(x2[0], x2[1], x2[2], x2[3], c)
                    n0123 = binom[p0, 1] + binom[p1, 2] + binom[p2, 3] + binom[p3, 4]
                    for i4 in range(i3 + 1, k):
                        p4 = cards[i4]
                        c = deck[p4]
                        base = s3 + key[c >> 2]
                        m0, m1, m2, m3 = _add(x3[0], x3[1], x3[2], x3[3], c)
                        pv = _hand(base, m0, m1, m2, m3, a0, a1, rank7, flush_table, key)
                        dv = _hand(base, m0, m1, m2, m3, e0, e1, rank7, flush_table, key)
                        if pv == dv:
                            continue
                        if pv > dv:
                            add = WON + (PAID if (pv >> 20) >= threshold else 0)
                        else:
                            add = LOST
                        b4 = binom[p4, 4]
                        counts[binom[p1, 1] + binom[p2, 2] + binom[p3, 3] + b4] += add
                        counts[binom[p0, 1] + binom[p2, 2] + binom[p3, 3] + b4] += add
                        counts[binom[p0, 1] + binom[p1, 2] + binom[p3, 3] + b4] += add
                        counts[binom[p0, 1] + binom[p1, 2] + binom[p2, 3] + b4] += add
                        counts[n0123] += add


@njit(cache=True)
def _add(m0: int, m1: int, m2: int, m3: int, c: int) -> tuple[int, int, int, int]:
    """The suit masks with card ``c`` added."""
    bit = 1 << (c >> 2)
    s = c & 3
    if s == 0:
        return m0 | bit, m1, m2, m3
    if s == 1:
        return m0, m1 | bit, m2, m3
    if s == 2:
        return m0, m1, m2 | bit, m3
    return m0, m1, m2, m3 | bit


@njit(cache=True)
def solve_tree(cards: np.ndarray, k: int, per_node: int, binom: np.ndarray, counts: np.ndarray,
               out: np.ndarray) -> None:
    """The best play from the turn nodes of the positions ``cards[:k]`` (each node summing
    ``per_node`` equally likely cases): adds to ``out`` the net (per Ante, over every case), the
    cases played, the cases with a Turn bet and those with a River bet, and the cases."""
    play = 0
    turn_bets = 0
    river_bets = 0
    for i0 in range(k):
        a = cards[i0]
        for i1 in range(i0 + 1, k):
            b = cards[i1]
            for i2 in range(i1 + 1, k):
                c = cards[i2]
                sum_y = 0
                for it in range(k):
                    t = cards[it]
                    if t == a or t == b or t == c:
                        continue
                    node = _sorted_node(a, b, c, t, binom)
                    packed = counts[node]
                    w, lo, paid = packed & 0xFFFF, (packed >> 16) & 0xFFFF, packed >> 32
                    y = w - lo
                    sum_y += y
                    play += paid + 2 * w - 3 * lo
                    if y > 0:
                        play += y
                        river_bets += per_node
                if sum_y > 0:
                    play += sum_y
                    turn_bets += per_node * (k - 3)
    cases = per_node * (k - 3) * binom[k, 3]
    out[CASES] += cases
    if play > -cases:
        out[NET] += play
        out[PLAYED] += cases
        out[TURN_BETS] += turn_bets
        out[RIVER_BETS] += river_bets
    else:
        out[NET] -= cases


@njit(cache=True)
def pair(deck: np.ndarray, h1: int, h2: int, d1: int, d2: int, threshold: int, key: np.ndarray,
         rank7: np.ndarray, flush_table: np.ndarray, binom: np.ndarray, out: np.ndarray) -> None:
    """Both dealer cards seen: the player's hole cards at positions ``h1, h2`` of ``deck`` against
    the dealer's at ``d1, d2``; adds the tree's sums to ``out`` (``SLOTS``)."""
    n = deck.shape[0]
    sub = np.empty(n, dtype=np.int64)
    k = 0
    for p in range(n):
        if p != h1 and p != h2 and p != d1 and p != d2:
            sub[k] = p
            k += 1
    counts = np.zeros(binom[n, 4], dtype=np.int64)
    player = np.array([deck[h1], deck[h2]], dtype=np.int64)
    dealer = np.array([deck[d1], deck[d2]], dtype=np.int64)
    walk_boards(deck, sub, k, player, dealer, threshold, key, rank7, flush_table, binom, counts)
    solve_tree(sub, k, k - 4, binom, counts, out)


@njit(cache=True)
def one_seen(deck: np.ndarray, h1: int, h2: int, d1: int, threshold: int, key: np.ndarray, rank7: np.ndarray,
             flush_table: np.ndarray, binom: np.ndarray, out: np.ndarray) -> None:
    """One dealer card seen (position ``d1``): one walk over every board of the other cards; per
    board the player's hand is ranked once and the dealer's for each card left that may be his
    other one (by its rank, plus the flush its suit may make), and the board's wins, losses and
    paid wins over those cards go to its five turn nodes; then the tree (``SLOTS`` into ``out``)."""
    n = deck.shape[0]
    rest = np.empty(n, dtype=np.int64)
    m = 0
    for p in range(n):
        if p != h1 and p != h2 and p != d1:
            rest[m] = p
            m += 1
    counts = np.zeros(binom[n, 4], dtype=np.int64)
    in_board = np.zeros(n, dtype=np.bool_)
    by_rank = np.zeros(13, dtype=np.int64)
    a0, a1, e0 = deck[h1], deck[h2], deck[d1]
    for i0 in range(m - 4):
        p0 = rest[i0]
        for i1 in range(i0 + 1, m - 3):
            p1 = rest[i1]
            for i2 in range(i1 + 1, m - 2):
                p2 = rest[i2]
                for i3 in range(i2 + 1, m - 1):
                    p3 = rest[i3]
                    for i4 in range(i3 + 1, m):
                        p4 = rest[i4]
                        base = 0
                        m0 = m1 = m2 = m3 = 0
                        for p in (p0, p1, p2, p3, p4):
                            c = deck[p]
                            base += key[c >> 2]
                            m0, m1, m2, m3 = _add(m0, m1, m2, m3, c)
                            in_board[p] = True
                        pv = _hand(base, m0, m1, m2, m3, a0, a1, rank7, flush_table, key)
                        paid = (pv >> 20) >= threshold
                        # the dealer's seen card on the board's suits; a flush without his other card
                        f0, f1, f2, f3 = _add(m0, m1, m2, m3, e0)
                        no_card = 0
                        for f in (f0, f1, f2, f3):
                            if _popcount(f) >= 5 and flush_table[f] > no_card:
                                no_card = flush_table[f]
                        dbase = base + key[e0 >> 2]
                        by_rank[:] = -1
                        w = 0
                        lo = 0
                        for i in range(m):
                            p = rest[i]
                            if in_board[p]:
                                continue
                            c = deck[p]
                            r = c >> 2
                            if by_rank[r] < 0:
                                v = rank7[dbase + key[r]]
                                by_rank[r] = v if v > no_card else no_card
                            dv = by_rank[r]
                            s = c & 3
                            f = f0 if s == 0 else f1 if s == 1 else f2 if s == 2 else f3
                            if _popcount(f) >= 4:
                                f |= 1 << r
                                if flush_table[f] > dv:
                                    dv = flush_table[f]
                            if pv > dv:
                                w += 1
                            elif pv < dv:
                                lo += 1
                        for p in (p0, p1, p2, p3, p4):
                            in_board[p] = False
                        add = w * WON + lo * LOST + (w * PAID if paid else 0)
                        b4 = binom[p4, 4]
                        counts[binom[p1, 1] + binom[p2, 2] + binom[p3, 3] + b4] += add
                        counts[binom[p0, 1] + binom[p2, 2] + binom[p3, 3] + b4] += add
                        counts[binom[p0, 1] + binom[p1, 2] + binom[p3, 3] + b4] += add
                        counts[binom[p0, 1] + binom[p1, 2] + binom[p2, 3] + b4] += add
                        counts[binom[p0, 1] + binom[p1, 2] + binom[p2, 3] + binom[p3, 4]] += add
    solve_tree(rest, m, (m - 4) * (m - 5), binom, counts, out)
