"""Benchmark ``tablectl export`` at several log lengths: time against a bare parse of the same log,
peak memory against the shortest log's, and a re-export after the log grew 1% against the first
export, each a ratio taken side by side in the same run.

    python bench/bench_export.py                                  # 250k, 1M, 4M lines in a temp dir
    python bench/bench_export.py --sizes 250000,1000000 --dir /var/tmp/eb --keep   # keep (and reuse) the logs

Each log is played by the real table logic and written by the real writer, as for
``bench_review.py`` (One Card Poker, 7 seats, signed checkpoints every 1000 lines): ``base`` holds
N lines; ``grown`` is the same log after the table restarted and played 1% more (a new session in
a new file, the chain going on).

Per size:

- **peak RSS** of ``tablectl export BASE --to DATASET --key PUB`` in its own process (``ru_maxrss``
  of the child), and its ratio to that of the first size;
- **timed** in this process, ``--repeat`` rounds, the contestants taking turns on the page-cached
  files, garbage collected before each: the bare parse (read, split lines, ``orjson.loads`` each);
  the review alone (``review(base, key)`` with a sink that drops each round: verify, parse,
  reconstruct and replay every round, what every export does before it makes a row); the first
  export of ``base`` into a fresh dataset; the re-export of ``grown`` into that dataset (1% new
  lines); the re-export of ``grown`` again (nothing new). Printed: export / parse, grown re-export /
  first export and nothing-new re-export / first export, each as the median and range over the
  rounds; then, in CPU time (this process and its forked verifier, steadier than wall time on a
  shared machine), export / parse, review / parse and export / review: the review is the floor
  under any export, the rest is making and writing the rows.

``--split`` adds a contestant: the review with the export's rows made as it reads (the lines and
rounds it hands on), none written; the export's CPU is then printed in three parts over the parse:
the review, the rows made (that contestant less the review) and the writing (the export less that
contestant: Arrow columns, Parquet, the files' digests and marks, the manifest).

Goals (issue 24): export <= 4x the parse; peak RSS at 4M lines <= 1.25x that at 250k; the re-export
of 1% new lines <= 0.1x the first export.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_review import generate, interleaved, peak_rss, ratios  # noqa: E402

from tablectl.analytics.dataset.store import PartWriter  # noqa: E402
from tablectl.analytics.export.rows import Extractor  # noqa: E402
from tablectl.analytics.export.table import export_table  # noqa: E402
from tablectl.eventlog.keys import load_private_key, load_public_key  # noqa: E402
from tablectl.eventlog.trust import Trust  # noqa: E402
from tablectl.review.engine import review  # noqa: E402

TABLE = "B1"  # the bench table's name (``bench_review.generate``)


def bare_parse(files: list[Path]) -> int:
    """Read the files, split their lines, ``orjson.loads`` each: the floor of any export."""
    n = 0
    loads = orjson.loads
    for path in files:
        with open(path, "rb") as f:
            rest = b""
            while chunk := f.read(1 << 20):
                parts = (rest + chunk).split(b"\n")
                rest = parts.pop()
                for line in parts:
                    loads(line)
                    n += 1
    return n


class Dropped(PartWriter):
    """A writer that drops every row it is given: the export's rows made, none written."""

    def add_values(self, dataset: str, date: str, values: object) -> None:
        pass


def rows_made(files: list[Path], key: object, root: Path) -> None:
    """What an export does before it writes: the review, with the rows made from what it reads."""
    rows = Extractor(TABLE, Dropped(root, TABLE, 1), 0, Dropped(root, TABLE, 1, prefix="open"))
    report = review(files, Trust.of([key]), rounds=rows.round, lines=rows.lines)  # type: ignore[list-item]
    rows.finish(report)


