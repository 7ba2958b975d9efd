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
or 12 of the 1,326 deals) against every one of the C(52,5) boards, walked once — a board and its
mirror (suits 2 and 3 exchanged, which the starting hands do not hold) once for both; per board
the 1,081 two-card hands are ranked once (table lookups built from the rules engine's evaluator,
``holdem_tables``; on a board holding no suit four times, as the 91 rank pairs and the few
suited hands that make a flush), and each starting hand's wins and ties against the 990 dealer
hands disjoint from it come from counts over all 1,081 less those sharing one of its cards
(inclusion and exclusion). Each (hand, board) result goes to the five turn nodes inside the
board, two-byte counts (at most 46 x 990). The walk runs about a thousand boards per call
(``count_nodes``), so the process runs Python, and so handles a signal, many times a second.
"""

from __future__ import annotations

from collections.abc import Callable
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
    values, ``every`` the same 1,081 values (unsorted); ``in_board`` and ``rest`` filled in.
    (As ``board_plus_two`` values each hand, with the one suit that can make a flush found once:
    five cards hold at most one suit three times.)"""
    in_board[:] = False
    for c in board:
        in_board[c] = True
    n = 0
    for c in range(52):
        if not in_board[c]:
            rest[n] = c
            n += 1
    base = 0
    suit_count = np.zeros(4, dtype=np.int64)
    masks = np.zeros(4, dtype=np.int64)
    for c in board:
        base += key[c >> 2]
        suit_count[c & 3] += 1
        masks[c & 3] |= 1 << (c >> 2)
    suit = -1
    for s in range(4):
        if suit_count[s] >= 3:
            suit = s
    board_mask = masks[suit] if suit >= 0 else 0
    k = 0
    for i in range(47):
        a = rest[i]
        ka = key[a >> 2]
        for j in range(i + 1, 47):
            b = rest[j]
            v = rank7[base + ka + key[b >> 2]]
            if suit >= 0:
                m = board_mask
                if (a & 3) == suit:
                    m |= 1 << (a >> 2)
                if (b & 3) == suit:
                    m |= 1 << (b >> 2)
                if _popcount(m) >= 5 and flush_table[m] > v:
                    v = flush_table[m]
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
    _board_counts(board, reps, key, rank7, flush_table, values, in_board, rest, every, wins, ties, player)


@njit(cache=True)
def _board_counts(board: np.ndarray, reps: np.ndarray, key: np.ndarray, rank7: np.ndarray, flush_table: np.ndarray,
                  values: np.ndarray, in_board: np.ndarray, rest: np.ndarray, every: np.ndarray, wins: np.ndarray,
                  ties: np.ndarray, player: np.ndarray) -> None:
    """``board_counts`` with its work arrays given (the walk makes them once)."""
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
def _flush_suit(board: np.ndarray) -> tuple[int, int]:
    """The suit a 5-card board holds three or more times and how many times (-1, 0: none, and
    no hand makes a flush); five cards hold at most one such suit."""
    count = np.zeros(4, dtype=np.int64)
    for c in board:
        count[c & 3] += 1
    for s in range(4):
        if count[s] >= 3:
            return s, count[s]
    return -1, 0


