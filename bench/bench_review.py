"""Benchmark ``tablectl review``: verify + reconstruct a 1,000,000-event log, against a bare orjson
parse of the same file.

    python bench/bench_review.py                       # 1,000,000 events in a temporary directory
    python bench/bench_review.py --events 200000 --dir /var/tmp/rb --keep   # keep (and reuse) the log

The log is written by the real writer (``tablectl.eventlog.EventLog``, fsync off, one file,
signed checkpoint every 1000 lines) with the real table logic (``tablectl.table.core.TableCore``)
playing One Card Poker, 7 seats, from the real shoe simulator model (``tablectl.simulators``): every
line is what the controller writes — cards, burns, decisions, settlements, state changes, shoes.
No threads, no drivers: the core is fed device events and dealer inputs directly, which is what
makes a million lines take seconds rather than minutes.

Timed (best of ``--repeat``, the contestants taking turns on the page-cached file):

- bare parse: read the file in 1 MiB chunks, split lines, ``orjson.loads`` on every line;
- verify alone: ``tablectl.eventlog.verify.verify``;
- verify + reconstruct: ``review(..., replay=False)``: one pass over the bytes
  (``verify.scan``) that hashes and checks every line, parses it and rebuilds the rounds (cards
  by position, decisions, corrections, logged settlement), shoes and penetration, device event
  numbers, violations, holds, faults, crashes; then the anomaly list and shuffle quality;
- full review: ``review(...)``, what ``tablectl review`` does before printing: the above, and every
  round walked through its game's deal script and settled again by the rules engine (about half
  the rounds in a forked worker process).

Then, untimed against the targets: the re-settlement cost per round, and the part of it spent in
the rules engine (``tablectl.rules.settle.settle``), on a sample of rounds in this process.

Targets: verify + reconstruct >= 300,000 events/s and <= 2x the bare parse time.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
from tablectl.simulators.factory import build_device

from tablectl.config import parse_config
from tablectl.eventlog import EventLog, generate_key, load_public_key, save_keypair
from tablectl.eventlog.verify import verify
from tablectl.review import replay as replay_module
from tablectl.review.engine import _plan, review
from tablectl.table.core import TableCore
from tablectl.table.inputs import Decision, EndRound, OfferBank, ShoeChange, StartRound


def generate(directory: Path, events: int, seed: int = 1) -> tuple[Path, Path]:
    """Play One Card Poker through the real table logic until the log holds ``events`` lines."""
    key = generate_key()
    pub = save_keypair(directory / "keys", key).public
    config = parse_config({
        "table": "B1", "game": "one-card-poker", "decks": 6, "seats": 7, "min_bet": 5, "max_bet": 500,
        "devices": {"shoe": {"driver": "shoe", "address": "/dev/null"}}, "log": {"dir": str(directory / "log")},
    })
    rng = random.Random(seed)
    model = build_device("shoe", seed=seed, load=False).model
    with EventLog(directory / "log", "B1", signing_key=key, rotate="never", fsync=False) as log:
        core = TableCore(config, log)
        core.go_online({})

        def feed(device_events: list[Any]) -> None:
            for e in device_events:
                core.handle_event("shoe", e)

        for seat in range(1, 8):
            core.handle_input(OfferBank(seat, True))
        while log.seq < events:
            p = core.prompt()
            action = p.action
            if action == "load_shoe":
                feed(model.load())
            elif action == "deal":
                for to in p.to:
                    if to == "burn":
                        feed(model.press_button(0))
                    feed(model.draw())
            elif action == "start_round":
                banker = core.banker
                open_seats = [s for s in range(1, 8) if s != banker]
                seats = sorted(rng.sample(open_seats, rng.randint(1, len(open_seats))))
                wagers = {s: ({"primary": 100 * rng.randint(5, 500)} | ({"tie": 100 * rng.randint(5, 100)} if rng.random() < 0.4 else {}))
                          for s in seats}
                core.handle_input(StartRound(tuple(seats), wagers, 100 * 100 * rng.randint(10, 500)))
            elif action == "decide":
                core.handle_input(Decision(p.seat, rng.choice(p.options)))  # type: ignore[arg-type]
            elif action == "end_round":
                core.handle_input(EndRound())
            elif action == "change_shoe":
                core.handle_input(ShoeChange())
            else:
                raise RuntimeError(f"the bench table asks for {action!r} in state {core.state}")
            if log.seq - log.durable_seq >= 64:
                log.commit()
        log.commit()
    return directory / "log", pub


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


def best_of_interleaved(fns: dict[str, Callable[[], Any]], repeat: int) -> dict[str, tuple[float, Any, Any]]:
    """Per contestant: (best time, the last run's result, the best run's ``timings`` if any)."""
    times: dict[str, float] = {}
    results: dict[str, Any] = {}
    stages: dict[str, Any] = {}
    for _ in range(repeat):
        for name, fn in fns.items():
            results[name] = None  # let the last run's result go before the next one runs
            t0 = time.perf_counter()
            results[name] = fn()
            t = time.perf_counter() - t0
            if t < times.get(name, float("inf")):
                times[name] = t
                stages[name] = dict(getattr(results[name], "timings", {}))
    return {name: (times[name], results[name], stages[name]) for name in fns}


def resettlement_cost(report: Any, sample: int = 3000) -> tuple[float, float]:
    """Seconds per round of the procedure + settlement check, and of that in ``rules.settle``,
    on the first *sample* rounds, in this process (the rounds are checked again: same verdicts)."""
    plan, _ = _plan(report.recon, None)
    plan = plan[:sample]
    spent = [0.0]
    real_settle = replay_module.settle

    def timed_settle(*args: Any, **kwargs: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return real_settle(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - t0

    replay_module.settle = timed_settle  # type: ignore[assignment]
    try:
        t0 = time.perf_counter()
        for rnd, rules, packets, source in plan:
            rnd.problems = []
            replay_module.replay_round(rnd, rules, packets=packets, source=source)
        total = time.perf_counter() - t0
    finally:
        replay_module.settle = real_settle  # type: ignore[assignment]
    return total / len(plan), spent[0] / len(plan)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--events", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dir", type=Path, default=None, help="where to write (default: a temp dir)")
    ap.add_argument("--keep", action="store_true", help="keep the log (and reuse it if it is there)")
    args = ap.parse_args()

    root = args.dir or Path(tempfile.mkdtemp(prefix="tablectl-bench-review-"))
    root.mkdir(parents=True, exist_ok=True)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, log in {root}")
    try:
        log_dir, pub = root / "log", root / "keys" / "table.pub"
        if not (log_dir.exists() and pub.exists()):
            t0 = time.perf_counter()
            log_dir, pub = generate(root, args.events)
            print(f"generated with the real EventLog writer and TableCore (One Card Poker, shoe): "
                  f"{time.perf_counter() - t0:.1f} s")
        files = sorted(log_dir.glob("*.jsonl"))
        size = sum(p.stat().st_size for p in files)
        key = load_public_key(pub)
        print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        timed = best_of_interleaved(
            {
                "bare": lambda: sum(bare_parse(p) for p in files),
                "verify": lambda: verify(files, key),
                "reconstruct": lambda: review(files, [key], replay=False),
                "review": lambda: review(files, [key]),
            },
            args.repeat,
        )
        print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}  (the machine is shared: "
              "times move with it; each figure is the best of the runs)")
        (t_bare, lines, _), (t_verify, vreport, _) = timed["bare"], timed["verify"]
        (t_recon, recon_report, recon_stages), (t_review, report, review_stages) = timed["reconstruct"], timed["review"]
        assert vreport.ok and vreport.clean and report.ok and recon_report.ok, vreport.findings
        rounds = len(report.rounds)
        checks = report.round_counts()
        print(f"log: {lines:,} lines, {size / 1e6:.0f} MB, {len(files)} file; {rounds:,} rounds "
              f"({checks.get('settlement:match', 0):,} settlements recomputed and matching), "
              f"{len(report.recon.shoes)} shoes, {len(report.anomalies)} anomalies")

        def row(label: str, t: float, what: str = "") -> None:
            print(f"{label:<34} {t:6.3f} s  {lines / t:9,.0f} events/s  {t / t_bare:5.2f}x bare{what}")

        print(f"{'bare orjson parse (line by line)':<34} {t_bare:6.3f} s  {lines / t_bare:9,.0f} lines/s   1.00x")
        row("verify alone", t_verify, "   hash chain, seq, layout, 1 signature per 1000 lines")
        row("verify + reconstruct (one pass)", t_recon,
            "   + parse, rounds, cards by position, shoes, device numbers, anomalies, shuffle quality")
        row("full review (+ re-settlement)", t_review, "   + every round through its deal script and the rules engine")
        for name, stages in (("verify + reconstruct", recon_stages), ("full review", review_stages)):
            print(f"  {name}, stages of the best run, s: " + ", ".join(f"{k} {v:.2f}" for k, v in stages.items()))
        per_round, in_rules = resettlement_cost(report)
        print(f"re-settlement: {per_round * 1e6:.0f} us per round in one process ({rounds:,} rounds: "
              f"{per_round * rounds:.1f} s of CPU), of which the rules engine's settle() {in_rules * 1e6:.0f} us "
              f"({in_rules / per_round:.0%})")
        rate_ok, ratio_ok = lines / t_recon >= 300_000, t_recon / t_bare <= 2.0
        print(f"targets (verify + reconstruct): >= 300,000 events/s: {'met' if rate_ok else 'NOT met'} "
              f"({lines / t_recon:,.0f}); <= 2.00x the bare parse: {'met' if ratio_ok else 'NOT met'} "
              f"({t_recon / t_bare:.2f}x)")
    finally:
        if not args.keep and args.dir is None:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
