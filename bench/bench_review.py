"""Benchmark ``tablectl review`` at three log lengths: peak memory, and verify + reconstruct and
the full review as ratios to a bare orjson parse of the same file, side by side in the same run.

    python bench/bench_review.py                                    # 250k, 1M, 4M lines in a temp dir
    python bench/bench_review.py --sizes 250000,1000000 --dir /var/tmp/rb --keep   # keep (and reuse) the logs
    python bench/bench_review.py --game three-card-poker --sizes 1000000 --dir /var/tmp/br-judge --keep

Each log is written by the real writer (``tablectl.eventlog.EventLog``, fsync off, one file,
signed checkpoint every 1000 lines) with the real table logic (``tablectl.table.core.TableCore``)
playing ``--game`` (default One Card Poker, from the real shoe simulator model; Three Card Poker, its
Florida variant and Texas Hold'em Bonus from the real hand-forming shuffler model,
``tablectl.simulators``), 7 seats, each decision chosen at random among its options: every
line is what the controller writes — cards, burns, decisions, settlements, state changes, shoes.
No threads, no drivers: the core is fed device events and dealer inputs directly, which is what
makes a million lines take a minute rather than hours.

Per log:

- **peak RSS** of ``tablectl review LOG --key PUB`` and of ``... --json`` (to /dev/null), each in its
  own process (``ru_maxrss`` of the child), and the ratio of each to that of the first log;
- **timed** in this process, ``--repeat`` rounds, the contestants taking turns on the page-cached
  file, garbage collected before each run: the bare parse (read in 1 MiB chunks, split lines,
  ``orjson.loads`` each); verify + reconstruct (``review(..., replay=False)``); the full review
  (``review(...)``, every round also walked through its deal script and settled again by the rules
  engine); the full review judging every player decision of every settled round on the way
  (``tablectl.gamemath.decisions.judge.judge_round`` in the round sink, as ``review --seat`` and the export
  judge, from a cold decision-value cache). Printed: the ratio of each review to the bare parse of
  the same round, and of the judged review to the plain review of the same round, median and range,
  with the decisions judged; and the same ratios in CPU time (this process and the verifier it
  forks), which a loaded machine moves less than wall time.
  Both reviews run as ``tablectl review`` does: a log of 8 MiB or more is verified in a forked
  worker while this process reads it (``bench_review_split.py`` measures what that gains).

Goals (issue 16): peak RSS at the longest log <= 1.25x that at the shortest; verify + reconstruct
<= 2x and the full review <= 3x the bare parse. Goal (issue 25): judging every decision adds at
most 50% to review's time on a 1M-line log of a game with a decision every round (Three Card Poker).
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import resource
import shutil
import statistics
import subprocess
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
from tablectl.gamemath.decisions.judge import judge_round
from tablectl.gamemath.decisions.value import clear_cache
from tablectl.review.engine import review
from tablectl.table.core import TableCore
from tablectl.table.inputs import DealerChange, Decision, EndRound, OfferBank, ShoeChange, StartRound
from tablectl.table.screen import next_banker

GAMES: dict[str, tuple[str, int]] = {  # the game: its card device and decks
    "one-card-poker": ("shoe", 6),
    "three-card-poker": ("shuffler", 1),
    "three-card-poker-florida": ("shuffler", 1),
    "texas-holdem-bonus": ("shuffler", 1),
}


def generate(directory: Path, events: int, seed: int = 1, key: Any = None, game: str = "one-card-poker") -> tuple[Path, Path]:
    """Play ``game`` (One Card Poker from a shoe, or a shuffler game) through the real table logic
    until the log holds ``events`` lines, every decision chosen at random among its options.
    *key*: the table's signing key, to go on with a log already in *directory* (a restart of the
    table: a new session in a new file); None makes one and saves it under ``keys/``."""
    if game not in GAMES:
        raise ValueError(f"--game {game!r}: expected one of {', '.join(GAMES)}")
    driver, decks = GAMES[game]
    if key is None:
        key = generate_key()
        save_keypair(directory / "keys", key)
    pub = directory / "keys" / "table.pub"
    config = parse_config({
        "table": "B1", "game": game, "decks": decks, "seats": 7, "min_bet": 5, "max_bet": 500,
        "devices": {"cards": {"driver": driver, "address": "/dev/null"}}, "log": {"dir": str(directory / "log")},
    })
    gdef = config.game_def
    rng = random.Random(seed)
    model = build_device(driver, seed=seed, load=False).model
    with EventLog(directory / "log", "B1", signing_key=key, rotate="never", fsync=False) as log:
        core = TableCore(config, log)
        core.go_online({})
        core.handle_input(DealerChange("D-01"))

        def feed(device_events: list[Any]) -> None:
            for e in device_events:
                core.handle_event("cards", e)

        def side(bet: str) -> int:  # a side bet, in whole dollars within its own limits
            limit = config.bet_limits.get(bet)
            low, high = (5, 100) if limit is None else (-(-limit.minimum // 100), min(100, limit.maximum // 100))
            return 100 * rng.randint(low, max(low, high))

        if gdef.banker:
            for seat in range(1, 8):
                core.handle_input(OfferBank(seat, True))
        while log.seq < events:
            p = core.prompt()
            action = p.action
            if action == "load_shoe":
                feed(model.load())
            elif action == "shuffle":
                feed(model.start_shuffle())
            elif action == "packet":
                feed(model.deliver_packet(p.count))
            elif action == "discard":
                feed(model.discard_rest())
            elif action == "deal":
                for to in p.to:
                    if to == "burn":
                        feed(model.press_button(0))
                    feed(model.draw())
            elif action == "start_round":
                banker = next_banker(core) if gdef.banker else None
                open_seats = [s for s in range(1, 8) if s != banker]
                seats = sorted(rng.sample(open_seats, rng.randint(1, len(open_seats))))
                wagers = {s: {w: 100 * rng.randint(5, 500) for w in gdef.required}
                          | {w: side(w) for w in gdef.wagers if w not in gdef.required and rng.random() < 0.4}
                          for s in seats}
                core.handle_input(StartRound(tuple(seats), wagers, 100 * 100 * rng.randint(10, 500) if gdef.banker else None))
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
                model.store.persisted(model.store.last_no)  # the host has it: the device may forget it
        log.commit()
    return directory / "log", pub


def judging_sink(counted: list[int]) -> Callable[[Any], None]:
    """A round sink that judges every player decision of every settled round, as ``review --seat``
    and the export do (``tablectl.gamemath.decisions.judge.judge_round``), from a cold decision-value cache
    (a review process starts with none); adds the decisions judged to ``counted[0]``."""
    clear_cache()

    def sink(rnd: Any) -> None:
        if rnd.hands is not None and rnd.judge_with is not None:
            counted[0] += len(judge_round(rnd.hands, rnd.judge_with[0], rnd.judge_with[1] or 1))
    return sink


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


def peak_rss(args: list[str]) -> int:
    """Peak RSS (KiB) of ``args`` run in a fresh child of a fresh interpreter (so that the
    children's maximum is that command's alone)."""
    probe = ("import resource, subprocess, sys; "
             "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=False); "
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, check=True)
    return int(out.stdout.strip())


def cpu_seconds() -> float:
    """CPU time of this process and of its children reaped so far (the forked verifier)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def interleaved(fns: dict[str, Callable[[], Any]], repeat: int) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Per contestant, its wall times and its CPU times; the contestants take turns."""
    times: dict[str, list[float]] = {name: [] for name in fns}
    cpu: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(repeat):
        for name, fn in fns.items():
            gc.collect()  # the last runs' garbage is not this run's to collect
            t0, c0 = time.perf_counter(), cpu_seconds()
            result = fn()
            times[name].append(time.perf_counter() - t0)
            cpu[name].append(cpu_seconds() - c0)
            del result
    return times, cpu


def ratios(numerators: list[float], denominators: list[float]) -> list[float]:
    """Run by run, each contestant's time over the other's (the pairs taken side by side)."""
    return [a / b for a, b in zip(numerators, denominators, strict=True)]


def ratio_text(xs: list[float]) -> str:
    return f"{statistics.median(xs):.2f}x ({min(xs):.2f}-{max(xs):.2f})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="250000,1000000,4000000", help="log lengths in lines, comma-separated")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dir", type=Path, default=None, help="where to write (default: a temp dir)")
    ap.add_argument("--keep", action="store_true", help="keep the logs (and reuse them if they are there)")
    ap.add_argument("--no-rss", action="store_true", help="skip the peak-RSS runs (only the timed ratios)")
    ap.add_argument("--game", default="one-card-poker", choices=list(GAMES),
                    help="the game the logs are played at (default: one-card-poker)")
    args = ap.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]

    root = args.dir or Path(tempfile.mkdtemp(prefix="tablectl-bench-review-"))
    root.mkdir(parents=True, exist_ok=True)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, logs in {root}")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    first_rss: tuple[int, int] | None = None
    try:
        print(f"{'lines':>10} {'MB':>6} {'rounds':>8} {'RSS text':>9} {'x first':>7} {'RSS json':>9} {'x first':>7}"
              f"   {'verify+reconstruct / parse':>27} {'full review / parse':>22} {'judged / review':>22} {'decisions':>10}")
        for size in sizes:
            d = root / (str(size) if args.game == "one-card-poker" else f"{args.game}-{size}")
            log_dir, pub = d / "log", d / "keys" / "table.pub"
            if not (log_dir.exists() and pub.exists()):
                d.mkdir(parents=True, exist_ok=True)
                generate(d, size, game=args.game)
            files = sorted(log_dir.glob("*.jsonl"))
            mb = sum(p.stat().st_size for p in files) / 1e6
            cli = [sys.executable, "-m", "tablectl", "review", str(log_dir), "--key", str(pub)]
            rss = (1, 1) if args.no_rss else (peak_rss(cli), peak_rss([*cli, "--json"]))
            first_rss = first_rss or rss
            key = load_public_key(pub)
            rounds = [0]
            judged = [0]
            times, cpu = interleaved({
                "bare": lambda: sum(bare_parse(p) for p in files),
                "reconstruct": lambda: review(files, [key], replay=False, rounds=lambda r: None),
                "review": lambda: review(files, [key], rounds=lambda r: rounds.__setitem__(0, rounds[0] + 1)),
                "judged": lambda: review(files, [key], rounds=judging_sink(judged)),
            }, args.repeat)
            recon = ratios(times["reconstruct"], times["bare"])
            full = ratios(times["review"], times["bare"])
            judge = ratios(times["judged"], times["review"])
            print(f"{size:>10,} {mb:>6.0f} {rounds[0] // args.repeat:>8,} {rss[0] / 1024:>6.0f} MiB {rss[0] / first_rss[0]:>6.2f}x"
                  f" {rss[1] / 1024:>6.0f} MiB {rss[1] / first_rss[1]:>6.2f}x   {ratio_text(recon):>27} {ratio_text(full):>22}"
                  f" {ratio_text(judge):>22} {judged[0] // args.repeat:>10,}", flush=True)
            print(f"{'':>10} seconds, median: parse {statistics.median(times['bare']):.1f}, review "
                  f"{statistics.median(times['review']):.1f}, judged review {statistics.median(times['judged']):.1f}", flush=True)
            judge_cpu = ratios(cpu["judged"], cpu["review"])
            print(f"{'':>10} judged / review in CPU time (this process and the verifier it forks): "
                  f"{ratio_text(judge_cpu)}", flush=True)
            print(f"{'':>10} in CPU time (the same): verify+reconstruct / parse "
                  f"{ratio_text(ratios(cpu['reconstruct'], cpu['bare']))}, full review / parse "
                  f"{ratio_text(ratios(cpu['review'], cpu['bare']))}", flush=True)
        print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}  (the machine is shared: "
              "ratios are taken run by run, the parse and the review side by side)")
    finally:
        if not args.keep and args.dir is None:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
