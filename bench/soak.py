"""Soak: ``tablectl run CONFIG --simulate --headless --autoplay ROUNDS`` with link faults on, in a
subprocess; samples its resident set size from /proc every second, then reviews the log.

Prints RSS after warm-up, peak RSS, growth per 100,000 cards (target: under 1 MB), rounds and
cards per second, and review's verdict on the log (every device event number exactly once).

    python bench/soak.py [--config config/tables/one-card-poker.toml] [--rounds 100000]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FAULTS = ("noise=0.05", "crc=0.05", "drop=0.05", "dup=0.05", "reorder=0.05", "disconnect=0.002")


def rss_kib(pid: int) -> int | None:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    match = re.search(r"^VmRSS:\s+(\d+) kB", status, re.MULTILINE)
    return int(match.group(1)) if match else None


def cards_logged(log_dir: Path) -> int:
    count = 0
    for path in sorted(log_dir.glob("*.jsonl")):
        with open(path, "rb") as f:
            count += sum(1 for line in f if b'"event":"dealt"' in line or b'"event":"burned"' in line)
    return count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", default="config/tables/one-card-poker.toml")
    parser.add_argument("--rounds", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log-dir", type=Path, default=None)
    args = parser.parse_args()
    log_dir = args.log_dir or Path(tempfile.mkdtemp(prefix="tablectl-soak-"))
    command = [
        sys.executable, "-m", "tablectl", "run", args.config, "--simulate", "--headless",
        "--autoplay", str(args.rounds), "--seed", str(args.seed), "--log-dir", str(log_dir),
        *[a for f in FAULTS for a in ("--fault", f)],
    ]
    print("soak:", " ".join(command[2:]), flush=True)
    started = time.monotonic()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    samples: list[tuple[float, int]] = []
    while proc.poll() is None:
        kib = rss_kib(proc.pid)
        if kib is not None:
            samples.append((time.monotonic() - started, kib))
        time.sleep(1.0)
    out, err = proc.communicate()
    elapsed = time.monotonic() - started
    print(out.strip())
    if proc.returncode != 0:
        print(f"run exited {proc.returncode}: {err.strip()[-2000:]}")
        return 1
    cards = cards_logged(log_dir)
    warm = [kib for t, kib in samples if t >= elapsed * 0.1] or [kib for _, kib in samples]
    start_kib, end_kib, peak_kib = warm[0], warm[-1], max(kib for _, kib in samples)
    growth_per_100k = (end_kib - start_kib) / max(cards * 0.9, 1) * 100_000 / 1024
    print(f"rounds: {args.rounds}  cards dealt or burned: {cards}  time: {elapsed:.0f} s "
          f"({args.rounds / elapsed:.0f} rounds/s, {cards / elapsed:.0f} cards/s)")
    print(f"RSS after warm-up (10% of the run): {start_kib / 1024:.1f} MiB; at the end: {end_kib / 1024:.1f} MiB; "
          f"peak: {peak_kib / 1024:.1f} MiB")
    print(f"RSS growth per 100,000 cards after warm-up: {growth_per_100k:+.2f} MiB (target: under 1 MB)")
    review = subprocess.run(
        [sys.executable, "-m", "tablectl", "review", str(log_dir)],
        capture_output=True, text=True,
    )
    lines = [ln for ln in review.stdout.splitlines() if "exactly once" in ln or ln.startswith(("result", "anomalies"))]
    print("review (exit %d):" % review.returncode, *lines, sep="\n  ")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
