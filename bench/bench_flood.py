"""The controller under a valid-event flood (issue 14, D9b): inbox peak, open violations kept, RSS.

A producer thread hands ``--events`` CardDrawn events (after one ShoeLoaded) to the controller's
sink as fast as it can, as a driver would for a device that floods the table; every card is drawn
outside a round, so each one is also a violation. The log is a real EventLog with fsync in a
temporary directory. Prints the inbox's peak length, the open violations kept in memory, the
process's RSS growth and the events per second; then checks every event is logged once.

    python bench/bench_flood.py --events 200000
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import Counter
from pathlib import Path

import orjson

from tablectl.config import parse_config
from tablectl.drivers import events as ev
from tablectl.eventlog import EventLog
from tablectl.table.controller import TableController


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=200_000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cfg = parse_config({
            "table": "t1", "game": "one-card-poker", "decks": 6, "seats": 7, "min_bet": 5, "max_bet": 500,
            "devices": {"dev": {"driver": "shoe", "address": "/dev/ttyUSB0"}}, "log": {"dir": tmp},
        })
        log = EventLog(Path(tmp), cfg.table, signing_key=None, fsync=True)
        controller = TableController(cfg, log)
        controller.start()
        base = rss_mb()
        peak_inbox = 0
        start = time.perf_counter()
        controller.sink("dev", ev.ShoeLoaded(1, 1, 6, 312))
        for n in range(2, args.events + 2):
            controller.sink("dev", ev.CardDrawn(n, n % 52))
            if n % 256 == 0:
                peak_inbox = max(peak_inbox, controller._inbox.qsize())
        controller.wait_processed("dev", args.events + 1, timeout=600)
        elapsed = time.perf_counter() - start
        kept = len(controller.core.alarms.violations)
        grown = rss_mb() - base
        controller.stop()
        log.close()
        numbers: Counter[int] = Counter()
        for path in Path(tmp).rglob("*.jsonl"):
            for line in path.read_bytes().splitlines():
                r = orjson.loads(line)
                if r.get("event_no") and r["event"] != "violation":
                    numbers[r["event_no"]] += 1
        exact = sorted(numbers) == list(range(1, args.events + 2)) and set(numbers.values()) == {1}
        print(f"events={args.events} inbox_peak={peak_inbox} violations_kept={kept} rss_growth={grown:.1f} MB "
              
              f"rate={args.events / elapsed:,.0f}/s logged_exactly_once={exact}")


if __name__ == "__main__":
    main()
