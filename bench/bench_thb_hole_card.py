"""Texas Hold'em Bonus with the dealer's hole cards seen: the cost of the exact count, per triple
(the player's two cards and the seen dealer card) and extrapolated to every canonical triple, with
its share that is hand evaluation, measured side by side in one run.

    python bench/bench_thb_hole_card.py [--triples N] [--cards N] [--seed S]

For a seeded sample of canonical triples, two timings each (CPU and wall, single core):
- ``count``: ``advantage_holdem.count_triple``, the whole exact count of the triple (every
  unseen dealer card, every board, both trees solved);
- ``evaluation only``: the same board walks ranking player and dealer and nothing else (a
  checksum keeps it honest), the baseline: count / evaluation is the price of the counting.
The full-deck estimate is the sample's mean CPU per triple times the canonical triples. The JIT
compile is done once before timing. ``--cards`` counts a deck of the highest N cards (a smoke run).
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
from numba import njit

from tablectl.gamemath import advantage_holdem as adv
from tablectl.gamemath.holdem_hole_card_kernel import _add, _hand
from tablectl.gamemath.holdem_tables import RANK_KEY, flush, ranks


@njit(cache=True)
def evaluation_only(deck: np.ndarray, h1: int, h2: int, d1: int, key: np.ndarray, rank7: np.ndarray,
                    flush_table: np.ndarray) -> int:
    """Every board for every unseen dealer card of the triple, player and dealer ranked."""
    n = deck.shape[0]
    check = 0
    for d2 in range(n):
        if d2 == h1 or d2 == h2 or d2 == d1:
            continue
        cards = np.array([p for p in range(n) if p != h1 and p != h2 and p != d1 and p != d2], dtype=np.int64)
        k = cards.shape[0]
        for i0 in range(k - 4):
            for i1 in range(i0 + 1, k - 3):
                for i2 in range(i1 + 1, k - 2):
                    for i3 in range(i2 + 1, k - 1):
                        for i4 in range(i3 + 1, k):
                            base = 0
                            m0 = m1 = m2 = m3 = 0
                            for i in (i0, i1, i2, i3, i4):
                                c = deck[cards[i]]
                                base += key[c >> 2]
                                m0, m1, m2, m3 = _add(m0, m1, m2, m3, c)
                            pv = _hand(base, m0, m1, m2, m3, deck[h1], deck[h2], rank7, flush_table, key)
                            dv = _hand(base, m0, m1, m2, m3, deck[d1], deck[d2], rank7, flush_table, key)
                            check ^= pv - dv
    return check


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--triples", type=int, default=4, help="canonical triples sampled (default 4)")
    parser.add_argument("--cards", type=int, default=52, help="deck size (the highest N cards; default 52)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not 9 <= args.cards <= 52:
        parser.error(f"--cards: {args.cards} is not between 9 and 52")
    deck = list(range(52 - args.cards, 52))
    reps = adv.canonical_triples(deck)
    sample = random.Random(args.seed).sample(reps, min(args.triples, len(reps)))
    cards = np.array(deck, dtype=np.int64)
    position = {c: i for i, c in enumerate(deck)}
    key, rank7, flush_table = RANK_KEY, ranks(7), flush()
    small = list(range(40, 52))
    adv.count_triple(small, (40, 41, 42))  # compile both before timing
    evaluation_only(np.array(small, dtype=np.int64), 0, 1, 2, key, rank7, flush_table)
    totals = {"count": [0.0, 0.0], "evaluation only": [0.0, 0.0]}
    for rep, _ in sample:
        h1, h2, d1 = (position[c] for c in rep)
        for label, run in (("count", lambda: adv.count_triple(deck, rep)),
                           ("evaluation only", lambda: evaluation_only(cards, h1, h2, d1, key, rank7, flush_table))):
            c0, w0 = time.process_time(), time.perf_counter()
            run()
            totals[label][0] += time.process_time() - c0
            totals[label][1] += time.perf_counter() - w0
    n = len(sample)
    print(f"deck of {args.cards} cards, {n} of {len(reps):,} canonical triples (seed {args.seed}), per triple:")
    for label, (cpu, wall) in totals.items():
        print(f"  {label:<16} cpu {cpu / n:8.3f} s   wall {wall / n:8.3f} s")
    count_cpu, eval_cpu = totals["count"][0], totals["evaluation only"][0]
    print(f"  ratio count / evaluation only: cpu {count_cpu / eval_cpu:.2f}x")
    full = count_cpu / n * len(reps)
    print(f"  every canonical triple: {full / 60:,.0f} CPU-minutes ({full / 3600:.1f} CPU-hours), single core")


if __name__ == "__main__":
    main()
