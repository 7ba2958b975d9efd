"""Texas Hold'em Bonus, the main game: its exact analysis under optimal play (the numbers).

The player sees two hole cards and decides: fold (lose the Ante) or bet the Flop (2x). After the
flop: bet the Turn (1x) or check; after the turn: bet the River (1x) or check. Against the
dealer's two cards, for Turn bet ``t`` and River bet ``r`` (0 or 1), per Ante: a win pays
``s + 2 + t + r`` (``s`` = 1 when the Ante pays: the player's hand qualifies — straight or better
by the seed, flush or better by the Atlantic City rule — else it pushes); a loss costs
``3 + t + r``; a tie pushes. So over the 990 dealer hands of one (hole, board):
``EV = (W s + 2W - 3L) + (t + r)(W - L)`` where W and L count the dealer hands beaten and
beating. The River bet is decided with 4 board cards known, the Turn bet with 3: at a turn node
(hole, 4 cards), summing over the 46 river cards, ``r = 1`` iff ``Y = sum(W - L) > 0`` and the
node is worth ``X + t Y + max(Y, 0)``; at a flop node, ``t = 1`` iff the sum of the turns' Y is
positive. Every count is an integer; nothing is sampled.

How it is fast enough: the player's 169 starting hands (suit isomorphism; each stands for 4, 6
or 12 of the 1,326 deals) against every one of the C(52,5) boards, walked once; per board the
1,081 two-card hands are ranked once (table lookups built from the rules engine's evaluator,
``holdem_tables``), and each starting hand's wins and ties against the 990 dealer hands disjoint
from it come from counts over all 1,081 less those sharing one of its cards (inclusion and
exclusion). Each (hand, board) result goes to the five turn nodes inside the board.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from tablectl.gamemath.holdem.tables import RANK_KEY, flush, ranks

DEALER_HANDS = 990  # C(45, 2)
RIVERS = 46
TURNS = 47
FLOPS = 19600  # C(50, 3)
NODES = 270725  # C(52, 4): turn nodes by the colex index of the 4 board cards
FLOP_NODES = 22100  # C(52, 3)
STRAIGHT, FLUSH = 4, 5  # the rules engine's categories (tablectl.rules.hand7)
VARIANTS = ("straight", "flush")  # the Ante pays from: the seed / the Atlantic City rule (holdem_strategy too)


def starting_hands() -> tuple[np.ndarray, np.ndarray, list[str]]:
    """The 169 starting hands: a representative pair of cards each, how many of the 1,326 deals
    it stands for, and its name (``AA``, ``AKs``, ``72o``)."""
    names = "23456789TJQKA"
    reps, weights, labels = [], [], []
    for hi in range(12, -1, -1):
        for lo in range(hi, -1, -1):
            if hi == lo:
                reps.append((hi * 4, hi * 4 + 1))
                weights.append(6)
                labels.append(names[hi] * 2)
            else:
                reps.append((lo * 4, hi * 4))
                weights.append(4)
                labels.append(names[hi] + names[lo] + "s")
                reps.append((lo * 4 + 1, hi * 4))
                weights.append(12)
                labels.append(names[hi] + names[lo] + "o")
    return np.array(reps, dtype=np.int64), np.array(weights, dtype=np.int64), labels


def _binomials() -> np.ndarray:
    table = np.zeros((53, 6), dtype=np.int64)
    for n in range(53):
        table[n, 0] = 1
        for k in range(1, 6):
            table[n, k] = table[n - 1, k - 1] + table[n - 1, k] if n else 0
    return table


BINOM = _binomials()


@njit(cache=True)
def _popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def _value(cards: np.ndarray, n: int, key: np.ndarray, rank_table: np.ndarray, flush_table: np.ndarray) -> int:
    """The best-five value of ``cards[:n]`` (5 to 7 cards), as ``best_five`` gives it."""
    total = 0
    m0 = m1 = m2 = m3 = 0
    for i in range(n):
        c = cards[i]
        total += key[c >> 2]
        bit = 1 << (c >> 2)
        s = c & 3
        if s == 0:
            m0 |= bit
        elif s == 1:
            m1 |= bit
        elif s == 2:
            m2 |= bit
        else:
            m3 |= bit
    v = rank_table[total]
    for m in (m0, m1, m2, m3):
        if _popcount(m) >= 5 and flush_table[m] > v:
            v = flush_table[m]
    return v


@njit(cache=True)
def rank_board(board: np.ndarray, key: np.ndarray, rank7: np.ndarray, flush_table: np.ndarray, in_board: np.ndarray,
               rest: np.ndarray, values: np.ndarray, every: np.ndarray) -> None:
    """Rank the 1,081 two-card hands of the 47 cards off a 5-card board: ``values[a, b]`` their
    values, ``every`` the same 1,081 values (unsorted); ``in_board`` and ``rest`` filled in."""
    in_board[:] = False
    for c in board:
        in_board[c] = True
    n = 0
    for c in range(52):
        if not in_board[c]:
            rest[n] = c
            n += 1
    base = 0
    masks = np.zeros(4, dtype=np.int64)
    for c in board:
        base += key[c >> 2]
        masks[c & 3] |= 1 << (c >> 2)
    k = 0
    for i in range(47):
        a = rest[i]
        for j in range(i + 1, 47):
            b = rest[j]
            v = board_plus_two(base, masks, a, b, rank7, flush_table, key)
            values[a, b] = v
            values[b, a] = v
            every[k] = v
            k += 1


@njit(cache=True)
def board_plus_two(base: int, masks: np.ndarray, a: int, b: int, rank7: np.ndarray, flush_table: np.ndarray,
                   key: np.ndarray) -> int:
    """The best-five value of five board cards (``base``: their rank-key sum; ``masks``: their
    ranks per suit) plus the cards ``a`` and ``b``."""
    v = rank7[base + key[a >> 2] + key[b >> 2]]
    for s in range(4):
        m = masks[s]
        if (a & 3) == s:
            m |= 1 << (a >> 2)
        if (b & 3) == s:
            m |= 1 << (b >> 2)
        if _popcount(m) >= 5 and flush_table[m] > v:
            v = flush_table[m]
    return v


@njit(cache=True)
def board_counts(board: np.ndarray, reps: np.ndarray, key: np.ndarray, rank7: np.ndarray, flush_table: np.ndarray,
                 values: np.ndarray, wins: np.ndarray, ties: np.ndarray, player: np.ndarray) -> None:
    """For one 5-card board: each starting hand's wins and ties against the 990 dealer hands
    disjoint from it, and its own value (-1 where it shares a card with the board).
    ``values`` is a 52x52 work array."""
    in_board = np.zeros(52, dtype=np.bool_)
    rest = np.empty(47, dtype=np.int64)
    every = np.empty(1081, dtype=np.int32)
    rank_board(board, key, rank7, flush_table, in_board, rest, values, every)
    every.sort()
    for r in range(reps.shape[0]):
        c1, c2 = reps[r, 0], reps[r, 1]
        if in_board[c1] or in_board[c2]:
            player[r] = -1
            continue
        v = values[c1, c2]
        less = np.searchsorted(every, v, side="left")
        equal = np.searchsorted(every, v, side="right") - less
        for c in (c1, c2):
            for i in range(47):
                x = rest[i]
                if x != c:
                    w = values[c, x]
                    if w < v:
                        less -= 1
                    elif w == v:
                        equal -= 1
        wins[r] = less
        ties[r] = equal + 1  # the hand itself was taken away twice
        player[r] = v


@njit(cache=True)
def _colex4(a: int, b: int, c: int, d: int, binom: np.ndarray) -> int:
    return binom[a, 1] + binom[b, 2] + binom[c, 3] + binom[d, 4]


@njit(cache=True)
def _turn_node(a: int, b: int, c: int, t: int, binom: np.ndarray) -> int:
    """The colex index of the turn node: flop ``a < b < c`` and the turn card ``t``, in order."""
    if t < a:
        return _colex4(t, a, b, c, binom)
    if t < b:
        return _colex4(a, t, b, c, binom)
    if t < c:
        return _colex4(a, b, t, c, binom)
    return _colex4(a, b, c, t, binom)


@njit(cache=True)
def turn_nodes(reps: np.ndarray, key: np.ndarray, rank7: np.ndarray, flush_table: np.ndarray, binom: np.ndarray,
               won: np.ndarray, lost: np.ndarray, won_straight: np.ndarray, won_flush: np.ndarray) -> None:
    """Walk every board once; add each starting hand's wins and losses (and wins whose hand is
    a straight or better, a flush or better) to the five turn nodes inside the board."""
    values = np.zeros((52, 52), dtype=np.int32)
    wins = np.zeros(reps.shape[0], dtype=np.int64)
    ties = np.zeros(reps.shape[0], dtype=np.int64)
    player = np.zeros(reps.shape[0], dtype=np.int64)
    board = np.zeros(5, dtype=np.int64)
    for c0 in range(52):
        for c1 in range(c0 + 1, 52):
            for c2 in range(c1 + 1, 52):
                for c3 in range(c2 + 1, 52):
                    for c4 in range(c3 + 1, 52):
                        board[0], board[1], board[2], board[3], board[4] = c0, c1, c2, c3, c4
                        board_counts(board, reps, key, rank7, flush_table, values, wins, ties, player)
                        nodes = (
                            _colex4(c1, c2, c3, c4, binom), _colex4(c0, c2, c3, c4, binom), _colex4(c0, c1, c3, c4, binom),
                            _colex4(c0, c1, c2, c4, binom), _colex4(c0, c1, c2, c3, binom),
                        )
                        for r in range(reps.shape[0]):
                            if player[r] < 0:
                                continue
                            w = wins[r]
                            lo = DEALER_HANDS - w - ties[r]
                            category = player[r] >> 20
                            for node in nodes:
                                won[node, r] += w
                                lost[node, r] += lo
                                if category >= STRAIGHT:
                                    won_straight[node, r] += w
                                if category >= FLUSH:
                                    won_flush[node, r] += w


@njit(cache=True)
def decide(reps: np.ndarray, binom: np.ndarray, won: np.ndarray, lost: np.ndarray, won_qualified: np.ndarray,
           play_sum: np.ndarray, turn_bet: np.ndarray, river_bet: np.ndarray, tally: np.ndarray) -> None:
    """The optimal Turn and River bets of every starting hand, flop and turn, from the turn
    nodes indexed [hand, node] (one variant: ``won_qualified`` are the wins whose Ante pays). ``play_sum[r]``: the
    sum over every deal after a Flop bet of the player's result (per Ante, x990 dealer hands);
    ``turn_bet[r, flop]``, ``river_bet[r, node]``: the decisions; ``tally[r, kind, bets]``:
    dealer hands by outcome (0 win with the Ante paid, 1 win with the Ante pushed, 2 loss,
    3 push) and Turn + River bets made (0-2)."""
    ys = np.zeros(TURNS, dtype=np.int64)
    xs = np.zeros(TURNS, dtype=np.int64)
    idx = np.zeros(TURNS, dtype=np.int64)
    for r in range(reps.shape[0]):
        h1, h2 = reps[r, 0], reps[r, 1]
        total = 0
        for a in range(52):
            if a == h1 or a == h2:
                continue
            for b in range(a + 1, 52):
                if b == h1 or b == h2:
                    continue
                for c in range(b + 1, 52):
                    if c == h1 or c == h2:
                        continue
                    n = 0
                    sum_y = 0
                    value = 0
                    for t in range(52):
                        if t == h1 or t == h2 or t == a or t == b or t == c:
                            continue
                        node = _turn_node(a, b, c, t, binom)
                        w, lo, wq = won[r, node], lost[r, node], won_qualified[r, node]
                        y = w - lo
                        x = wq + 2 * w - 3 * lo
                        ys[n], xs[n], idx[n] = y, x, node
                        n += 1
                        sum_y += y
                        value += x + (y if y > 0 else 0)
                    bet_turn = 1 if sum_y > 0 else 0
                    turn_bet[r, binom[a, 1] + binom[b, 2] + binom[c, 3]] = bet_turn == 1
                    total += value + (sum_y if sum_y > 0 else 0)
                    for i in range(n):
                        node = idx[i]
                        bet_river = 1 if ys[i] > 0 else 0
                        river_bet[r, node] = bet_river == 1
                        w, lo, wq = won[r, node], lost[r, node], won_qualified[r, node]
                        bets = bet_turn + bet_river
                        tally[r, 0, bets] += wq
                        tally[r, 1, bets] += w - wq
                        tally[r, 2, bets] += lo
                        tally[r, 3, bets] += RIVERS * DEALER_HANDS - w - lo
        play_sum[r] = total


@njit(cache=True)
def flop_values(reps: np.ndarray, binom: np.ndarray, won: np.ndarray, lost: np.ndarray, won_qualified: np.ndarray,
                flop_y: np.ndarray, flop_check: np.ndarray) -> None:
    """Each starting hand's flops, from the turn nodes indexed [hand, node] as ``decide`` takes
    them: ``flop_y[r, flop]`` the sum over the 47 turns of the turn nodes' ``W - L`` (what a
    Turn bet adds, x46x990 per Ante), ``flop_check[r, flop]`` the hand's result when the player
    checks the flop and plays the River optimally (per Ante, x47x46x990; the Ante and Flop bet
    counted)."""
    for r in range(reps.shape[0]):
        h1, h2 = reps[r, 0], reps[r, 1]
        for a in range(52):
            if a == h1 or a == h2:
                continue
            for b in range(a + 1, 52):
                if b == h1 or b == h2:
                    continue
                for c in range(b + 1, 52):
                    if c == h1 or c == h2:
                        continue
                    sum_y = 0
                    value = 0
                    for t in range(52):
                        if t == h1 or t == h2 or t == a or t == b or t == c:
                            continue
                        node = _turn_node(a, b, c, t, binom)
                        w, lo = won[r, node], lost[r, node]
                        y = w - lo
                        sum_y += y
                        value += won_qualified[r, node] + 2 * w - 3 * lo + (y if y > 0 else 0)
                    flop = binom[a, 1] + binom[b, 2] + binom[c, 3]
                    flop_y[r, flop] = sum_y
                    flop_check[r, flop] = value


@njit(cache=True)
def category_shares(reps: np.ndarray, weights: np.ndarray, play: np.ndarray, turn_bet: np.ndarray, river_bet: np.ndarray,
                    binom: np.ndarray, key: np.ndarray, rank5: np.ndarray, rank6: np.ndarray, flush_table: np.ndarray) -> np.ndarray:
    """``out[street, category, 0]``: flops (street 0) or turns (street 1) met after a Flop bet,
    weighted by deals, by the category of the player's best hand then; ``out[..., 1]``: those
    with a Turn (River) bet."""
    out = np.zeros((2, 9, 2), dtype=np.int64)
    cards = np.zeros(6, dtype=np.int64)
    for r in range(reps.shape[0]):
        if not play[r]:
            continue
        h1, h2 = reps[r, 0], reps[r, 1]
        w = weights[r]
        cards[0], cards[1] = h1, h2
        for a in range(52):
            if a == h1 or a == h2:
                continue
            for b in range(a + 1, 52):
                if b == h1 or b == h2:
                    continue
                for c in range(b + 1, 52):
                    if c == h1 or c == h2:
                        continue
                    cards[2], cards[3], cards[4] = a, b, c
                    cat = _value(cards, 5, key, rank5, flush_table) >> 20
                    out[0, cat, 0] += w
                    if turn_bet[r, binom[a, 1] + binom[b, 2] + binom[c, 3]]:
                        out[0, cat, 1] += w
                    for d in range(c + 1, 52):
                        if d == h1 or d == h2:
                            continue
                        cards[5] = d
                        cat = _value(cards, 6, key, rank6, flush_table) >> 20
                        out[1, cat, 0] += w
                        if river_bet[r, _colex4(a, b, c, d, binom)]:
                            out[1, cat, 1] += w
    return out


@dataclass(frozen=True)
class NodeCounts:
    """Each starting hand's turn nodes: dealer hands won and lost over the 46 rivers, and won
    with a hand whose Ante pays under each variant; arrays indexed [node, starting hand]."""

    won: np.ndarray
    lost: np.ndarray
    won_qualified: dict[str, np.ndarray]


def count_nodes(reps: np.ndarray) -> NodeCounts:
    """Walk every board (the long part: minutes)."""
    shape = (NODES, reps.shape[0])  # node-major: a board's five nodes are five short rows
    won, lost = np.zeros(shape, np.int32), np.zeros(shape, np.int32)
    straight, flushes = np.zeros(shape, np.int32), np.zeros(shape, np.int32)
    turn_nodes(reps, RANK_KEY, ranks(7), flush(), BINOM, won, lost, straight, flushes)
    return NodeCounts(won, lost, {"straight": straight, "flush": flushes})


@dataclass(frozen=True)
class Decisions:
    """One variant's optimal play: per starting hand the sum of results after a Flop bet, the
    Turn bet per flop, the River bet per turn node, and the outcome tally."""

    play_sum: np.ndarray  # int64[169]
    turn_bet: np.ndarray  # bool[169, FLOP_NODES]
    river_bet: np.ndarray  # bool[169, NODES]
    tally: np.ndarray  # int64[169, 4, 3]


def decisions(reps: np.ndarray, nodes: NodeCounts, variant: str) -> Decisions:
    n = reps.shape[0]
    play_sum = np.zeros(n, np.int64)
    turn_bet = np.zeros((n, FLOP_NODES), np.bool_)
    river_bet = np.zeros((n, NODES), np.bool_)
    tally = np.zeros((n, 4, 3), np.int64)
    # one starting hand's nodes contiguous for the walk over its flops ([hand, node])
    won, lost = np.ascontiguousarray(nodes.won.T), np.ascontiguousarray(nodes.lost.T)
    decide(reps, BINOM, won, lost, np.ascontiguousarray(nodes.won_qualified[variant].T), play_sum, turn_bet, river_bet, tally)
    return Decisions(play_sum, turn_bet, river_bet, tally)


__all__ = [
    "DEALER_HANDS", "FLOPS", "NODES", "RIVERS", "TURNS", "VARIANTS", "Decisions", "NodeCounts",
    "board_counts", "category_shares", "count_nodes", "decisions", "flop_values", "starting_hands",
]
