"""Benchmark what judging every player decision adds to ``tablectl review`` and to the export, as
ratios against the same work without judging, side by side in the same run.

    python bench/bench_judging.py                          # a 250k-line log in a temp dir
    python bench/bench_judging.py --lines 1000000 --dir /var/tmp/bj --keep

The log is ``bench_review.generate``'s (One Card Poker through the real table logic, 7 seats). Timed
in this process, ``--repeat`` rounds, the contestants taking turns on the page-cached file, garbage
collected before each, the decision-value cache cleared before each judged run (cold):

- review: ``review(LOG)`` with a round sink that does nothing, against the same with a sink that
  judges every decision of every settled round (``tablectl.gamemath.decisions.judge.judge_round``);
- export: ``export_logs`` into a fresh dataset with the judging of ``tablectl.analytics.export.judging``
  switched off (every round judged as nothing), against the export as shipped.

Printed: judged / plain, median and range over the rounds. Goal (issue 25): judging adds at most
50% to review's time on a 1M-line log.
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
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from bench_review import generate  # noqa: E402

from tablectl.analytics.export import judging  # noqa: E402
from tablectl.analytics.export.logs import export_logs  # noqa: E402
from tablectl.eventlog import load_public_key  # noqa: E402
from tablectl.gamemath.decisions.judge import judge_round  # noqa: E402
from tablectl.gamemath.decisions.value import clear_cache  # noqa: E402
from tablectl.review.engine import review  # noqa: E402


def _judge_all(counted: list[int]) -> Any:
    def sink(rnd: Any) -> None:
        if rnd.hands is not None and rnd.judge_with is not None:
            counted[0] += len(judge_round(rnd.hands, rnd.judge_with[0], rnd.judge_with[1] or 1))
    return sink


def _timed(run: Any) -> float:
    gc.collect()
    clear_cache()
    t = time.perf_counter()
    run()
    return time.perf_counter() - t


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lines", type=int, default=250_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dir", type=Path, default=None)
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    root = args.dir or Path(tempfile.mkdtemp(prefix="bench-judging-"))
    root.mkdir(parents=True, exist_ok=True)
    log_dir = root / f"log-{args.lines}"
    if not log_dir.exists():
        t = time.perf_counter()
        generate(log_dir, args.lines)
        print(f"generated {args.lines:,} lines in {time.perf_counter() - t:.0f} s")
    logs = sorted((log_dir / "log").glob("tablectl-*.jsonl"))
    key = load_public_key(next(log_dir.glob("keys/*.pub")))
    counted = [0]
    plain_round = judging.Judge.round

    def unjudged(self: Any, hands: Any, *a: Any) -> judging.RoundJudgement:
        return judging.RoundJudgement({}, None)

    def export(judge: bool) -> None:
        judging.Judge.round = plain_round if judge else unjudged  # type: ignore[method-assign]
        target = root / "ds"
        shutil.rmtree(target, ignore_errors=True)
        export_logs(logs, target, [key])

    ratios: dict[str, list[float]] = {"review": [], "export": []}
    for _ in range(args.repeat):
        plain = _timed(lambda: review(logs, [key], rounds=lambda r: None))
        counted[0] = 0
        judged = _timed(lambda: review(logs, [key], rounds=_judge_all(counted)))
        ratios["review"].append(judged / plain)
        print(f"review: plain {plain:.2f} s, judged {judged:.2f} s ({counted[0]:,} decisions judged)")
        plain = _timed(lambda: export(False))
        judged = _timed(lambda: export(True))
        ratios["export"].append(judged / plain)
        print(f"export: plain {plain:.2f} s, judged {judged:.2f} s")
    judging.Judge.round = plain_round  # type: ignore[method-assign]
    for name, r in ratios.items():
        print(f"{name} judged / plain at {args.lines:,} lines: median {statistics.median(r):.3f}x "
              f"(range {min(r):.3f}-{max(r):.3f}, {len(r)} runs)")
    if not args.keep and args.dir is None:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
