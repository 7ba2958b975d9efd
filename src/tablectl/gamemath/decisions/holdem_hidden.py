"""Texas Hold'em Bonus Turn and River decisions valued exactly under many hidden-card hypotheses
at once (pure): ``values_many(options, sights, rules)``.

The sights of one decision differ only in what the player is supposed to have known besides his
own cards and the board: nothing more (his own information), one dealer hole card (``hole:K``),
both dealer cards read high or low (``edge``) or a partner's cards (``team:J``). Valued one at a
time (``decision_holdem.values``), each enumerates the boards left against the dealer's hands
again; here one walk (``holdem_hidden_kernel``) values every dealer hand once and keeps, per
board, the dealer hands won, tied and lost by how many high cards they hold and by which named
card they contain. Each hypothesis is then a sum over those counts: its own dealer hands
(``edge``: weighted by the orders of dealing that agree with the marks), those holding the seen
card (``hole:K``), or all less those holding a partner's card (``team:J``, by inclusion and
exclusion). The options' values follow in exact integers (the River bet chosen best per turn
card at the Turn decision) and are the same Fractions ``decision_holdem.values`` gives.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from tablectl.gamemath.decisions import holdem_hidden_kernel as kernel
from tablectl.gamemath.decisions.holdem import _nets, _tables
from tablectl.gamemath.decisions.sight import HIGH, LOW, DecisionValues, Sight, is_high
from tablectl.rules import texas_holdem_bonus as thb
from tablectl.rules.houserules import TexasHoldemBonusRules

_KINDS = {"own": kernel.OWN, "hole": kernel.HOLE, "edge": kernel.EDGE, "team": kernel.TEAM}


def _kind(sight: Sight, common: frozenset[int]) -> tuple[str, tuple[int, ...]] | None:
    """What ``sight`` knows beyond the shared cards: ("own", ()), ("hole", (card,)),
    ("edge", (high marks, low marks)), ("team", cards); None: a sight this walk does not take."""
    extra = tuple(c for c in sight.others if c not in common)
    dealer = sight.dealer
    if not dealer or all(c is None for c in dealer):
        return ("team", extra) if extra else ("own", ())
    if extra or len(dealer) != 2:
        return None
    known = [c for c in dealer if isinstance(c, int)]
    if len(known) == 1 and sum(c is None for c in dealer) == 1:
        return "hole", (known[0],)
    if all(c in (HIGH, LOW) for c in dealer):
        return "edge", (sum(c == HIGH for c in dealer), sum(c == LOW for c in dealer))
    return None


def _weights(marks: tuple[int, int]) -> np.ndarray:
    """Per dealer hand of 0, 1 or 2 high cards: the orders of dealing its two cards that agree
    with ``marks`` (high marks, low marks) -- as ``decision_holdem.board_counts`` weighs them."""
    want_high, want_low = marks
    out = np.zeros(3, dtype=np.int64)
    for h in range(3):
        w = 1
        for k in range(want_high):
            w *= h - k
        for k in range(want_low):
            w *= 2 - h - k
        out[h] = max(w, 0)
    return out


def _walk(free: np.ndarray, named: int, own: Sequence[int],
          board: Sequence[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, np.ndarray]:
    """The player's value of each board to come (``pv``), the dealer hands won, tied and lost
    against each (``counts[i, j, high, o]``) and those holding each of the first ``named`` free
    cards (``special[s, i, j, o]``); and the known board's rank-key sum and suit masks."""
    key, rank7, flush_table = _tables()
    r = 5 - len(board)
    width = len(free) if r == 2 else 1

    def masks(cards: Sequence[int]) -> tuple[int, np.ndarray]:
        m = np.zeros(4, dtype=np.int64)
        for c in cards:
            m[c & 3] |= 1 << (c >> 2)
        return int(sum(int(key[c >> 2]) for c in cards)), m

    own_base, own_masks = masks((*own, *board))
    board_base, board_masks = masks(board)
    pv = np.zeros((len(free), width), dtype=np.int32)
    kernel.player_values(free, r, own_base, own_masks, key, rank7, flush_table, pv)
    hi = np.array([1 if is_high(int(c)) else 0 for c in free], dtype=np.int64)
    counts = np.zeros((len(free), width, 3, 3), dtype=np.int64)
    special = np.zeros((named, len(free), width, 3), dtype=np.int64)
    if r == 2:
        won, tied = np.zeros((len(free), 3, len(free)), dtype=np.int32), np.zeros((len(free), 3, len(free)), dtype=np.int32)
        named_won = np.zeros((named, len(free), len(free)), dtype=np.int32)
        named_tied = np.zeros_like(named_won)
        kernel.count_turn(free, named, board_base, board_masks, pv, hi, key, rank7, flush_table, won, tied,
                          named_won, named_tied)
        kernel.turn_counts(hi, won, tied, named_won, named_tied, counts, special)
    else:
        kernel.count_river(free, board_base, board_masks, pv, hi, key, rank7, flush_table, counts)
        for p in range(named):
            kernel.count_named(free, p, board_base, board_masks, pv, key, rank7, flush_table, special[p])
    return pv, counts, special, board_base, board_masks


