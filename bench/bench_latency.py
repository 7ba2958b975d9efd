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

``--via`` puts a serial device server between the two ends, as a rig behind one would have it:
``rfc2217`` (pyserial's own RFC 2217 server, ``tablectl.simulators.serving.rfc2217``, in a process
of its own), ``ser2net`` (ser2net 4 with its defaults: Nagle and the character delay on) and
``ser2net-tuned`` (``tcp(nodelay)`` and ``chardelay: false``). Several ``--via`` values are
measured in turn, ``--repeat`` times, and each is printed against the direct pty of the same
round as a ratio of p50 and p99 (medians and ranges over the rounds).

Usage: python bench/bench_latency.py [CARDS] [GAP_SECONDS] [--same-process]
       python bench/bench_latency.py 2000 0.002 --via pty,rfc2217,ser2net,ser2net-tuned --repeat 5
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import select
import shutil
import socket
import statistics
import subprocess
import tempfile
import threading
import time
import tty
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _bridge_process(path: str, port: int, stop: Any) -> None:
    from tablectl.simulators.serving.rfc2217 import Rfc2217Bridge

    with Rfc2217Bridge(path, port=port):
        stop.wait()


SER2NET_YAML = """\
connection: &dev
    accepter: telnet(rfc2217),{tcp},127.0.0.1,{port}
    connector: serialdev,{path},115200n81,local
    options:
      kickolduser: true
{extra}"""


@contextmanager
def served(via: str, path: str) -> Iterator[str]:
    """The address a host opens to reach the pty ``path`` through ``via``."""
    if via == "pty":
        yield path
        return
    port = _free_port()
    if via == "rfc2217":
        ctx = mp.get_context("fork")
        stop = ctx.Event()
        bridge = ctx.Process(target=_bridge_process, args=(path, port, stop), daemon=True)
        bridge.start()
        _wait_listening(port)
        try:
            yield f"rfc2217://127.0.0.1:{port}"
        finally:
            stop.set()
            bridge.join(5)
        return
    if via not in ("ser2net", "ser2net-tuned"):
        raise SystemExit(f"--via {via}: expected pty, rfc2217, ser2net or ser2net-tuned")
    if shutil.which("ser2net") is None:
        raise SystemExit("--via ser2net: ser2net is not installed (Debian: apt install ser2net)")
    tuned = via == "ser2net-tuned"
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "ser2net.yaml"
        config.write_text(SER2NET_YAML.format(
            tcp="tcp(nodelay)" if tuned else "tcp", port=port, path=path, extra="      chardelay: false\n" if tuned else "",
        ))
        proc = subprocess.Popen(["ser2net", "-n", "-d", "-c", str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            _wait_listening(port)
            yield f"rfc2217://127.0.0.1:{port}?ign_set_control"  # a pty has no modem lines to set
        finally:
            proc.terminate()
            proc.wait(5)


def _wait_listening(port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"nothing listens on 127.0.0.1:{port}")


def measure(cards: int, gap: float, *, same_process: bool = False, via: str = "pty") -> list[float]:
    """Per-card latency in microseconds, device write -> driver sink, sorted."""
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
    with served(via, path) as address:
        device.start()
        driver = open_device("shoe", address, "shoe", sink)
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
    return sorted((arrived[n] - written[n]) / 1000 for n in arrived if n in written)


def _spread(values: list[float], fmt: str = "{:.0f}") -> str:
    return f"{fmt.format(statistics.median(values))} ({fmt.format(min(values))}-{fmt.format(max(values))})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cards", nargs="?", type=int, default=5000)
    ap.add_argument("gap", nargs="?", type=float, default=0.002, help="seconds between cards")
    ap.add_argument("--same-process", action="store_true")
    ap.add_argument("--via", default="pty", help="comma-separated: pty, rfc2217, ser2net, ser2net-tuned")
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    vias = args.via.split(",")
    if len(vias) == 1 and args.repeat == 1:
        lat = measure(args.cards, args.gap, same_process=args.same_process, via=vias[0])
        q = statistics.quantiles(lat, n=100)
        where = "the same process (shared GIL)" if args.same_process else "its own process"
        print(f"{len(lat):,} cards via {vias[0]}, one every {args.gap * 1000:g} ms, device in {where}:")
        print(f"  device write -> driver sink: p50 {q[49]:.0f} us  p90 {q[89]:.0f} us  p99 {q[98]:.0f} us  max {lat[-1]:.0f} us")
        print(f"  target p99 <= 1000 us: {'met' if q[98] <= 1000 else 'NOT met'}")
        return
    if "pty" not in vias:
        vias.insert(0, "pty")
    p50: dict[str, list[float]] = {v: [] for v in vias}
    p99: dict[str, list[float]] = {v: [] for v in vias}
    for _ in range(args.repeat):
        for via in vias:
            q = statistics.quantiles(measure(args.cards, args.gap, same_process=args.same_process, via=via), n=100)
            p50[via].append(q[49])
            p99[via].append(q[98])
    print(f"{args.cards:,} cards a round, one every {args.gap * 1000:g} ms, {args.repeat} rounds; "
          f"median (range) over the rounds; ratio = via / direct pty in the same round")
    for via in vias:
        r50 = [a / b for a, b in zip(p50[via], p50["pty"])]
        r99 = [a / b for a, b in zip(p99[via], p99["pty"])]
        print(f"  {via:14s} p50 {_spread(p50[via])} us  p99 {_spread(p99[via])} us  "
              f"ratio p50 {_spread(r50, '{:.1f}')}x  p99 {_spread(r99, '{:.1f}')}x")


if __name__ == "__main__":
    main()
