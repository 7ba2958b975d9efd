"""The simulator's memory when its host never acknowledges (issue 14, D9a): RSS over a fixed run.

Starts ``tablectl sim shoe --tcp --control`` as a subprocess, connects a host that does the
handshake (SYNC, HELLO, REPLAY_FROM 1) and then reads and discards everything without ever
acknowledging a frame or persisting an event, and floods the control channel with ``button``
(each press is one numbered event) for ``--seconds``; with ``--replay`` the host also asks for a
replay from event 1 (REPLAY_FROM 1) a thousand times a second, as a host does that re-asks for
what it never acknowledged. Prints the simulator's RSS each second and the control answers
(``ok`` = an event issued, ``err`` = refused, e.g. its event store is full).

    python bench/bench_sim_memory.py --seconds 20 [--replay]
"""

from __future__ import annotations

import argparse
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from tablectl.drivers import messages as msg
from tablectl.drivers.events import ReplayFrom
from tablectl.drivers.link import Link


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--replay", action="store_true", help="the host also re-asks REPLAY_FROM 1, 1000 times a second")
    args = ap.parse_args()
    exe = shutil.which("tablectl") or str(Path(sys.executable).with_name("tablectl"))
    sim = subprocess.Popen([exe, "sim", "shoe", "--seed", "7", "--tcp", "127.0.0.1:0", "--control", "127.0.0.1:0"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert sim.stdout is not None
        address = sim.stdout.readline().strip().removeprefix("socket://")
        control = sim.stdout.readline().strip()
        host_sock = socket.create_connection(tuple(address.rsplit(":", 1)))  # type: ignore[arg-type]
        link = Link(window=1 << 30)  # it never waits for the device's acknowledgements either
        link.open(time.monotonic())
        link.send(*msg.encode(msg.Hello(msg.PROTOCOL_VERSION, msg.PROTOCOL_VERSION)), time.monotonic())
        link.send(*msg.encode(ReplayFrom(1)), time.monotonic())
        host_sock.sendall(link.outgoing())  # and never a byte more: no ACK, no PERSISTED
        stop = threading.Event()
        answers = {"ok": 0, "err": 0}

        def drain(sock: socket.socket, count: bool) -> None:
            pending = b""
            while not stop.is_set():
                try:
                    data = sock.recv(65536)
                except OSError:
                    return
                if not data:
                    return
                if count:
                    pending += data
                    *lines, pending = pending.split(b"\n")
                    for line in lines:
                        answers["ok" if line.startswith(b"ok") else "err"] += 1

        ctl = socket.create_connection(tuple(control.rsplit(":", 1)))  # type: ignore[arg-type]
        threads = [threading.Thread(target=drain, args=(host_sock, False), daemon=True),
                   threading.Thread(target=drain, args=(ctl, True), daemon=True)]
        for t in threads:
            t.start()
        start = time.monotonic()
        print(f"t=0s rss={rss_mb(sim.pid):.1f} MB")
        next_report = 1.0
        while (elapsed := time.monotonic() - start) < args.seconds:
            ctl.sendall(b"button\n" * 200)
            if args.replay:
                for _ in range(10):
                    link.send(*msg.encode(ReplayFrom(1)), time.monotonic())
                host_sock.sendall(link.outgoing())
                time.sleep(0.01)
            if elapsed >= next_report:
                print(f"t={next_report:.0f}s rss={rss_mb(sim.pid):.1f} MB answers={answers}", flush=True)
                next_report += 1.0
        print(f"end rss={rss_mb(sim.pid):.1f} MB answers={answers}")
        stop.set()
    finally:
        sim.terminate()
        sim.wait(10)


if __name__ == "__main__":
    main()
