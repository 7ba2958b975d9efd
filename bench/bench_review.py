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
- verify: ``tablectl.eventlog.verify.verify`` alone;
- verify + reconstruct: ``review(..., replay=False)``: verification (in a forked worker when the
  machine has more than one core) while this process reads every line and rebuilds the rounds
  (cards by position, decisions, corrections, logged settlement), shoes and penetration, device
  event numbers, violations, holds, faults, crashes; then the anomaly list and shuffle quality;
- full review: ``review(...)``, what ``tablectl review`` does before printing: the above, and every
  round walked through its game's deal script and settled again by the rules engine (about half
  the rounds in a second forked worker).

Targets: review >= 300,000 events/s and review <= 2x the bare parse time.
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
from tablectl.review.engine import review
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


def best_of_interleaved(fns: dict[str, Callable[[], Any]], repeat: int) -> dict[str, tuple[float, Any]]:
    times: dict[str, list[float]] = {name: [] for name in fns}
    results: dict[str, Any] = {}
    for _ in range(repeat):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            results[name] = fn()
            times[name].append(time.perf_counter() - t0)
    return {name: (min(t), results[name]) for name, t in times.items()}


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
        timed = best_of_interleaved(
            {
                "bare": lambda: sum(bare_parse(p) for p in files),
                "verify": lambda: verify(files, key),
                "reconstruct": lambda: review(files, [key], replay=False),
                "review": lambda: review(files, [key]),
            },
            args.repeat,
        )
        (t_bare, lines), (t_verify, vreport) = timed["bare"], timed["verify"]
        t_recon, t_review, report = timed["reconstruct"][0], timed["review"][0], timed["review"][1]
        assert vreport.ok and vreport.clean and report.ok, vreport.findings
        rounds = len(report.rounds)
        checks = report.round_counts()
        print(f"log: {lines:,} lines, {size / 1e6:.0f} MB, {len(files)} file; {rounds:,} rounds "
              f"({checks.get('settlement:match', 0):,} settlements recomputed and matching), "
              f"{len(report.recon.shoes)} shoes, {len(report.anomalies)} anomalies")
        print(f"bare orjson parse:      {t_bare:6.3f} s  {lines / t_bare:10,.0f} lines/s")
        print(f"verify alone:           {t_verify:6.3f} s  {lines / t_verify:10,.0f} events/s   ({t_verify / t_bare:.2f}x bare)")
        print(f"verify + reconstruct:   {t_recon:6.3f} s  {lines / t_recon:10,.0f} events/s   ({t_recon / t_bare:.2f}x bare)"
              "   rounds, cards by position, decisions, shoes, device numbers, anomalies, shuffle quality")
        parts = ", ".join(f"{k} {v:.2f}" for k, v in report.timings.items())
        print(f"full review:            {t_review:6.3f} s  {lines / t_review:10,.0f} events/s   ({t_review / t_bare:.2f}x bare)"
              f"   + every round through its deal script and the rules engine  [last run, s: {parts}]")
        print("targets: >= 300,000 events/s and <= 2.0x the bare parse")
    finally:
        if not args.keep and args.dir is None:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