@njit(cache=True)
def _rank_counts(board: np.ndarray, reps: np.ndarray, key: np.ndarray, rank7: np.ndarray, flush_table: np.ndarray,
                 suit: int, in_board: np.ndarray, pair_value: np.ndarray, suited_value: np.ndarray, wins: np.ndarray,
                 ties: np.ndarray, player: np.ndarray) -> None:
    """``board_counts`` for a board that holds no suit more than three times (``suit``: the one
    it holds three times, or -1). A hand's value is then that of its two ranks, but for the
    hands of two cards of ``suit`` (at most 45), which may make a flush: so the 1,081 hands are
    the 91 rank pairs, each as many times as the cards left allow, less those suited hands,
    which are counted one by one; and a starting hand's card meets the 46 others as 13 ranks
    (and, if it is of ``suit``, the one card of each rank of ``suit``)."""
    in_board[:] = False
    avail = np.full(13, 4, dtype=np.int64)
    base = 0
    suit_mask = 0
    for c in board:
        in_board[c] = True
        avail[c >> 2] -= 1
        base += key[c >> 2]
        if (c & 3) == suit:
            suit_mask |= 1 << (c >> 2)
    values = np.empty(136, dtype=np.int64)  # 91 rank pairs, 45 suited hands at most
    times = np.zeros(136, dtype=np.int64)
    cls = np.full((13, 13), -1, dtype=np.int64)
    n = 0
    for i in range(13):
        for j in range(i, 13):
            m = avail[i] * (avail[i] - 1) // 2 if i == j else avail[i] * avail[j]
            if m > 0:
                v = rank7[base + key[i] + key[j]]
                pair_value[i, j] = v
                pair_value[j, i] = v
                values[n] = v
                times[n] = m
                cls[i, j] = n
                n += 1
    if suit >= 0:
        for i in range(13):
            if suit_mask >> i & 1:
                continue
            for j in range(i + 1, 13):
                if suit_mask >> j & 1:
                    continue
                v = max(pair_value[i, j], flush_table[suit_mask | 1 << i | 1 << j])
                suited_value[i, j] = v
                suited_value[j, i] = v
                if v != pair_value[i, j]:  # a flush: out of its rank pair, counted alone
                    times[cls[i, j]] -= 1
                    values[n] = v
                    times[n] = 1
                    n += 1
    order = np.argsort(values[:n])
    ranked = values[:n][order]
    below = np.zeros(n + 1, dtype=np.int64)  # below[k]: hands of the k lowest entries
    for k in range(n):
        below[k + 1] = below[k] + times[order[k]]
    for r in range(reps.shape[0]):
        c1, c2 = reps[r, 0], reps[r, 1]
        if in_board[c1] or in_board[c2]:
            player[r] = -1
            continue
        r1, r2 = c1 >> 2, c2 >> 2
        v = suited_value[r1, r2] if (c1 & 3) == suit and (c2 & 3) == suit else pair_value[r1, r2]
        less = below[np.searchsorted(ranked, v, side="left")]
        equal = below[np.searchsorted(ranked, v, side="right")] - less
        for c in (c1, c2):
            own = c >> 2
            suited = (c & 3) == suit
            for k in range(13):
                left = avail[k] - (1 if k == own else 0)  # the other cards of rank k off the board
                if suited and k != own and not suit_mask >> k & 1:  # one of them is of the suit
                    left -= 1
                    w = suited_value[own, k]
                    if w < v:
                        less -= 1
                    elif w == v:
                        equal -= 1
                if left > 0:
                    w = pair_value[own, k]
                    if w < v:
                        less -= left
                    elif w == v:
                        equal -= left
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


def board_prefixes() -> np.ndarray:
    """The boards' first three cards ``(c0, c1, c2)``, in the order the walk takes them
    (int64[22100, 3]): a chunk of the walk is a run of these."""
    return np.array([(a, b, c) for a in range(52) for b in range(a + 1, 52) for c in range(b + 1, 52)], dtype=np.int64)


def boards_after(prefixes: np.ndarray) -> np.ndarray:
    """How many boards start with each prefix: C(51 - c2, 2)."""
    return BINOM[51 - prefixes[:, 2], 2].copy()


@njit(cache=True)
def _mirror(c: int) -> int:
    """The card with suits 2 and 3 exchanged (suits 0 and 1, those of the starting hands, kept)."""
    return c ^ 1 if c & 2 else c


@njit(cache=True)
def _nodes_of(cards: np.ndarray, binom: np.ndarray, nodes: np.ndarray, at: int) -> None:
    """The colex indexes of the five turn nodes inside a sorted 5-card board, at ``nodes[at:]``."""
    nodes[at] = _colex4(cards[1], cards[2], cards[3], cards[4], binom)
    nodes[at + 1] = _colex4(cards[0], cards[2], cards[3], cards[4], binom)
    nodes[at + 2] = _colex4(cards[0], cards[1], cards[3], cards[4], binom)
    nodes[at + 3] = _colex4(cards[0], cards[1], cards[2], cards[4], binom)
    nodes[at + 4] = _colex4(cards[0], cards[1], cards[2], cards[3], binom)


