"""Texas Hold'em Bonus main game: the full exact analysis's time on this machine, and the share
of it spent in hand evaluation, measured side by side in one run.

    python bench/bench_thb_math.py [--repeat N]

Three timings, each repeated (median and range printed):
- ``board pass``: every C(52,5) board (with its mirror, suits 2 and 3 exchanged, counted once),
  the 169 starting hands' wins and ties counted and added to their turn nodes
  (``holdem_main.count_nodes``);
- ``evaluation only``: a walk of every board doing only its 1,081 evaluations (``rank_board``,
  the evaluation of the boards that hold a suit four times or more);
- ``decisions + rest``: both variants' optimal play from the turn nodes, the rules' tallies and
  the category shares (``holdem_solve``'s other stages).
The JIT compile is done once before timing.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from numba import njit

from tablectl.gamemath.holdem import main as hm
from tablectl.gamemath.holdem import solve as hsolve
from tablectl.gamemath.holdem.tables import RANK_KEY, flush, ranks


@njit(cache=True)
def evaluation_only(key: np.ndarray, rank7: np.ndarray, flush_table: np.ndarray) -> int:
    """Every board's 1,081 two-card hands ranked by the board pass's own code
    (``holdem_main.rank_board``), nothing counted (a checksum keeps it honest)."""
    check = 0
    board = np.zeros(5, dtype=np.int64)
    in_board = np.zeros(52, dtype=np.bool_)
    rest = np.empty(47, dtype=np.int64)
    values = np.zeros((52, 52), dtype=np.int32)
    every = np.empty(1081, dtype=np.int32)
    for c0 in range(52):
        for c1 in range(c0 + 1, 52):
            for c2 in range(c1 + 1, 52):
                for c3 in range(c2 + 1, 52):
                    for c4 in range(c3 + 1, 52):
                        board[0], board[1], board[2], board[3], board[4] = c0, c1, c2, c3, c4
                        hm.rank_board(board, key, rank7, flush_table, in_board, rest, values, every)
                        check ^= every[c4]
    return check


def timed(fn, repeat: int) -> list[float]:  # type: ignore[no-untyped-def]
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def show(name: str, times: list[float]) -> None:
    print(f"{name:22s} median {statistics.median(times):8.1f} s   range {min(times):.1f}-{max(times):.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    reps, _, labels = hm.starting_hands()
    rank7, flush_table = ranks(7), flush()
    # compile once (tiny inputs would not exercise the same paths: a real call each)
    zeros = hm.NodeCounts(*(np.zeros((1, hm.NODES), hm.COUNT_DTYPE) for _ in range(2)),
                          {"straight": np.zeros((1, hm.NODES), hm.COUNT_DTYPE)})
    hm.decisions(reps[:1], zeros, "straight")
    nodes: list[hm.NodeCounts] = []
    board = timed(lambda: nodes.append(hm.count_nodes(reps)), args.repeat)
    evals = timed(lambda: evaluation_only(RANK_KEY, rank7, flush_table), args.repeat)

    def decide_and_rest() -> None:
        n = len(labels)
        turn_bets = np.zeros((len(hm.VARIANTS), n, hm.FLOP_NODES), np.bool_)
        river_bets = np.zeros((len(hm.VARIANTS), n, hm.NODES), np.bool_)
        found = [hm.decisions(reps, nodes[-1], v, None, turn_bets[i], river_bets[i]) for i, v in enumerate(hm.VARIANTS)]
        hsolve._tallies(reps, nodes[-1], found[0].flop_y, None)
        hm.shares(reps, turn_bets, river_bets)

    rest = timed(decide_and_rest, args.repeat)
    show("board pass", board)
    show("evaluation only", evals)
    show("decisions + rest", rest)
    total = statistics.median(board) + statistics.median(rest)
    print(f"full analysis (median)  {total:8.1f} s")
    print(f"hand evaluation share   {statistics.median(evals) / total:8.1%} of the full analysis "
          f"({statistics.median(evals) / statistics.median(board):.1%} of the board pass)")


if __name__ == "__main__":
    main()
