"""Benchmark valuing a Texas Hold'em Bonus decision under every hidden-card hypothesis (what the
``sightings`` dataset holds): all of a decision's hypotheses together (``holdem_hidden``, as
export and ``review --seat`` value them) against each valued alone (``decision_holdem.values``,
the one-at-a-time enumeration), side by side on the same decisions in the same run; and what the
sightings add to ``tablectl export`` of the table.

    python bench/bench_thb_sightings.py                          # 100 rounds, in a temp dir
    python bench/bench_thb_sightings.py --rounds 300 --dir /var/tmp/bts --keep

The log is a simulated Texas Hold'em Bonus table (7 seats, seat 2 ``hole-card``) played by
``tablectl run --simulate --autoplay ROUNDS --seed 1``. Every Turn and River decision judged
(up to ``--decisions`` of each street) is valued under its hypotheses (``hole:1``, ``hole:2``,
``edge``, ``team:J`` for each other seat) both ways, the two taking turns, each from a cold
start (nothing cached), timed in CPU seconds of this thread; the values are compared (they must
be equal). Printed per street: the hypotheses per decision, each way's median and range per
decision, and the ratio one-at-a-time / together (median and range over the decisions). Then
``export_logs`` of the log with the sightings and without them (``bench_sightings.sightings_off``),
``--repeat`` times each, and the export's cost per 1,350-round table.
"""

from __future__ import annotations

import argparse
import gc
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_sightings import play, sightings_off  # noqa: E402

from tablectl.analytics.export.logs import export_logs  # noqa: E402
from tablectl.detection.rows import hypotheses  # noqa: E402
from tablectl.eventlog import load_public_key  # noqa: E402
from tablectl.gamemath.decisions import holdem as decision_holdem  # noqa: E402
from tablectl.gamemath.decisions.holdem_hidden import values_many  # noqa: E402
from tablectl.gamemath.decisions.judge import decision_points  # noqa: E402
from tablectl.gamemath.decisions.sight import Sight  # noqa: E402
from tablectl.gamemath.decisions.value import clear_cache  # noqa: E402
from tablectl.review.engine import review  # noqa: E402
from tablectl.rounds import RoundHands  # noqa: E402
from tablectl.rules.houserules import TexasHoldemBonusRules  # noqa: E402

CONFIG = Path(__file__).resolve().parents[1] / "config" / "tables" / "texas-holdem-bonus.toml"
TABLE_ROUNDS = 1350


def decisions(folder: Path, keys: list[Any]) -> list[tuple[tuple[str, ...], list[Sight]]]:
    """Every Turn and River decision of the log: its options and its hypotheses' sights."""
    found: list[RoundHands] = []
    review([folder / "logs"], keys, rounds=lambda r: found.append(r.hands) if r.hands is not None else None)
    out = []
    for hands in found:
        for p in decision_points(hands):
            if p.sight.board:
                out.append((p.options, list(hypotheses(hands, p.sight, p.seat).values())))
    return out


def cpu(work: Callable[[], Any]) -> tuple[float, Any]:
    clear_cache()
    gc.collect()
    t0 = time.thread_time()
    result = work()
    return time.thread_time() - t0, result


def spread(xs: list[float], scale: float = 1000.0, unit: str = "ms") -> str:
    return f"median {statistics.median(xs) * scale:.2f} {unit} (range {min(xs) * scale:.2f}-{max(xs) * scale:.2f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--decisions", type=int, default=60, help="decisions of each street timed (default 60)")
    ap.add_argument("--repeat", type=int, default=2, help="exports of each kind (default 2)")
    ap.add_argument("--dir", type=Path)
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    if args.rounds < 1 or args.decisions < 1 or args.repeat < 1:
        ap.error("--rounds, --decisions and --repeat must be at least 1")
    folder = args.dir or Path(tempfile.mkdtemp(prefix="bench-thb-sightings-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        play(folder, args.rounds, CONFIG, 1, "2:hole-card")
        keys = [load_public_key(folder / "keys" / "table.pub")]
        found = decisions(folder, keys)
        rules = TexasHoldemBonusRules()
        for board in (3, 4):  # each street's code compiled (or loaded) once, before timing
            options, sights = next(d for d in found if len(d[1][0].board) == board)
            values_many(options, sights, rules)
        print(f"{args.rounds} rounds of Texas Hold'em Bonus (7 seats, seat 2 hole-card): {len(found)} Turn and River decisions")
        mismatches = 0
        for street, board in (("Turn", 3), ("River", 4)):
            some = [d for d in found if len(d[1][0].board) == board][: args.decisions]
            alone_t: list[float] = []
            together_t: list[float] = []
            for options, sights in some:
                t_alone, alone = cpu(lambda: [decision_holdem.values(options, s, rules) for s in sights])  # noqa: B023
                t_together, together = cpu(lambda: values_many(options, sights, rules))  # noqa: B023
                alone_t.append(t_alone)
                together_t.append(t_together)
                mismatches += sum(a.values != (t.values if t else None) for a, t in zip(alone, together, strict=True))
            if not some:
                continue
            ratios = [a / t for a, t in zip(alone_t, together_t, strict=True)]
            per = statistics.mean(len(s) for _, s in some)
            print(f"  {street}: {len(some)} decisions, {per:.1f} hypotheses each, per decision (CPU):")
            print(f"    one at a time  {spread(alone_t)}")
            print(f"    together       {spread(together_t)}")
            print(f"    ratio          {statistics.median(ratios):.1f}x (range {min(ratios):.1f}-{max(ratios):.1f})")
        print(f"  values that differ between the two: {mismatches}")

        def export(on: bool) -> Callable[[], Any]:
            def run() -> None:
                shutil.rmtree(folder / "ds", ignore_errors=True)
                with sightings_off(not on):
                    export_logs([folder / "logs"], folder / "ds", keys)
            return run

        timed: dict[bool, list[float]] = {True: [], False: []}
        for _ in range(args.repeat):
            for on in (True, False):
                clear_cache()
                gc.collect()
                t0 = time.perf_counter()
                export(on)()
                timed[on].append(time.perf_counter() - t0)
        with_s, without = statistics.median(timed[True]), statistics.median(timed[False])
        per_table = (with_s - without) / args.rounds * TABLE_ROUNDS
        print(f"export with sightings {with_s:.2f} s, without {without:.2f} s (wall, median of {args.repeat}): "
              f"{with_s / without:.2f}x; the sightings add {per_table:.0f} s to a {TABLE_ROUNDS:,}-round table")
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
