"""Benchmark what the ``sightings`` dataset (each judged decision valued under every
hidden-information hypothesis) adds to ``tablectl export``, and what the floor's test of play from
hidden cards adds to ``tablectl floor``, as ratios against the same work without them, side by side
in the same run.

    python bench/bench_sightings.py                        # 300 rounds of Three Card Poker in a temp dir
    python bench/bench_sightings.py --rounds 1000 --dir /var/tmp/bs --keep

The log is a simulated Three Card Poker table (8 seats, seat 1 ``hole-card``) played by
``tablectl run --simulate --autoplay ROUNDS --seed 3``. Timed in this process, ``--repeat`` rounds,
the contestants taking turns, garbage collected and the decision-value cache cleared before each
(cold, as a fresh ``tablectl export`` process is):

- export: ``export_logs`` into a fresh dataset as shipped, against the same with the sightings
  switched off (:func:`sightings_off`);
- floor: ``floor()`` of that dataset as shipped, against the same with the test of play from
  hidden cards switched off.

Printed: with / without, median and range over the rounds; the rows and bytes of the sightings
against the decisions dataset's.
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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tablectl.analytics.export import rows as rows_module
from tablectl.analytics.export.logs import export_logs
from tablectl.analytics.floor import report as floor_module
from tablectl.analytics.floor.detection import AdvantagePlay
from tablectl.analytics.floor.report import floor
from tablectl.eventlog import load_public_key
from tablectl.gamemath.decisions.value import clear_cache

CONFIG = Path(__file__).resolve().parents[1] / "config" / "tables" / "three-card-poker.toml"


def play(folder: Path, rounds: int, config: Path = CONFIG, seed: int = 3, player: str = "1:hole-card") -> None:
    """A signed log of ``rounds`` rounds of ``config`` in ``folder / 'logs'``, ``player`` (``SEAT:PROFILE``)
    at the table (kept if there already)."""
    if (folder / "logs").is_dir():
        return
    tablectl = [sys.executable, "-m", "tablectl"]
    subprocess.run([*tablectl, "keygen", str(folder / "keys")], check=True, capture_output=True)
    subprocess.run([*tablectl, "run", str(config), "--simulate", "--headless", "--autoplay", str(rounds), "--seed",
                    str(seed), "--log-dir", str(folder / "logs"), "--signing-key", str(folder / "keys" / "table.key"),
                    "--player", player], check=True, capture_output=True)


@contextmanager
def sightings_off(off: bool = True) -> Iterator[None]:
    """The export without its sightings (``analytics.export.rows.sightings`` giving none, and no decision's
    hypotheses valued with its own sight: ``analytics.export.sightings.value_together``), if *off*."""
    shipped = rows_module.sightings, rows_module.value_together
    if off:
        rows_module.sightings = lambda *a, **k: []  # type: ignore[assignment]
        rows_module.value_together = lambda *a, **k: None  # type: ignore[assignment]
    try:
        yield
    finally:
        rows_module.sightings, rows_module.value_together = shipped


def timed(work: Callable[[], Any]) -> float:
    gc.collect()
    clear_cache()
    t0 = time.perf_counter()
    work()
    return time.perf_counter() - t0


def size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*.parquet"))


def ratio(a: list[float], b: list[float]) -> str:
    r = [x / y for x, y in zip(a, b, strict=True)]
    return f"{statistics.median(r):.2f}x (range {min(r):.2f}-{max(r):.2f}; with {statistics.median(a):.2f} s, without {statistics.median(b):.2f} s)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dir", type=Path)
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    folder = args.dir or Path(tempfile.mkdtemp(prefix="bench-sightings-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        play(folder, args.rounds)
        keys = [load_public_key(folder / "keys" / "table.pub")]

        def export(on: bool) -> Callable[[], Any]:
            def run() -> None:
                shutil.rmtree(folder / ("with" if on else "without"), ignore_errors=True)
                with sightings_off(not on):
                    export_logs([folder / "logs"], folder / ("with" if on else "without"), keys)
            return run

        export(False)()  # once untimed: the game math of the bets, computed once per process
        ex: dict[bool, list[float]] = {True: [], False: []}
        for _ in range(args.repeat):
            for on in (True, False):
                ex[on].append(timed(export(on)))
        ds = folder / "with"
        print(f"{args.rounds} rounds of Three Card Poker (8 seats, seat 1 hole-card), {args.repeat} rounds each, cold cache")
        print(f"export with sightings / without: {ratio(ex[True], ex[False])}")
        print(f"sightings {size(ds / 'sightings') / 1024:.0f} KiB against decisions {size(ds / 'decisions') / 1024:.0f} KiB")

        advantage = floor_module.advantage_play

        def report(on: bool) -> Callable[[], Any]:
            def run() -> None:
                floor_module.advantage_play = advantage if on else (lambda con, f, t, alpha: AdvantagePlay(alpha))  # type: ignore[assignment]
                try:
                    found = floor(ds)
                finally:
                    floor_module.advantage_play = advantage
                if on:
                    a = found.advantage
                    assert a is not None
                    run.last = (a.sessions, a.decisions, a.tests, a.flagged())  # type: ignore[attr-defined]
            return run

        fl: dict[bool, list[float]] = {True: [], False: []}
        floor(ds)  # the game math computed once, as a dataset keeps it
        with_run = report(True)
        for _ in range(args.repeat):
            fl[True].append(timed(with_run))
            fl[False].append(timed(report(False)))
        sessions, decisions, tests, flagged = with_run.last  # type: ignore[attr-defined]
        print(f"floor with the test / without: {ratio(fl[True], fl[False])}")
        print(f"tested {sessions} seat sessions, {decisions} decisions, {tests} tests (Holm); flagged: {flagged or 'none'}")
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
