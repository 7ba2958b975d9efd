"""Texas Hold'em Bonus with the dealer's hole cards seen: the exact count for one player hand and
one seen dealer card (numba; pure computation, no I/O).

For the player's hole cards ``h1 h2`` and the dealer's seen card ``d1`` (positions in ``deck``),
every unseen dealer card ``d2`` is taken in turn. For each, one walk over every 5-card board of
the cards left settles player against dealer (best five of seven, the rules engine's values from
``holdem_tables``) and adds the result to the five turn nodes (4 board cards) inside the board:
dealer hands won ``W``, lost ``L`` and won with the Ante paid ``WQ``. Per Ante, a showdown pays
``s + 2 + t + r`` on a win (``s`` = 1 when the Ante pays), costs ``3 + t + r`` on a loss and
pushes on a tie, for Turn bet ``t`` and River bet ``r`` (0 or 1). So at a turn node, summed over
its rivers, ``X = WQ + 2W - 3L`` and ``Y = W - L``: the River bet is made iff ``Y > 0`` and the
node is worth ``X + tY + max(Y, 0)``; at a flop (3 cards) the Turn bet is made iff the sum of its
turn nodes' ``Y`` is positive; before the flop the player bets the Flop iff the sum over the
flops beats folding (-1 per case). Ties between choices go to the smaller wager.

- Both dealer cards seen: that tree is solved for each ``(d1, d2)`` pair alone.
- One dealer card seen: the turn nodes' counts are summed over ``d2`` first (the unseen card
  averaged at each node), then the same tree is solved once.

A *case* is a deal in dealing order: the dealer's other card, the flop as a set, the turn card,
the river card (20 per 5-card board). Every sum is an integer.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# result slots of ``triple``: per information kind (0 one card seen, 1 both seen)
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
def _node(a: int, b: int, c: int, d: int, binom: np.ndarray) -> int:
    """Colex index of the positions ``a < b < c < d``."""
    return binom[a, 1] + binom[b, 2] + binom[c, 3] + binom[d, 4]


@njit(cache=True)
def _sorted_node(a: int, b: int, c: int, t: int, binom: np.ndarray) -> int:
    """The turn node of flop ``a < b < c`` and turn ``t``."""
    if t < a:
        return _node(t, a, b, c, binom)
    if t < b:
        return _node(a, t, b, c, binom)
    if t < c:
        return _node(a, b, t, c, binom)
    return _node(a, b, c, t, binom)


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


@njit(cache=True)
def _popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


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
def triple(deck: np.ndarray, h1: int, h2: int, d1: int, threshold: int, key: np.ndarray, rank7: np.ndarray,
           flush_table: np.ndarray, binom: np.ndarray, out: np.ndarray) -> None:
    """Player hole cards at positions ``h1, h2`` of ``deck``, the seen dealer card at ``d1``:
    ``out[0]`` gets the one-card-seen sums, ``out[1]`` the both-seen sums (``SLOTS`` each), over
    every unseen dealer card and board."""
    n = deck.shape[0]
    size = binom[n, 4]
    counts = np.zeros(size, dtype=np.int64)
    counts1 = np.zeros(size, dtype=np.int64)
    rest = np.empty(n, dtype=np.int64)
    m = 0
    for p in range(n):
        if p != h1 and p != h2 and p != d1:
            rest[m] = p
            m += 1
    sub = np.empty(n, dtype=np.int64)
    player = np.array([deck[h1], deck[h2]], dtype=np.int64)
    dealer = np.array([deck[d1], 0], dtype=np.int64)
    for j in range(m):
        d2 = rest[j]
        k = 0
        for i in range(m):
            if i != j:
                sub[k] = rest[i]
                k += 1
        dealer[1] = deck[d2]
        counts[:] = 0
        walk_boards(deck, sub, k, player, dealer, threshold, key, rank7, flush_table, binom, counts)
        solve_tree(sub, k, k - 4, binom, counts, out[1])
        counts1 += counts  # fields stay apart: each sum is below 2**16 (45 x 44 cases a node)
    solve_tree(rest, m, (m - 4) * (m - 5), binom, counts1, out[0])
