"""Time Three Card Poker's advantage-play counting against today's Ante & Play analysis, side by
side in the same run (``python bench/bench_advantage.py [--cards N] [--repeat R]``; ``--cards``:
count a deck of the first N cards in A-to-2 order, for a smoke run). Prints each median's CPU and
wall time and the ratio advantage / baseline: the price of the eight advantage figures (dealer
cards seen, edge sorting, one other hand seen) in units of the one figure ``tablectl math``
printed before them. Not a test: run by hand.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from tablectl.gamemath import three_card_poker
from tablectl.gamemath.advantage import threecard as advantage_threecard
from tablectl.gamemath.threecard import matchups
from tablectl.rules.hand3 import QUEEN_HIGH


def timed(run: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """Median (CPU, wall) seconds of ``repeat`` runs."""
    cpu, wall = [], []
    for _ in range(repeat):
        c0, w0 = time.process_time(), time.perf_counter()
        run()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return statistics.median(cpu), statistics.median(wall)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=52, help="deck size (the highest N cards; default 52)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if not 6 <= args.cards <= 52:
        parser.error(f"--cards: {args.cards} is not between 6 and 52")
    deck = list(range(52 - args.cards, 52))
    baseline = timed(lambda: three_card_poker.ante_play(deals=matchups(deck, [QUEEN_HIGH])), args.repeat)
    advantage = timed(lambda: advantage_threecard.ante_play(deck), args.repeat)
    print(f"deck of {args.cards} cards, median of {args.repeat}")
    for label, (cpu, wall) in (("today's Ante & Play (Q-6-4)", baseline), ("advantage figures (8)", advantage)):
        print(f"  {label:<30} cpu {cpu:8.3f} s   wall {wall:8.3f} s")
    print(f"  ratio advantage / baseline: cpu {advantage[0] / baseline[0]:.1f}x, wall {advantage[1] / baseline[1]:.1f}x")


if __name__ == "__main__":
    main()
