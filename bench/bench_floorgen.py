"""Benchmark the simulated floor's generation (``tests/export/floorgen.py``): the same floor
played one table after another and in parallel processes, side by side in the same run.

    python bench/bench_floorgen.py                          # 1 table a game, 1 day of 60 rounds
    python bench/bench_floorgen.py --per-game 3 --rounds 200 --workers 4 --repeat 3

Each run plays the floor into a fresh folder (the real controller, drivers and simulated devices
over ptys, the signed log), first with one process, then with ``--workers`` processes (one table
a process at a time). Prints per run the rounds/s of each and the ratio serial / parallel time
(how many times faster the parallel floor is made); then the median and range over the runs.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "export"))

from floorgen import make_floor  # noqa: E402


def timed(root: Path, per_game: int, rounds: int, workers: int) -> tuple[float, int]:
    """Seconds to play the floor into ``root`` with ``workers`` processes, and its rounds."""
    t0 = time.perf_counter()
    floor = make_floor(root, per_game=per_game, days=1, rounds=rounds, plants=False, workers=workers)
    return time.perf_counter() - t0, floor.rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-game", type=int, default=1, help="tables of each game (default 1: 5 tables)")
    parser.add_argument("--rounds", type=int, default=60, help="rounds a table (default 60)")
    parser.add_argument("--workers", type=int, default=4, help="processes of the parallel floor (default 4)")
    parser.add_argument("--repeat", type=int, default=1, help="runs (default 1)")
    args = parser.parse_args()
    ratios = []
    for run in range(args.repeat):
        with tempfile.TemporaryDirectory(prefix="bench-floorgen-") as tmp:
            serial, rounds = timed(Path(tmp) / "serial", args.per_game, args.rounds, 1)
            shutil.rmtree(Path(tmp) / "serial")
            parallel, _ = timed(Path(tmp) / "parallel", args.per_game, args.rounds, args.workers)
        ratios.append(serial / parallel)
        print(f"run {run + 1}: {rounds} rounds; 1 process {serial:.1f} s ({rounds / serial:.0f} rounds/s); "
              f"{args.workers} processes {parallel:.1f} s ({rounds / parallel:.0f} rounds/s); "
              f"serial / parallel {ratios[-1]:.2f}x", flush=True)
    print(f"serial / parallel: median {statistics.median(ratios):.2f}x, range {min(ratios):.2f}-{max(ratios):.2f}x "
          f"over {len(ratios)} runs")


if __name__ == "__main__":
    main()
