"""Benchmark ``tablectl export``: export throughput against a bare ``orjson.loads`` of the same
log files, side by side in the same run.

    python bench/bench_export.py                          # a 5-table floor, 1 day of 300 rounds each
    python bench/bench_export.py --rounds 1000 --dir /var/tmp/fb --keep   # keep (and reuse) the logs

The logs are played by the real controller on simulated devices (``tests/export/floorgen.py``:
every game, the virtual dealer, signed and verifiable). Timed, the contestants taking turns on the
page-cached files, garbage collected before each run, ``--repeat`` rounds:

- bare parse: read each table's files, split lines, ``orjson.loads`` on every line;
- export: ``tablectl.analytics.export.export_table`` into a fresh dataset: review (verify,
  reconstruct, replay, anomalies, shuffle quality), the rows, Parquet files and manifest;
- re-export: the same logs again into that dataset (nothing new: verify and review, nothing written).

Prints per run the lines/s of each and the ratios export / parse and re-export / parse; then the
median and range over the runs.
"""

from __future__ import annotations

import argparse
import gc
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "export"))

from floorgen import make_floor  # noqa: E402

from tablectl.analytics.export import export_table, logs_by_table  # noqa: E402
from tablectl.eventlog.keys import load_public_key  # noqa: E402


def bare_parse(files: list[Path]) -> int:
    n = 0
    loads = orjson.loads
    for path in files:
        with open(path, "rb") as f:
            for line in f.read().splitlines():
                loads(line)
                n += 1
    return n


def timed(fn) -> float:  # type: ignore[no-untyped-def]
    gc.collect()
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=300, help="rounds per table (one table per game)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--dir", type=Path, default=None, help="where the logs go (reused if present)")
    ap.add_argument("--keep", action="store_true", help="keep the logs")
    args = ap.parse_args()
    base = args.dir or Path(tempfile.mkdtemp(prefix="bench-export-"))
    try:
        if not (base / "keys" / "table.pub").exists():
            t = time.perf_counter()
            make_floor(base, per_game=1, days=1, rounds=args.rounds)
            print(f"played {args.rounds} rounds at each of 5 tables in {time.perf_counter() - t:.1f} s")
        key = load_public_key(base / "keys" / "table.pub")
        tables = logs_by_table(sorted((base / "logs").iterdir()))
        files = [f for fs in tables.values() for f in fs]
        lines = bare_parse(files)
        size = sum(f.stat().st_size for f in files)
        print(f"{len(tables)} tables, {len(files)} files, {lines:,} lines, {size / 1e6:.1f} MB")
        ratios, again = [], []
        for run in range(args.repeat):
            target = base / f"ds-{run}"
            shutil.rmtree(target, ignore_errors=True)
            parse = timed(lambda: bare_parse(files))
            export = timed(lambda: [export_table(t, fs, target, [key]) for t, fs in tables.items()])  # noqa: B023
            reexport = timed(lambda: [export_table(t, fs, target, [key]) for t, fs in tables.items()])  # noqa: B023
            ratios.append(export / parse)
            again.append(reexport / parse)
            print(f"run {run + 1}: parse {lines / parse:,.0f} lines/s; export {lines / export:,.0f} lines/s "
                  f"({export / parse:.2f}x parse); re-export {reexport / parse:.2f}x parse")
            shutil.rmtree(target)
        for name, xs in (("export / parse", ratios), ("re-export / parse", again)):
            print(f"{name}: median {statistics.median(xs):.2f}x (range {min(xs):.2f}-{max(xs):.2f}) over {len(xs)} runs")
    finally:
        if not args.keep and args.dir is None:
            shutil.rmtree(base)


if __name__ == "__main__":
    main()