@njit(cache=True)
def turn_nodes(prefixes: np.ndarray, reps: np.ndarray, key: np.ndarray, rank7: np.ndarray, flush_table: np.ndarray,
               binom: np.ndarray, won: np.ndarray, lost: np.ndarray, won_straight: np.ndarray,
               won_flush: np.ndarray) -> None:
    """Walk every board starting with one of ``prefixes`` (rows ``(c0, c1, c2)``) once; add each
    starting hand's wins and losses (and wins whose hand is a straight or better, a flush or
    better) to the five turn nodes inside the board; arrays indexed [node, starting hand].

    The starting hands hold suits 0 and 1 only, so a board and its mirror (suits 2 and 3
    exchanged) give every one of them the same counts: of the two, the one with the lower colex
    index is counted, for its own nodes and for the mirror's. A board holding no suit four
    times (nearly every board) is counted by rank (``_rank_counts``)."""
    values = np.zeros((52, 52), dtype=np.int32)
    in_board = np.zeros(52, dtype=np.bool_)
    rest = np.empty(47, dtype=np.int64)
    every = np.empty(1081, dtype=np.int32)
    wins = np.zeros(reps.shape[0], dtype=np.int64)
    ties = np.zeros(reps.shape[0], dtype=np.int64)
    player = np.zeros(reps.shape[0], dtype=np.int64)
    board = np.zeros(5, dtype=np.int64)
    mirror = np.zeros(5, dtype=np.int64)
    nodes = np.zeros(10, dtype=np.int64)
    pair_value = np.zeros((13, 13), dtype=np.int64)
    suited_value = np.zeros((13, 13), dtype=np.int64)
    for p in range(prefixes.shape[0]):
        c0, c1, c2 = prefixes[p, 0], prefixes[p, 1], prefixes[p, 2]
        for c3 in range(c2 + 1, 52):
            for c4 in range(c3 + 1, 52):
                board[0], board[1], board[2], board[3], board[4] = c0, c1, c2, c3, c4
                for i in range(5):  # the mirror board, sorted (insertion: five cards)
                    m = _mirror(board[i])
                    j = i
                    while j > 0 and mirror[j - 1] > m:
                        mirror[j] = mirror[j - 1]
                        j -= 1
                    mirror[j] = m
                own = _colex4(c0, c1, c2, c3, binom) + binom[c4, 5]
                other = _colex4(mirror[0], mirror[1], mirror[2], mirror[3], binom) + binom[mirror[4], 5]
                if other < own:
                    continue  # counted with its mirror
                _nodes_of(board, binom, nodes, 0)
                n = 5
                if other > own:
                    _nodes_of(mirror, binom, nodes, 5)
                    n = 10
                suit, held = _flush_suit(board)
                if held <= 3:
                    _rank_counts(board, reps, key, rank7, flush_table, suit, in_board, pair_value, suited_value, wins,
                                 ties, player)
                else:
                    _board_counts(board, reps, key, rank7, flush_table, values, in_board, rest, every, wins, ties, player)
                for r in range(reps.shape[0]):
                    if player[r] < 0:
                        continue
                    w = wins[r]
                    lo = DEALER_HANDS - w - ties[r]
                    category = player[r] >> 20
                    for i in range(n):
                        node = nodes[i]
                        won[node, r] += w
                        lost[node, r] += lo
                        if category >= STRAIGHT:
                            won_straight[node, r] += w
                        if category >= FLUSH:
                            won_flush[node, r] += w


