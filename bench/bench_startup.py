"""Benchmark the start of ``tablectl config check``: whole processes, as a ratio to ``python -c pass``.

    python bench/bench_startup.py                       # 21 pairs, every shipped config, --simulate
    python bench/bench_startup.py --runs 5 --config config/tables/one-card-poker.toml

Each pair runs ``python -m tablectl config check CONFIG --simulate`` and ``python -c pass`` with the
same interpreter, one after the other (the order alternating), and takes the ratio of their wall
times pair by pair, so that the machine's speed drifting during the run moves both alike. Printed
per config: the median ratio and its range, and both commands' median wall time.

Goal (issue 23): ``config check`` starts in at most 5x ``python -c pass``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def wall(argv: list[str]) -> float:
    """Seconds from the process's start to its exit (its output thrown away)."""
    t0 = time.perf_counter()
    subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - t0


def pairs(check: list[str], base: list[str], runs: int) -> tuple[list[float], list[float]]:
    """``runs`` wall times of each, taken in alternating order after one warm-up of each."""
    wall(check)
    wall(base)
    a: list[float] = []
    b: list[float] = []
    for i in range(runs):
        if i % 2:
            b.append(wall(base))
            a.append(wall(check))
        else:
            a.append(wall(check))
            b.append(wall(base))
    return a, b


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="pairs per config (default 21)")
    parser.add_argument("--config", type=Path, action="append", help="a config (default: every shipped one)")
    args = parser.parse_args()
    configs = args.config or sorted((ROOT / "config" / "tables").glob("*.toml"))
    base = [sys.executable, "-c", "pass"]
    print(f"{'config':40} {'ratio median':>12} {'range':>15} {'check s':>8} {'pass s':>8}")
    for config in configs:
        check = [sys.executable, "-m", "tablectl", "config", "check", str(config), "--simulate"]
        a, b = pairs(check, base, args.runs)
        ratios = sorted(x / y for x, y in zip(a, b))
        print(f"{config.name:40} {statistics.median(ratios):12.2f} {ratios[0]:7.2f}-{ratios[-1]:<7.2f}"
              f" {statistics.median(a):8.3f} {statistics.median(b):8.3f}")


if __name__ == "__main__":
    main()