def values_many(options: tuple[str, ...], sights: Sequence[Sight],
                rules: TexasHoldemBonusRules) -> list[DecisionValues | None]:
    """Each sight's option values, for ``options`` (turn, check) or (river, check); every sight
    has the same own cards, board and earlier decisions. None for a sight this walk does not
    value (both dealer cards known, a mix of hidden information): value it alone."""
    out: list[DecisionValues | None] = [None] * len(sights)
    if not sights or thb.FLOP in options:
        return out
    first = sights[0]
    if any(s.own != first.own or s.board != first.board or s.made != first.made for s in sights):
        raise ValueError("the sights of one decision differ in own cards, board or earlier decisions")
    board = tuple(first.board)
    if len(board) not in (3, 4):
        raise ValueError(f"a Turn or River decision needs 3 or 4 board cards, got {len(board)}")
    common = frozenset(sights[0].others).intersection(*(s.others for s in sights[1:]))
    kinds = [_kind(s, common) for s in sights]
    shown = set(first.own) | set(board) | common
    unseen = [c for c in range(52) if c not in shown]
    for i, k in enumerate(kinds):  # a named card the player is said to have seen already
        if k is not None and k[0] in ("hole", "team") and any(c not in unseen for c in k[1]):
            kinds[i] = None
    if all(k is None for k in kinds):  # nothing this walk values (best_knowing_dealer's sight): no walk
        return out
    named = sorted({c for k in kinds if k is not None and k[0] in ("hole", "team") for c in k[1]})
    free = np.array(named + [c for c in unseen if c not in named], dtype=np.int64)  # the named cards first (special[s])
    position = {int(c): i for i, c in enumerate(free)}
    r = 5 - len(board)
    pv, counts, special, board_base, board_masks = _walk(free, len(named), first.own, board)
    key, rank7, flush_table = _tables()
    win, tie, loss, den = _nets(options, tuple(d for d in first.made if d != thb.CHECK), r == 1, rules.ante_pays_from)
    taken = [i for i, k in enumerate(kinds) if k is not None]
    kind = np.array([_KINDS[kinds[i][0]] for i in taken], dtype=np.int64)  # type: ignore[index]
    seen = np.full((len(taken), max([1] + [len(kinds[i][1]) for i in taken])), -1, dtype=np.int64)  # type: ignore[index]
    weights = np.zeros((len(taken), 3), dtype=np.int64)
    for h, i in enumerate(taken):
        name, what = kinds[i]  # type: ignore[misc]
        if name == "edge":
            weights[h] = _weights(what)  # type: ignore[arg-type]
        elif name in ("hole", "team"):
            seen[h, : len(what)] = [position[c] for c in what]
    totals = np.zeros((len(taken), len(options)), dtype=np.int64)
    weight = np.zeros(len(taken), dtype=np.int64)
    kernel.hypothesis_totals(r, free, board_base, board_masks, pv, counts, special, kind, seen, weights, key, rank7,
                             flush_table, win, tie, loss, totals, weight)
    for h, i in enumerate(taken):
        if weight[h]:
            scale = int(weight[h]) * den
            out[i] = DecisionValues({o: Fraction(int(totals[h, j]), scale) for j, o in enumerate(options)})
    return out


__all__ = ["values_many"]
