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

from tablectl.gamemath.holdem_main import board_plus_two

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
def walk_boards(deck: np.ndarray, cards: np.ndarray, k: int, player: np.ndarray, dealer: np.ndarray,
                threshold: int, key: np.ndarray, rank7: np.ndarray, flush_table: np.ndarray, binom: np.ndarray,
                won: np.ndarray, lost: np.ndarray, won_paid: np.ndarray) -> None:
    """Every 5-card board of the positions ``cards[:k]`` (ascending): the player's hole cards
    ``player`` against the dealer's ``dealer`` (card ids), each result added to the board's five
    turn nodes (``won_paid``: wins whose category is at least ``threshold``)."""
    masks = np.zeros(4, dtype=np.int64)
    pbase = key[player[0] >> 2] + key[player[1] >> 2]
    dbase = key[dealer[0] >> 2] + key[dealer[1] >> 2]
    for i0 in range(k):
        p0 = cards[i0]
        for i1 in range(i0 + 1, k):
            p1 = cards[i1]
            for i2 in range(i1 + 1, k):
                p2 = cards[i2]
                for i3 in range(i2 + 1, k):
                    p3 = cards[i3]
                    for i4 in range(i3 + 1, k):
                        p4 = cards[i4]
                        base = 0
                        masks[:] = 0
                        for p in (p0, p1, p2, p3, p4):
                            c = deck[p]
                            base += key[c >> 2]
                            masks[c & 3] |= 1 << (c >> 2)
                        pv = board_plus_two(base, masks, player[0], player[1], rank7, flush_table, key)
                        dv = board_plus_two(base, masks, dealer[0], dealer[1], rank7, flush_table, key)
                        if pv == dv:
                            continue
                        w = 1 if pv > dv else 0
                        q = 1 if w == 1 and (pv >> 20) >= threshold else 0
                        nodes = (_node(p1, p2, p3, p4, binom), _node(p0, p2, p3, p4, binom),
                                 _node(p0, p1, p3, p4, binom), _node(p0, p1, p2, p4, binom),
                                 _node(p0, p1, p2, p3, binom))
                        for node in nodes:
                            if w:
                                won[node] += 1
                                won_paid[node] += q
                            else:
                                lost[node] += 1


@njit(cache=True)
def solve_tree(cards: np.ndarray, k: int, per_node: int, binom: np.ndarray, won: np.ndarray, lost: np.ndarray,
               won_paid: np.ndarray, out: np.ndarray) -> None:
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
                    w, lo = won[node], lost[node]
                    y = w - lo
                    sum_y += y
                    play += won_paid[node] + 2 * w - 3 * lo
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
    won = np.zeros(size, dtype=np.int32)
    lost = np.zeros(size, dtype=np.int32)
    won_paid = np.zeros(size, dtype=np.int32)
    won1 = np.zeros(size, dtype=np.int32)
    lost1 = np.zeros(size, dtype=np.int32)
    won_paid1 = np.zeros(size, dtype=np.int32)
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
        won[:] = 0
        lost[:] = 0
        won_paid[:] = 0
        walk_boards(deck, sub, k, player, dealer, threshold, key, rank7, flush_table, binom, won, lost, won_paid)
        solve_tree(sub, k, k - 4, binom, won, lost, won_paid, out[1])
        won1 += won
        lost1 += lost
        won_paid1 += won_paid
    solve_tree(rest, m, (m - 4) * (m - 5), binom, won1, lost1, won_paid1, out[0])
