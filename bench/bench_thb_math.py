"""Texas Hold'em Bonus main game: the full exact analysis's time on this machine, and the share
of it spent in hand evaluation, measured side by side in one run.

    python bench/bench_thb_math.py [--repeat N]

Three timings, each repeated (median and range printed):
- ``board pass``: every C(52,5) board, 1,081 hands ranked per board, the 169 starting hands'
  wins and ties counted and added to their turn nodes (``holdem_main.turn_nodes``);
- ``evaluation only``: the same walk doing only the 1,081 evaluations per board (the share of
  the board pass that is hand evaluation is this over that);
- ``decisions + report``: both variants' optimal play from the turn nodes, and the reports.
The JIT compile is done once before timing.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from numba import njit

from tablectl.gamemath.holdem import main as hm
from tablectl.gamemath.holdem import strategy as hs
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
    reps, weights, labels = hm.starting_hands()
    rank7, flush_table = ranks(7), flush()
    # compile once (tiny inputs would not exercise the same paths: a real call each)
    small = reps[:1]
    hm.decide(small, hm.BINOM, np.zeros((1, hm.NODES), np.int32), np.zeros((1, hm.NODES), np.int32),
              np.zeros((1, hm.NODES), np.int32), np.zeros(1, np.int64), np.zeros((1, hm.FLOP_NODES), np.bool_),
              np.zeros((1, hm.NODES), np.bool_), np.zeros((1, 4, 3), np.int64))
    nodes: list[hm.NodeCounts] = []
    board = timed(lambda: nodes.append(hm.count_nodes(reps)), args.repeat)
    evals = timed(lambda: evaluation_only(RANK_KEY, rank7, flush_table), args.repeat)

    def decide_and_report() -> None:
        for variant in hm.VARIANTS:
            hs.report(variant, reps, weights, labels, hm.decisions(reps, nodes[-1], variant))

    rest = timed(decide_and_report, args.repeat)
    show("board pass", board)
    show("evaluation only", evals)
    show("decisions + report", rest)
    total = statistics.median(board) + statistics.median(rest)
    print(f"full analysis (median)  {total:8.1f} s")
    print(f"hand evaluation share   {statistics.median(evals) / total:8.1%} of the full analysis "
          f"({statistics.median(evals) / statistics.median(board):.1%} of the board pass)")


if __name__ == "__main__":
    main()
