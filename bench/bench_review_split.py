"""Does review gain from a second process? ``review(..., parallel=False)`` (verify, parse,
reconstruct and check every round in one pass) against ``parallel=True`` (the verification in a
forked child while this process reads, parses, reconstructs and checks the rounds).

    python bench/bench_review_split.py                               # a 250,000-line log written first
    python bench/bench_review_split.py --dir /var/tmp/rb/1000000    # a log written by bench_review.py --keep

Prints, per run, the wall time and the CPU seconds (this process and its children) of each, and the
medians and ranges of the ratios split / one. ``tablectl review`` splits a log of
``engine.PARALLEL_BYTES`` or more, on this measure.
"""

from __future__ import annotations

import argparse
import gc
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_review import generate  # noqa: E402

from tablectl.eventlog import load_public_key  # noqa: E402
from tablectl.review.engine import review  # noqa: E402


def one(files: list[Path], key: Any) -> bool:
    return review(files, [key], rounds=lambda r: None, parallel=False).ok


def split(files: list[Path], key: Any) -> bool:
    return review(files, [key], rounds=lambda r: None, parallel=True).ok


def cpu() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", type=Path, default=None,
                    help="a directory holding log/ and keys/table.pub (default: a log of --lines written first)")
    ap.add_argument("--lines", type=int, default=250_000, help="the length of the log written when no --dir is given")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    if args.dir is not None:
        return compare(args.dir, args.repeat)
    made = Path(tempfile.mkdtemp(prefix="bench-review-split-"))
    try:
        generate(made, args.lines)
        return compare(made, args.repeat)
    finally:
        shutil.rmtree(made, ignore_errors=True)


def compare(directory: Path, repeat: int) -> int:
    """One and split, taking turns ``repeat`` times over the log in ``directory``."""
    files = sorted((directory / "log").glob("*.jsonl"))
    key = load_public_key(directory / "keys" / "table.pub")
    walls: dict[str, list[float]] = {"one": [], "split": []}
    cpus: dict[str, list[float]] = {"one": [], "split": []}
    for _ in range(repeat):
        for name, fn in (("one", one), ("split", split)):
            gc.collect()
            t0, c0 = time.perf_counter(), cpu()
            assert fn(files, key)
            walls[name].append(time.perf_counter() - t0)
            cpus[name].append(cpu() - c0)
            print(f"{name:>5}: {walls[name][-1]:.2f} s wall, {cpus[name][-1]:.2f} s CPU", flush=True)
    for what, values in (("wall", walls), ("CPU", cpus)):
        ratios = [s / o for s, o in zip(values["split"], values["one"], strict=True)]
        print(f"split / one, {what}: {statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
