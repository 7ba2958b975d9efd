"""Benchmark and power study of the shuffle-quality analytics.

    python bench/bench_shuffle_quality.py              # time per 1,000 shuffles / 10,000 CSM events
    python bench/bench_shuffle_quality.py --power      # + detection table (verdict counts, mean figure)
    python bench/bench_shuffle_quality.py --power --repeats 50 --shuffles 200

Timing: each analysis over 1,000 logged 52-card shuffles (input known), and the re-entry test over
a 6-deck CSM stream of about 10,000 events (best of 3).

Power: for each reference shuffler (``tablectl.review.shuffle.models``), ``--repeats`` independent
batches of ``--shuffles`` shuffles (fixed seeds 0..repeats-1) go through the position and guessing
tests; CSM streams of ``--rounds`` rounds go through the re-entry test. Prints how many batches
passed / warned / failed and the mean figure.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable

from tablectl.review.shuffle.reentry import reentry_test
from tablectl.review.shuffle.common import ObservedShuffle, QualityResult
from tablectl.review.shuffle.guessing import guessing_test
from tablectl.review.shuffle.models import riffles, shelf_shuffle, simulate_csm, uniform_shuffle
from tablectl.review.shuffle.positions import position_test

DECK = list(range(52))
Shuffler = Callable[[list[int], random.Random], list[int]]


def shufflers() -> dict[str, Shuffler]:
    out: dict[str, Shuffler] = {"uniform (random.shuffle)": uniform_shuffle}
    for k in (1, 2, 3, 4, 5, 6, 7, 8):
        out[f"{k} GSR riffle{'s' if k > 1 else ''}"] = lambda d, rng, k=k: riffles(d, k, rng)
    out["shelf, 10 shelves, 1 pass"] = lambda d, rng: shelf_shuffle(d, rng, 10, 1)
    out["shelf, 10 shelves, 2 passes"] = lambda d, rng: shelf_shuffle(d, rng, 10, 2)
    return out


def best_of(fn: Callable[[], object], repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def timing(shuffles: int = 1000, csm_rounds: int = 500) -> None:
    rng = random.Random(1)
    batch = [ObservedShuffle(uniform_shuffle(DECK, rng), DECK) for _ in range(shuffles)]
    events = simulate_csm(random.Random(2), decks=6, rounds=csm_rounds)
    print(f"position test, {shuffles:,} shuffles: {best_of(lambda: position_test(batch)) * 1000:.0f} ms")
    print(f"guessing test, {shuffles:,} shuffles: {best_of(lambda: guessing_test(batch)) * 1000:.0f} ms")
    print(f"re-entry test, {len(events):,} CSM events (6 decks): {best_of(lambda: reentry_test(events, decks=6)) * 1000:.0f} ms")


def summarise(results: list[QualityResult]) -> str:
    v = Counter(r.verdict for r in results)
    figures = [r.figure for r in results if r.figure is not None]
    mean = statistics.fmean(figures) if figures else float("nan")
    return f"pass {v['pass']:>3} warn {v['warn']:>3} fail {v['fail']:>3}  figure {mean:6.3f}"


def power(repeats: int, shuffles: int, rounds: int) -> None:
    print(f"\n{repeats} batches of {shuffles} shuffles each (52 cards, input known: new-deck order)")
    print(f"{'shuffler':30s} | {'position chi-square (figure = chi2/df)':44s} | guessing (figure = correct per deck)")
    for name, shuffle in shufflers().items():
        pos, guess = [], []
        for seed in range(repeats):
            rng = random.Random(seed)
            batch = [ObservedShuffle(shuffle(DECK, rng), DECK) for _ in range(shuffles)]
            pos.append(position_test(batch))
            guess.append(guessing_test(batch))
        print(f"{name:30s} | {summarise(pos):44s} | {summarise(guess)}")
    print(f"\n{repeats} CSM streams of {rounds} rounds (re-entry test; figure = early re-dispense share)")
    for decks in (1, 6):
        for mode, lag in (("uniform", None), ("near_exit", 8), ("near_exit", None), ("far_from_exit", None)):
            results = [
                reentry_test(simulate_csm(random.Random(seed), decks=decks, rounds=rounds, mode=mode, lag=lag), decks=decks)  # type: ignore[arg-type]
                for seed in range(repeats)
            ]
            label = f"{decks} deck{'s' if decks > 1 else ''}, {mode}" + (f" (lag {lag})" if lag else "")
            expected = statistics.fmean(r.expected for r in results if r.expected is not None)
            print(f"{label:36s} | {summarise(results)}  expected {expected:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--power", action="store_true", help="also run the detection-power study")
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--shuffles", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--timing-shuffles", type=int, default=1000, help="shuffles of the timing runs")
    parser.add_argument("--timing-rounds", type=int, default=500, help="CSM rounds of the re-entry timing")
    args = parser.parse_args()
    timing(args.timing_shuffles, args.timing_rounds)
    if args.power:
        power(args.repeats, args.shuffles, args.rounds)


if __name__ == "__main__":
    main()