def make_logs(d: Path, size: int) -> tuple[list[Path], list[Path], Path]:
    """``base`` (``size`` lines) and ``grown`` (1% more) under *d*, made once and reused."""
    base, grown = d / "base", d / "grown"
    if not (grown / "log").exists():
        shutil.rmtree(d, ignore_errors=True)
        generate(base, size)
        shutil.copytree(base, grown)
        generate(grown, size + size // 100, seed=2, key=load_private_key(grown / "keys" / "table.key"))
    return sorted((base / "log").glob("*.jsonl")), sorted((grown / "log").glob("*.jsonl")), base / "keys" / "table.pub"


def ratio_text(xs: list[float]) -> str:
    return f"{statistics.median(xs):.3f}x ({min(xs):.3f}-{max(xs):.3f})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="250000,1000000,4000000", help="log lengths in lines, comma-separated")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dir", type=Path, default=None, help="where the logs go (reused if present)")
    ap.add_argument("--keep", action="store_true", help="keep the logs")
    ap.add_argument("--no-rss", action="store_true", help="skip the peak-RSS child runs")
    ap.add_argument("--split", action="store_true", help="also time the rows made but not written (see above)")
    args = ap.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    root = args.dir or Path(tempfile.mkdtemp(prefix="bench-export-"))
    root.mkdir(parents=True, exist_ok=True)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, logs in {root}")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    first_rss: int | None = None
    try:
        print(f"{'lines':>10} {'MB':>5} {'RSS':>8} {'x first':>7}   {'export / parse':>22} "
              f"{'re-export +1% / export':>22} {'nothing new / export':>22}", flush=True)
        for size in sizes:
            d = root / str(size)
            base, grown, pub = make_logs(d, size)
            mb = sum(p.stat().st_size for p in base) / 1e6
            rss = 0
            if not args.no_rss:
                target = d / "ds-rss"
                shutil.rmtree(target, ignore_errors=True)
                rss = peak_rss([sys.executable, "-m", "tablectl", "export", str(base[0].parent), "--to", str(target),
                                "--key", str(pub)])
                shutil.rmtree(target, ignore_errors=True)
                first_rss = first_rss or rss
            key = load_public_key(pub)
            target = d / "ds"

            def first() -> None:
                shutil.rmtree(target, ignore_errors=True)
                r = export_table(TABLE, base, target, [key])
                assert r.refused is None, r.refused

            def again() -> None:
                r = export_table(TABLE, grown, target, [key])
                assert r.refused is None, r.refused

            def review_alone() -> None:
                review(base, Trust.of([key]), rounds=lambda rnd: None)

            contestants = {"parse": lambda: bare_parse(base), "review": review_alone, "export": first,
                           "grown": again, "nothing": again}
            if args.split:
                contestants["made"] = lambda: rows_made(base, key, target)
            times, cpu = interleaved(contestants, args.repeat)
            shutil.rmtree(target, ignore_errors=True)
            export = ratios(times["export"], times["parse"])
            grew = ratios(times["grown"], times["export"])
            same = ratios(times["nothing"], times["export"])
            rss_text = f"{rss / 1024:>4.0f} MiB {rss / first_rss:>6.2f}x" if first_rss else f"{'-':>8} {'-':>7}"
            print(f"{size:>10,} {mb:>5.0f} {rss_text}   {ratio_text(export):>22} {ratio_text(grew):>22} "
                  f"{ratio_text(same):>22}", flush=True)
            review_wall = ratios(times["review"], times["parse"])
            print(f"{'':>10} review alone / parse: {ratio_text(review_wall)}", flush=True)
            export_cpu = ratios(cpu["export"], cpu["parse"])
            review_cpu = ratios(cpu["review"], cpu["parse"])
            over_review = ratios(cpu["export"], cpu["review"])
            print(f"{'':>10} in CPU time (this process and the verifier it forks): export / parse "
                  f"{ratio_text(export_cpu)}, review alone / parse {ratio_text(review_cpu)}, export / review "
                  f"{ratio_text(over_review)}", flush=True)
            if args.split:
                made = [m - r for m, r in zip(cpu["made"], cpu["review"], strict=True)]
                written = [e - m for e, m in zip(cpu["export"], cpu["made"], strict=True)]
                print(f"{'':>10} export's CPU split, over the parse: review {ratio_text(review_cpu)}, rows made "
                      f"{ratio_text(ratios(made, cpu['parse']))}, writing {ratio_text(ratios(written, cpu['parse']))}",
                      flush=True)
        print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}  (the machine is shared: "
              "ratios are taken run by run, side by side)")
    finally:
        if not args.keep and args.dir is None:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
