"""Texas Hold'em Bonus with the dealer's hole cards seen: the cost of the exact count per unit
(a triple for one card seen, a pair of hands for both) and extrapolated to every canonical unit,
against bare hand evaluation, measured side by side in one run.

    python bench/bench_thb_hole_card.py [--units N] [--cards N] [--seed S]

For a seeded sample of N canonical triples and N canonical pairs, CPU and wall time (one core):
- ``one seen, per triple``: ``advantage_holdem.count_one_seen`` (every unseen dealer card and
  every board, one walk, the tree solved);
- ``both seen, per pair``: ``advantage_holdem.count_pair`` (every board, the tree solved);
- ``evaluation only, per pair``: the same board walk as a pair's, ranking player and dealer and
  nothing else (a checksum keeps it honest), the baseline: pair / evaluation is the price of the
  counting and the tree.
The full-deck estimate is each sample's mean CPU times its canonical units. The JIT compile is
done once before timing. ``--cards`` counts a deck of the highest N cards (a smoke run).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np
from numba import njit

from tablectl.gamemath.advantage import holdem as adv
from tablectl.gamemath.holdem.hole_card_kernel import _add, _hand
from tablectl.gamemath.holdem.tables import RANK_KEY, flush, ranks


@njit(cache=True)
def evaluation_only(deck: np.ndarray, h1: int, h2: int, d1: int, d2: int, key: np.ndarray, rank7: np.ndarray,
                    flush_table: np.ndarray) -> int:
    """Every board of the cards left, player and dealer ranked."""
    n = deck.shape[0]
    check = 0
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


def timed(run: Callable[[], object]) -> tuple[float, float]:
    c0, w0 = time.process_time(), time.perf_counter()
    run()
    return time.process_time() - c0, time.perf_counter() - w0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, default=4, help="canonical triples and pairs sampled (default 4 each)")
    parser.add_argument("--cards", type=int, default=52, help="deck size (the highest N cards; default 52)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not 9 <= args.cards <= 52:
        parser.error(f"--cards: {args.cards} is not between 9 and 52")
    deck = list(range(52 - args.cards, 52))
    triples, pairs = adv.canonical_triples(deck), adv.canonical_pairs(deck)
    rnd = random.Random(args.seed)
    some_triples = rnd.sample(triples, min(args.units, len(triples)))
    some_pairs = rnd.sample(pairs, min(args.units, len(pairs)))
    cards = np.array(deck, dtype=np.int64)
    position = {c: i for i, c in enumerate(deck)}
    key, rank7, flush_table = RANK_KEY, ranks(7), flush()
    adv.figures(list(range(42, 52)))  # compile everything before timing
    evaluation_only(np.array(range(42, 52), dtype=np.int64), 0, 1, 2, 3, key, rank7, flush_table)
    rows: dict[str, list[tuple[float, float]]] = {"one seen, per triple": [], "both seen, per pair": [],
                                                  "evaluation only, per pair": []}
    for rep, _ in some_triples:
        rows["one seen, per triple"].append(timed(lambda: adv.count_one_seen(deck, rep)))
    for rep, _ in some_pairs:
        rows["both seen, per pair"].append(timed(lambda: adv.count_pair(deck, rep)))
        at = [position[c] for c in rep]
        rows["evaluation only, per pair"].append(timed(lambda: evaluation_only(cards, *at, key, rank7, flush_table)))
    mean = {label: (sum(c for c, _ in t) / len(t), sum(w for _, w in t) / len(t)) for label, t in rows.items()}
    print(f"deck of {args.cards} cards, {len(some_triples)} of {len(triples):,} canonical triples and "
          f"{len(some_pairs)} of {len(pairs):,} canonical pairs (seed {args.seed}), mean:")
    for label, (cpu, wall) in mean.items():
        print(f"  {label:<26} cpu {cpu:8.3f} s   wall {wall:8.3f} s")
    pair_cpu, eval_cpu = mean["both seen, per pair"][0], mean["evaluation only, per pair"][0]
    print(f"  ratio pair / evaluation only: cpu {pair_cpu / eval_cpu:.2f}x" if eval_cpu else "  (too fast to time)")
    one, both = mean["one seen, per triple"][0] * len(triples), pair_cpu * len(pairs)
    print(f"  every canonical unit: one seen {one / 60:,.0f} + both seen {both / 60:,.0f} = "
          f"{(one + both) / 60:,.0f} CPU-minutes ({(one + both) / 3600:.1f} CPU-hours), one core")


if __name__ == "__main__":
    main()
