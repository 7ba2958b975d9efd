"""Per-card latency over a real pty: from the device writing the frame to the driver's sink.

The device end is the project's ``SimDevice`` (a shoe) on a pty master, driven by this script's
own loop so the moment each card's bytes are written is known exactly (``perf_counter_ns``, i.e.
CLOCK_MONOTONIC, the same clock in every process); the host end is the real ``ShoeDriver`` on the
slave. Cards are dealt one at a time, GAP apart (a fast dealer is a card every 300 ms; the
default is far faster). Target: p99 <= 1 ms.

The device runs in its own process, as real hardware does. ``--same-process`` runs it as a thread
of the driver's process instead: the two then share one GIL, and CPython's 5 ms switch interval
shows up in the tail (a controller process should keep CPU-bound work off its threads, or lower
``sys.setswitchinterval``).

Usage: python bench/bench_latency.py [CARDS] [GAP_SECONDS] [--same-process]
"""

from __future__ import annotations

import multiprocessing as mp
import os
import select
import statistics
import sys
import threading
import time
import tty
from typing import Any

from tablectl.drivers import events as ev
from tablectl.drivers.registry import open_device
from tablectl.simulators.factory import build_device


def device_loop(master: int, cards: int, gap: float, stop: Any, report: Any) -> None:
    """Serve a simulated shoe on ``master``; deal ``cards`` cards; report {event_no: write_ns}."""
    sim = build_device("shoe", seed=1)
    sim.connected(time.monotonic())
    written: dict[int, int] = {}
    dealt = 0
    next_deal = time.monotonic() + 0.2
    while not stop.is_set():
        now = time.monotonic()
        wait = 0.01 if dealt >= cards or not sim.streaming else min(max(0.0, next_deal - now), 0.01)
        r, _, _ = select.select([master], [], [], wait)
        now = time.monotonic()
        if r:
            try:
                sim.receive(os.read(master, 65536), now)
            except (BlockingIOError, OSError):
                pass
        fresh: list[int] = []
        if dealt < cards and now >= next_deal and sim.streaming:
            batch = sim.load() if sim.model.done else sim.draw()
            fresh = [e.event_no for e in batch if isinstance(e, ev.CardDrawn)]
            dealt += len(fresh)
            next_deal = now + gap
        sim.poll(now)
        out = sim.outgoing(now)
        if out:
            t = time.perf_counter_ns()
            os.write(master, out)
            for n in fresh:
                written[n] = t
    report.send(written)


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    same_process = "--same-process" in sys.argv
    cards = int(args[0]) if args else 5000
    gap = float(args[1]) if len(args) > 1 else 0.002
    master, slave = os.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    os.set_blocking(master, False)
    arrived: dict[int, int] = {}

    def sink(name: str, event: ev.DeviceEvent) -> None:
        if isinstance(event, ev.CardDrawn):
            arrived[event.event_no] = time.perf_counter_ns()

    ctx = mp.get_context("fork")
    receive, report = ctx.Pipe(duplex=False)
    if same_process:
        stop: Any = threading.Event()
        device: Any = threading.Thread(target=device_loop, args=(master, cards, gap, stop, report), daemon=True)
    else:
        stop = ctx.Event()
        device = ctx.Process(target=device_loop, args=(master, cards, gap, stop, report), daemon=True)
    device.start()
    driver = open_device("shoe", path, "shoe", sink)
    try:
        deadline = time.monotonic() + cards * gap + 30
        while len(arrived) < cards and time.monotonic() < deadline:
            time.sleep(0.05)
            if arrived:
                driver.persisted(max(arrived))
    finally:
        stop.set()
        written = receive.recv() if receive.poll(5) else {}
        device.join(2)
        driver.stop()
        os.close(master)
        os.close(slave)
    lat = sorted((arrived[n] - written[n]) / 1000 for n in arrived if n in written)
    q = statistics.quantiles(lat, n=100)
    where = "the same process (shared GIL)" if same_process else "its own process"
    print(f"{len(lat):,} cards over a pty, one every {gap * 1000:g} ms, device in {where}:")
    print(f"  device write -> driver sink: p50 {q[49]:.0f} us  p90 {q[89]:.0f} us  p99 {q[98]:.0f} us  max {lat[-1]:.0f} us")
    print(f"  target p99 <= 1000 us: {'met' if q[98] <= 1000 else 'NOT met'}")


if __name__ == "__main__":
    main()
