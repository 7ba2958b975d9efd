"""Benchmark the readers' check of a dataset against its manifests (``store.listed_parts``, what
``tablectl query`` and ``tablectl floor`` do before reading): with each file's SHA-256 checked and
without (the footer checks alone), side by side in one process, alternating.

    python bench/bench_dataset_check.py --dataset /srv/floor --repeat 20
    python bench/bench_dataset_check.py --per-game 4 --days 3 --rounds 60 --keep /tmp/floor   # makes one

Without ``--dataset`` a simulated floor (``tests/export/floorgen.py``) is played and exported
first (``--keep DIR``: there, and kept). Prints the files and bytes checked, then the median and
range of each way over the runs, the hashing's cost and its rate; ``--floor`` also times
``tablectl floor`` once (game math cached by a first run).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "export"))

from tablectl.analytics.dataset import store


def make(root: Path, per_game: int, days: int, rounds: int) -> Path:
    """A simulated floor played into *root* and exported to ``root/ds``."""
    from floorgen import make_floor

    floor = make_floor(root, per_game=per_game, days=days, rounds=rounds, plants=False, workers=2)
    dataset = root / "ds"
    subprocess.run([sys.executable, "-m", "tablectl", "export", *map(str, floor.logs.values()), "--to", str(dataset),
                    "--key", str(floor.public_key)], check=True, stdout=subprocess.DEVNULL)
    return dataset


def timed(dataset: Path, hashed: bool) -> float:
    """Seconds of one ``listed_parts`` of *dataset*, with the files' SHA-256 checked or not."""
    original = store.checked_footer
    if not hashed:
        store.checked_footer = lambda path, digest: original(path, None)  # type: ignore[assignment]
    try:
        t0 = time.perf_counter()
        store.listed_parts(dataset)
        return time.perf_counter() - t0
    finally:
        store.checked_footer = original  # type: ignore[assignment]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path, help="an exported dataset (default: make a simulated floor)")
    parser.add_argument("--per-game", type=int, default=4, help="tables a game of the floor made (default 4: 20 tables)")
    parser.add_argument("--days", type=int, default=3, help="days of the floor made (default 3)")
    parser.add_argument("--rounds", type=int, default=60, help="rounds a table a day of the floor made (default 60)")
    parser.add_argument("--keep", type=Path, help="make the floor here and keep it")
    parser.add_argument("--repeat", type=int, default=20, help="runs of each way (default 20)")
    parser.add_argument("--floor", action="store_true", help="also time tablectl floor once")
    args = parser.parse_args()
    tmp = None
    dataset = args.dataset
    if dataset is None:
        root = args.keep or Path(tmp := tempfile.mkdtemp(prefix="bench-dataset-check-"))
        dataset = make(root, args.per_game, args.days, args.rounds)
    try:
        files = [f for fs in store.listed_parts(dataset).values() for f in fs]
        size = sum(f.stat().st_size for f in files)
        print(f"{dataset}: {len(files)} files, {size / 2**20:.1f} MiB", flush=True)
        runs: dict[bool, list[float]] = {True: [], False: []}
        for _ in range(args.repeat):
            for hashed in (True, False):
                runs[hashed].append(timed(dataset, hashed))
        for hashed, label in ((True, "with SHA-256"), (False, "footers only")):
            t = runs[hashed]
            print(f"{label}: median {statistics.median(t) * 1e3:.0f} ms, range {min(t) * 1e3:.0f}-{max(t) * 1e3:.0f} ms")
        cost = statistics.median(runs[True]) - statistics.median(runs[False])
        print(f"hashing: {cost * 1e3:.0f} ms more ({statistics.median(runs[True]) / statistics.median(runs[False]):.2f}x), "
              f"{size / 2**20 / max(cost, 1e-9):.0f} MiB/s")
        if args.floor:
            command = [sys.executable, "-m", "tablectl", "floor", str(dataset)]
            subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)  # the game math cached
            t0 = time.perf_counter()
            subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            print(f"tablectl floor: {time.perf_counter() - t0:.2f} s")
    finally:
        if tmp is not None:
            shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
