"""Texas Hold'em Bonus's main game solved in steps: the board walk (``main.count_nodes``), each
Ante rule's decisions (``main.decisions``), the category shares its report reads
(``main.shares``) and the tallies its flop and turn rules are derived from
(``rules.tally_cells``), each a run of short numba calls.

Between two calls this process runs Python again: a signal (Ctrl-C, SIGTERM) is handled within
a fraction of a second, never after minutes of a kernel that cannot see it; and ``progress`` is
told the share of the whole solve done so far, for an ETA.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from tablectl.gamemath.holdem import main as hm
from tablectl.gamemath.holdem import rules as hr
from tablectl.gamemath.holdem.tables import RANK_KEY, flush, ranks

Progress = Callable[[float], None]  # the share of the solve done, 0 to 1

# each stage's share of the solve's CPU time (measured; only the ETA depends on them)
_WEIGHTS = {"boards": 0.68, "decisions": 0.08, "rules": 0.16, "shares": 0.08}


@dataclass(frozen=True)
class Solution:
    """The solve: the starting hands (representative cards, deals each stands for, names), the
    turn nodes' counts, per Ante rule (``hm.VARIANTS`` order) the decisions, the category
    counts (``main.category_shares``'s, per hand) and the flop and turn rules' tallies (per hand,
    ``rules.tally_cells``'s: the same for both Ante rules, whose bets add ``W - L`` alike)."""

    reps: np.ndarray
    weights: np.ndarray
    labels: list[str]
    nodes: hm.NodeCounts | None  # None unless kept (``solve``'s ``keep_nodes``)
    decisions: list[hm.Decisions]
    shares: np.ndarray  # int64[hand, street, category, 1 + variant]
    flop_tally: np.ndarray  # int64[hand, cell, 4]
    turn_tally: np.ndarray


class _Stages:
    """Turns each stage's steps into the share of the whole solve done, told to ``progress``."""

    def __init__(self, progress: Progress | None) -> None:
        self.progress, self.done = progress, 0.0

    def stage(self, name: str, size: int) -> hm.Step | None:
        if self.progress is None:
            return None
        per_item = _WEIGHTS[name] / size

        def step(items: int) -> None:
            self.done = min(1.0, self.done + per_item * items)
            assert self.progress is not None
            self.progress(self.done)

        return step


def solve(progress: Progress | None = None, *, keep_nodes: bool = False) -> Solution:
    """The whole solve (under a minute of CPU), ``progress`` told as it goes. The turn nodes'
    counts (the most memory) are let go as soon as they are read for the last time (the
    qualified wins after the decisions, the rest after the rules' tallies), unless
    ``keep_nodes`` (the strategy export reads them)."""
    stages = _Stages(progress)
    reps, weights, labels = hm.starting_hands()
    n = len(labels)
    nodes = hm.count_nodes(reps, stages.stage("boards", int(hm.boards_after(hm.board_prefixes()).sum())))
    variants = len(hm.VARIANTS)
    turn_bets = np.zeros((variants, n, hm.FLOP_NODES), np.bool_)
    river_bets = np.zeros((variants, n, hm.NODES), np.bool_)
    step = stages.stage("decisions", variants * n)
    found = [hm.decisions(reps, nodes, variant, step, turn_bets[v], river_bets[v]) for v, variant in enumerate(hm.VARIANTS)]
    if not keep_nodes:  # the qualified wins are the decisions' alone
        nodes = hm.NodeCounts(nodes.won, nodes.lost, {})
    flop_tally, turn_tally = _tallies(reps, nodes, found[0].flop_y, stages.stage("rules", 2 * n))
    kept = nodes if keep_nodes else None
    del nodes  # the most memory: let go before the shares' walk
    shares = hm.shares(reps, turn_bets, river_bets, stages.stage("shares", n))
    return Solution(reps, weights, labels, kept, found, shares, flop_tally, turn_tally)


def _tallies(reps: np.ndarray, nodes: hm.NodeCounts, flop_y: np.ndarray,
             step: hm.Step | None) -> tuple[np.ndarray, np.ndarray]:
    """The flop and turn rules' per-hand tallies: the Turn bet adds a flop's ``flop_y``, the
    River bet a turn node's ``W - L`` (made one hand at a time: never a whole array of them;
    int32, as ``flop_y``)."""
    out = []
    for n_cards, gain_of in ((3, lambda r: flop_y[r:r + 1]),
                             (4, lambda r: nodes.won[r:r + 1].astype(np.int32) - nodes.lost[r:r + 1])):
        tally = np.zeros((reps.shape[0], hr.CELLS, 4), np.int64)
        for r in range(reps.shape[0]):
            hr.tally_cells(reps[r:r + 1], n_cards, gain_of(r), hm.BINOM, RANK_KEY, ranks(n_cards + 2), flush(),
                           tally[r:r + 1])
            if step is not None:
                step(1)
        out.append(tally)
    return out[0], out[1]


__all__ = ["Progress", "Solution", "solve"]