@njit(cache=True)
def decide(first: int, stop: int, reps: np.ndarray, binom: np.ndarray, won: np.ndarray, lost: np.ndarray,
           won_qualified: np.ndarray, play_sum: np.ndarray, turn_bet: np.ndarray, river_bet: np.ndarray,
           tally: np.ndarray, flop_y: np.ndarray, flop_check: np.ndarray) -> None:
    """The optimal Turn and River bets of starting hands ``first`` to ``stop - 1``, flop and turn,
    from the turn nodes indexed [hand, node] (one variant: ``won_qualified`` are the wins whose
    Ante pays). ``play_sum[r]``: the sum over every deal after a Flop bet of the player's result
    (per Ante, x990 dealer hands); ``turn_bet[r, flop]``, ``river_bet[r, node]``: the decisions;
    ``tally[r, kind, bets]``: dealer hands by outcome (0 win with the Ante paid, 1 win with the
    Ante pushed, 2 loss, 3 push) and Turn + River bets made (0-2). Each flop's values too:
    ``flop_y[r, flop]`` the sum over the 47 turns of the turn nodes' ``W - L`` (what a Turn bet
    adds, x46x990 per Ante), ``flop_check[r, flop]`` the hand's result when the player checks the
    flop and plays the River optimally (per Ante, x47x46x990; the Ante and Flop bet counted)."""
    ys = np.zeros(TURNS, dtype=np.int64)
    idx = np.zeros(TURNS, dtype=np.int64)
    for r in range(first, stop):
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
                        w, lo, wq = np.int64(won[r, node]), np.int64(lost[r, node]), np.int64(won_qualified[r, node])
                        y = w - lo
                        ys[n], idx[n] = y, node
                        n += 1
                        sum_y += y
                        value += wq + 2 * w - 3 * lo + (y if y > 0 else 0)
                    bet_turn = 1 if sum_y > 0 else 0
                    flop = binom[a, 1] + binom[b, 2] + binom[c, 3]
                    turn_bet[r, flop] = bet_turn == 1
                    flop_y[r, flop] = sum_y
                    flop_check[r, flop] = value
                    total += value + (sum_y if sum_y > 0 else 0)
                    for i in range(n):
                        node = idx[i]
                        bet_river = 1 if ys[i] > 0 else 0
                        river_bet[r, node] = bet_river == 1
                        w, lo, wq = np.int64(won[r, node]), np.int64(lost[r, node]), np.int64(won_qualified[r, node])
                        bets = bet_turn + bet_river
                        tally[r, 0, bets] += wq
                        tally[r, 1, bets] += w - wq
                        tally[r, 2, bets] += lo
                        tally[r, 3, bets] += RIVERS * DEALER_HANDS - w - lo
        play_sum[r] = total


@njit(cache=True)
def category_shares(first: int, stop: int, reps: np.ndarray, turn_bet: np.ndarray, river_bet: np.ndarray,
                    binom: np.ndarray, key: np.ndarray, rank5: np.ndarray, rank6: np.ndarray, flush_table: np.ndarray,
                    out: np.ndarray) -> None:
    """For starting hands ``first`` to ``stop - 1`` and each variant ``v`` (``turn_bet[v]``,
    ``river_bet[v]``: its decisions): ``out[r, street, category, 0]`` the flops (street 0) or
    turns (street 1) by the category of the player's best hand then; ``out[r, street, category,
    1 + v]`` those with a Turn (River) bet. Not weighted, and for every hand (played or not)."""
    cards = np.zeros(6, dtype=np.int64)
    variants = turn_bet.shape[0]
    for r in range(first, stop):
        h1, h2 = reps[r, 0], reps[r, 1]
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
                    flop = binom[a, 1] + binom[b, 2] + binom[c, 3]
                    out[r, 0, cat, 0] += 1
                    for v in range(variants):
                        if turn_bet[v, r, flop]:
                            out[r, 0, cat, 1 + v] += 1
                    for d in range(c + 1, 52):
                        if d == h1 or d == h2:
                            continue
                        cards[5] = d
                        cat = _value(cards, 6, key, rank6, flush_table) >> 20
                        node = _colex4(a, b, c, d, binom)
                        out[r, 1, cat, 0] += 1
                        for v in range(variants):
                            if river_bet[v, r, node]:
                                out[r, 1, cat, 1 + v] += 1


#: a turn node's counts are at most 46 rivers x 990 dealer hands = 45,540: two bytes each
COUNT_DTYPE = np.uint16


@dataclass(frozen=True)
class NodeCounts:
    """Each starting hand's turn nodes: dealer hands won and lost over the 46 rivers, and won
    with a hand whose Ante pays under each variant; arrays indexed [starting hand, node]
    (``COUNT_DTYPE``: read them as wider integers before any arithmetic)."""

    won: np.ndarray
    lost: np.ndarray
    won_qualified: dict[str, np.ndarray]


Step = Callable[[int], None]  # told the work done since it was last told (boards, or hands)


