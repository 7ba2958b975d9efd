"""Benchmark what each round's theo_var (``tablectl.gamemath.variance.theo``) adds to the export,
as a ratio against the same export without it, side by side in the same run.

    python bench/bench_theo_var.py                            # 500 rounds of each game, temp dir
    python bench/bench_theo_var.py --rounds 2000 --dir /var/tmp/btv --keep
    python bench/bench_theo_var.py --rounds 300 --games thb        # Texas Hold'em Bonus only

One log per game theo_var covers (Three Card Poker, its Florida variant, One for the Money from a
shoe, Texas Hold'em Bonus), each played by ``tablectl run CONFIG --simulate --autoplay ROUNDS --headless`` with a
signing key of the benchmark's (Texas Hold'em Bonus: every seat ``--player N:basic``). Timed in this process after one untimed export (the per-process caches filled),
``--repeat`` rounds, the two exports taking turns on the page-cached files, garbage collected before each: ``export_logs`` into a fresh dataset
with theo_var switched off (``judging._theo_var`` giving None) against the export as shipped
(decisions judged and theo_win in both). Printed per game: with / without, median and range, and
the calibration: the summed theo_var against the summed (win - theo_win)^2 of the log's rounds
(honest simulated players: about 1). Texas Hold'em Bonus's theo_win needs its main game's analysis
on the machine (``tablectl math texas-holdem-bonus``); without it the game is skipped.
"""

from __future__ import annotations

import argparse
import gc
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import duckdb

from tablectl.analytics.export import judging
from tablectl.analytics.export.logs import export_logs
from tablectl.eventlog import load_public_key
from tablectl.eventlog.keys import save_keypair

CONFIGS = Path(__file__).resolve().parents[1] / "config" / "tables"
GAMES = {"tcp": "three-card-poker.toml", "tcpfl": "three-card-poker-florida.toml",
         "oftm": "one-for-the-money-shoe.toml", "thb": "texas-holdem-bonus.toml"}
#: the seats' profiles where the table's own players are not the math's (Texas Hold'em Bonus's
#: decide at random): every seat ``basic``
PLAYERS = {"thb": [arg for seat in range(1, 8) for arg in ("--player", f"{seat}:basic")]}


def _play(root: Path, name: str, rounds: int, key: Path) -> Path:
    logs = root / f"{name}-{rounds}"
    if not logs.exists():
        subprocess.run([sys.executable, "-m", "tablectl", "run", str(CONFIGS / GAMES[name]), "--simulate", "--autoplay",
                        str(rounds), "--headless", "--log-dir", str(logs), "--seed", "1", "--signing-key", str(key),
                        *PLAYERS.get(name, [])],
                       check=True, capture_output=True)
    return logs


def _timed(run: Any) -> float:
    gc.collect()
    t = time.perf_counter()
    run()
    return time.perf_counter() - t


def _calibration(dataset: Path) -> tuple[int, float, float]:
    """(rounds with a theo_var, their summed theo_var, their summed (win - theo_win)^2)."""
    rows = duckdb.sql(f"SELECT count(*), sum(theo_var), sum((win - theo_win) ^ 2) FROM read_parquet("
                      f"'{dataset}/rounds/**/*.parquet', hive_partitioning = true) WHERE theo_var IS NOT NULL")
    n, var, square = rows.fetchall()[0]
    return int(n), float(var or 0), float(square or 0)


def _skipped(name: str) -> str | None:
    """Why ``name`` cannot be benchmarked here (None: it can)."""
    if name == "thb":
        from tablectl.gamemath.holdem import strategy as holdem_strategy

        if holdem_strategy.cached() is None:
            return "the main game's analysis is not on this machine (tablectl math texas-holdem-bonus)"
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=500)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dir", type=Path, default=None)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--games", default=",".join(GAMES), help=f"comma-separated, of {', '.join(GAMES)}")
    args = ap.parse_args()
    unknown = [name for name in args.games.split(",") if name not in GAMES]
    if unknown:
        print(f"--games: unknown game {unknown[0]!r} (known: {', '.join(GAMES)})", file=sys.stderr)
        return 2
    root = args.dir or Path(tempfile.mkdtemp(prefix="bench-theo-var-"))
    root.mkdir(parents=True, exist_ok=True)
    keys = root / "keys"
    if not keys.exists():
        save_keypair(keys)
    public = load_public_key(keys / "table.pub")
    shipped = judging._theo_var

    def export(logs: Path, with_var: bool) -> None:
        judging._theo_var = shipped if with_var else (lambda *a: None)  # type: ignore[assignment]
        target = root / "ds"
        shutil.rmtree(target, ignore_errors=True)
        export_logs(sorted(logs.glob("tablectl-*.jsonl")), target, [public])

    for name in args.games.split(","):
        why = _skipped(name)
        if why:
            print(f"{name}: skipped: {why}")
            continue
        logs = _play(root, name, args.rounds, keys / "table.key")
        export(logs, True)  # untimed: the process's caches (the decisions' values) filled once
        ratios = []
        for _ in range(args.repeat):
            plain = _timed(lambda: export(logs, False))
            full = _timed(lambda: export(logs, True))
            ratios.append(full / plain)
            print(f"{name}: without theo_var {plain:.2f} s, with {full:.2f} s")
        n, var, square = _calibration(root / "ds")
        print(f"{name} calibration over {n:,} rounds: summed theo_var / summed (win - theo_win)^2 = "
              f"{var / square if square else float('nan'):.3f}")
        print(f"{name} export with / without theo_var over {args.rounds:,} rounds: median {statistics.median(ratios):.2f}x "
              f"(range {min(ratios):.2f}-{max(ratios):.2f}, {len(ratios)} runs)")
    judging._theo_var = shipped  # type: ignore[assignment]
    if not args.keep and args.dir is None:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
