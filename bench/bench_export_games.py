"""Benchmark the export of judged logs of Three Card Poker, its Florida variant and One for the
Money (every decision valued, theo_win and theo_var per round, the sightings), this checkout's code
against a base commit's, side by side in the same run, and check the two datasets are identical.

    python bench/bench_export_games.py                          # 600 rounds a game, base: merge-base with main
    python bench/bench_export_games.py --rounds 1350 --base 3590403 --dir /var/tmp/beg --keep

One log per game, played by ``tablectl run CONFIG --simulate --autoplay ROUNDS --headless --seed 1
--player 2:hole-card --player 3:recreational`` (so decisions are judged, some from hidden cards)
with a signing key of the benchmark's. The base commit's ``src`` is unpacked with ``git archive``
and run with ``PYTHONPATH`` pointing at it; this checkout's code runs as installed. Each export is
``python -m tablectl export LOGS --to FRESH --key PUB`` in its own process, timed wall clock
(start-up included, the same for both), ``--repeat`` rounds with the two taking turns on the
page-cached logs. Printed per game: base and this code's median seconds, and this / base as the
median and range over the rounds, wall clock and CPU time (the child's user + system: steadier on a
busy machine); then whether every Parquet column of the two datasets is the
same (``scripts/compare_datasets.py``).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
from compare_datasets import compare  # noqa: E402

from tablectl.eventlog.keys import save_keypair  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
CONFIGS = REPO / "config" / "tables"
GAMES = {"tcp": "three-card-poker.toml", "tcpfl": "three-card-poker-florida.toml", "oftm": "one-for-the-money-shoe.toml"}
PLAYERS = ("--player", "2:hole-card", "--player", "3:recreational")


def _play(root: Path, name: str, rounds: int, key: Path) -> Path:
    logs = root / f"{name}-{rounds}"
    if not logs.exists():
        subprocess.run([sys.executable, "-m", "tablectl", "run", str(CONFIGS / GAMES[name]), "--simulate", "--autoplay",
                        str(rounds), "--headless", "--log-dir", str(logs), "--seed", "1", "--signing-key", str(key), *PLAYERS],
                       check=True, capture_output=True)
    return logs


def _unpack(base: str, into: Path) -> Path:
    """The base commit's ``src`` in ``into`` (made once per commit)."""
    commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", base], check=True, capture_output=True, text=True).stdout.strip()
    src = into / f"base-{commit[:12]}"
    if not src.exists():
        archive = subprocess.run(["git", "-C", str(REPO), "archive", commit, "src"], check=True, capture_output=True).stdout
        with tarfile.open(fileobj=BytesIO(archive)) as tar:
            tar.extractall(src)
    return src / "src"


def _export(logs: Path, target: Path, pub: Path, pythonpath: Path | None) -> tuple[float, float]:
    """The export's wall-clock and CPU seconds (the child's user + system time)."""
    shutil.rmtree(target, ignore_errors=True)
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    started, cpu = time.perf_counter(), _children_cpu()
    subprocess.run([sys.executable, "-m", "tablectl", "export", str(logs), "--to", str(target), "--key", str(pub),
                    "--no-progress"], check=True, capture_output=True, env=env, cwd=target.parent)
    return time.perf_counter() - started, _children_cpu() - cpu


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=600)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--base", default=None, help="the commit to compare with (default: the merge-base with main)")
    ap.add_argument("--games", default=",".join(GAMES), help=f"comma-separated, of {', '.join(GAMES)}")
    ap.add_argument("--dir", type=Path, default=None)
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    games = args.games.split(",")
    if unknown := [g for g in games if g not in GAMES]:
        print(f"bench_export_games: --games: unknown {', '.join(unknown)} (expected {', '.join(GAMES)})", file=sys.stderr)
        return 2
    base = args.base or subprocess.run(["git", "-C", str(REPO), "merge-base", "HEAD", "main"], check=True,
                                       capture_output=True, text=True).stdout.strip()
    root = args.dir or Path(tempfile.mkdtemp(prefix="bench-export-games-"))
    root.mkdir(parents=True, exist_ok=True)
    keys = root / "keys"
    if not keys.exists():
        save_keypair(keys)
    old = _unpack(base, root)
    print(f"base {base} against this checkout; {args.rounds} rounds a game, {args.repeat} rounds of timing")
    failed = False
    for name in games:
        logs = _play(root, name, args.rounds, keys / "table.key")
        before, after, ratios, cpu_ratios = [], [], [], []
        for _ in range(args.repeat):
            b, b_cpu = _export(logs, root / "ds-base", keys / "table.pub", old)
            a, a_cpu = _export(logs, root / "ds-this", keys / "table.pub", None)
            before.append(b)
            after.append(a)
            ratios.append(a / b)
            cpu_ratios.append(a_cpu / b_cpu)
        problems = compare(root / "ds-base", root / "ds-this", log=None)
        failed |= bool(problems)
        print(f"{name:6} base {statistics.median(before):7.2f} s  this {statistics.median(after):7.2f} s  "
              f"this/base {statistics.median(ratios):.3f} (range {min(ratios):.3f}-{max(ratios):.3f}), "
              f"CPU {statistics.median(cpu_ratios):.3f} ({min(cpu_ratios):.3f}-{max(cpu_ratios):.3f})  "
              f"datasets {'identical' if not problems else f'DIFFER: {problems[0]}'}")
    if not args.keep and args.dir is None:
        shutil.rmtree(root, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
