"""Benchmark the event log: append cost, group-commit write rate, verify vs a bare orjson parse.

    python bench/bench_log.py                 # 1,000,000 events in a temporary directory
    python bench/bench_log.py --events 200000 --dir /var/tmp/logbench --keep

Prints:
- append: µs per line for ``EventLog.append`` alone (structlog chain + orjson + BLAKE2b, no I/O);
- write: events/s with a commit (one write + one fsync) every 64 appends, on the real disk,
  measured over ``--fsync-events`` events; the cost of one commit;
- the 1M-event log is then written with commits every 64 but without fsync (so the bench does
  not take minutes on slow disks), in one file (rotate="never"), checkpoint every 1000;
- verify: events/s of ``tablectl.eventlog.verify`` (chain, seq, signatures, end) over that log;
- bare parse: reading the same file in the same chunks and ``orjson.loads`` on every line;
- the ratio verify / bare parse (target: <= 2.0) and verify events/s (target: >= 300,000).
Each timed read is the best of ``--repeat`` runs, bare parse and verify taking turns (the file is
in the page cache after the first).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import orjson

from tablectl.eventlog import EventLog, generate_key
from tablectl.eventlog.verify import verify

SEATS = ("seat:1", "seat:2", "seat:3", "seat:4", "seat:5", "seat:6", "dealer", "burn")
CARDS = [r + s for r in "23456789TJQKA" for s in "SHDC"]


def write_events(log: EventLog, n: int, start_event_no: int, group: int) -> None:
    append, commit = log.append, log.commit
    for i in range(n):
        e = start_event_no + i
        append("card_dealt", shoe=1 + e // 300, round=e // 12, card=CARDS[e % 52], to=SEATS[e % 8],
               device="shoe-1", event_no=e, penetration=round((e % 300) / 312, 4))
        if i % group == group - 1:
            commit()
    commit()


def bare_parse(path: Path) -> int:
    n = 0
    loads = orjson.loads
    with open(path, "rb") as f:
        rest = b""
        while chunk := f.read(1 << 20):
            parts = (rest + chunk).split(b"\n")
            rest = parts.pop()
            for line in parts:
                loads(line)
                n += 1
    return n


def best_of_interleaved(fns: dict, repeat: int) -> dict:
    """Best time of each function over *repeat* rounds, the functions taking turns (so that a
    burst of load on a shared machine does not fall on one of them only)."""
    times: dict = {name: [] for name in fns}
    results: dict = {}
    for _ in range(repeat):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            results[name] = fn()
            times[name].append(time.perf_counter() - t0)
    return {name: (min(t), results[name]) for name, t in times.items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--events", type=int, default=1_000_000)
    ap.add_argument("--fsync-events", type=int, default=20_000, help="events written with real fsync")
    ap.add_argument("--group", type=int, default=64, help="appends per commit")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--dir", type=Path, default=None, help="where to write (default: a temp dir)")
    ap.add_argument("--keep", action="store_true", help="keep the log directory")
    args = ap.parse_args()

    root = args.dir or Path(tempfile.mkdtemp(prefix="tablectl-bench-"))
    root.mkdir(parents=True, exist_ok=True)
    key = generate_key()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, log in {root}")
    try:
        # 1. append alone (no commit inside the timed loop)
        d1 = root / "append"
        with EventLog(d1, "B1", signing_key=key, rotate="never", fsync=False) as log:
            n = 100_000
            t0 = time.perf_counter()
            for i in range(n):
                log.append("card_dealt", shoe=1, round=i // 12, card=CARDS[i % 52], to=SEATS[i % 8],
                           device="shoe-1", event_no=i + 1, penetration=0.5)
                if i % 1000 == 999:
                    log._buffer.clear(), log._pending.clear()  # drop, unwritten: memory stays flat
            append_us = (time.perf_counter() - t0) / n * 1e6
        print(f"append:            {append_us:6.2f} µs/line (includes a signed checkpoint every 1000)")

        # 2. group commit with real fsync
        d2 = root / "fsync"
        with EventLog(d2, "B2", signing_key=key, rotate="never", fsync=True) as log:
            commits: list[float] = []
            t0 = time.perf_counter()
            for i in range(args.fsync_events):
                log.append("card_dealt", shoe=1, round=i // 12, card=CARDS[i % 52], to=SEATS[i % 8],
                           device="shoe-1", event_no=i + 1, penetration=0.5)
                if i % args.group == args.group - 1:
                    c0 = time.perf_counter()
                    log.commit()
                    commits.append(time.perf_counter() - c0)
            log.commit()
            elapsed = time.perf_counter() - t0
        print(f"write + fsync:     {args.fsync_events / elapsed:10,.0f} events/s (commit every {args.group}); "
              f"commit median {statistics.median(commits) * 1e3:.2f} ms, p99 "
              f"{sorted(commits)[int(len(commits) * 0.99)] * 1e3:.2f} ms")

        # 3. the big log
        d3 = root / "big"
        t0 = time.perf_counter()
        with EventLog(d3, "B3", signing_key=key, rotate="never", fsync=False, checkpoint_every=1000) as log:
            write_events(log, args.events, 1, args.group)
        elapsed = time.perf_counter() - t0
        files = sorted(p for p in d3.iterdir() if p.suffix == ".jsonl")
        size = sum(p.stat().st_size for p in files)
        print(f"write (no fsync):  {args.events / elapsed:10,.0f} events/s; {len(files)} file, {size / 1e6:.0f} MB")

        timed = best_of_interleaved(
            {"bare": lambda: sum(bare_parse(p) for p in files), "verify": lambda: verify([d3], key.public_key())},
            args.repeat,
        )
        (t_bare, lines), (t_verify, report) = timed["bare"], timed["verify"]
        assert report.ok and report.clean, report.findings
        assert report.lines == lines
        print(f"bare orjson parse: {t_bare:6.3f} s  {lines / t_bare:10,.0f} lines/s")
        print(f"verify:            {t_verify:6.3f} s  {lines / t_verify:10,.0f} events/s "
              f"({report.checkpoints} signatures checked)")
        ratio = t_verify / t_bare
        print(f"ratio verify/bare: {ratio:6.2f}  (targets: >= 300,000 events/s and <= 2.0x)")
    finally:
        if not args.keep and args.dir is None:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