def count_nodes(reps: np.ndarray, step: Step | None = None, chunk: int = 1_200) -> NodeCounts:
    """Walk every board (the long part), about ``chunk`` boards per call of the kernel, telling
    ``step`` the boards done after each: between calls this process runs Python again, so a
    signal is handled within a chunk's time. The counts are then turned hand-major, one array at
    a time (the node-major one freed as its copy is made)."""
    if (reps & 2).any():
        raise ValueError("the board walk's mirror needs starting hands of suits 0 and 1 only")
    shape = (NODES, reps.shape[0])  # node-major: a board's nodes are short rows
    arrays = [np.zeros(shape, COUNT_DTYPE) for _ in range(4)]
    prefixes = board_prefixes()
    sizes = boards_after(prefixes)
    tables = (RANK_KEY, ranks(7), flush(), BINOM)
    for first, stop in runs(sizes, chunk):
        turn_nodes(prefixes[first:stop], reps, *tables, *arrays)
        if step is not None:
            step(int(sizes[first:stop].sum()))
    for i in range(len(arrays)):
        arrays[i] = np.ascontiguousarray(arrays[i].T)
    won, lost, straight, flushes = arrays
    return NodeCounts(won, lost, {"straight": straight, "flush": flushes})


def runs(sizes: np.ndarray, chunk: int) -> list[tuple[int, int]]:
    """Consecutive ``[first, stop)`` runs of items of these sizes, each about ``chunk`` in all
    (an item larger than ``chunk`` alone)."""
    out, first, total = [], 0, 0
    for i, size in enumerate(sizes):
        if total and total + int(size) > chunk:
            out.append((first, i))
            first, total = i, 0
        total += int(size)
    if first < len(sizes):
        out.append((first, len(sizes)))
    return out


@dataclass(frozen=True)
class Decisions:
    """One variant's optimal play: per starting hand the sum of results after a Flop bet, the
    Turn bet per flop, the River bet per turn node, the outcome tally, and each flop's values
    (``decide``)."""

    play_sum: np.ndarray  # int64[169]
    turn_bet: np.ndarray  # bool[169, FLOP_NODES]
    river_bet: np.ndarray  # bool[169, NODES]
    tally: np.ndarray  # int64[169, 4, 3]
    flop_y: np.ndarray  # int32[169, FLOP_NODES]: |47 x 45,540| at most
    flop_check: np.ndarray  # int32[169, FLOP_NODES]


def decisions(reps: np.ndarray, nodes: NodeCounts, variant: str, step: Step | None = None,
              turn_bet: np.ndarray | None = None, river_bet: np.ndarray | None = None) -> Decisions:
    """One variant's decisions, a starting hand per call of the kernel (``step`` told 1 after
    each); ``turn_bet`` and ``river_bet``: where to write them (else new arrays)."""
    n = reps.shape[0]
    play_sum = np.zeros(n, np.int64)
    turn_bet = np.zeros((n, FLOP_NODES), np.bool_) if turn_bet is None else turn_bet
    river_bet = np.zeros((n, NODES), np.bool_) if river_bet is None else river_bet
    tally = np.zeros((n, 4, 3), np.int64)
    flop_y, flop_check = np.zeros((n, FLOP_NODES), np.int32), np.zeros((n, FLOP_NODES), np.int32)
    qualified = nodes.won_qualified[variant]
    for r in range(n):
        decide(r, r + 1, reps, BINOM, nodes.won, nodes.lost, qualified, play_sum, turn_bet, river_bet, tally,
               flop_y, flop_check)
        if step is not None:
            step(1)
    return Decisions(play_sum, turn_bet, river_bet, tally, flop_y, flop_check)


def shares(reps: np.ndarray, turn_bet: np.ndarray, river_bet: np.ndarray, step: Step | None = None) -> np.ndarray:
    """``category_shares`` of every starting hand, one per call of the kernel; ``turn_bet`` and
    ``river_bet`` stacked by variant ([variant, hand, board])."""
    out = np.zeros((reps.shape[0], 2, 9, 1 + turn_bet.shape[0]), np.int64)
    for r in range(reps.shape[0]):
        category_shares(r, r + 1, reps, turn_bet, river_bet, BINOM, RANK_KEY, ranks(5), ranks(6), flush(), out)
        if step is not None:
            step(1)
    return out


__all__ = [
    "COUNT_DTYPE", "DEALER_HANDS", "FLOPS", "NODES", "RIVERS", "TURNS", "VARIANTS", "Decisions", "NodeCounts", "Step",
    "board_counts", "board_prefixes", "boards_after", "category_shares", "count_nodes", "decide", "decisions", "runs",
    "shares", "starting_hands", "turn_nodes",
]
