"""Framer decode throughput: frames per second on one core, pure (no I/O). Target >= 200,000/s.

Three line shapes: a clean stream read in 4 KiB chunks (what a busy serial read returns), one
frame per read (a quiet line), and a stream with 5% noise bytes between frames (hunting).
Usage: python bench/bench_framer.py [FRAMES]
"""

from __future__ import annotations

import random
import sys
import time

from tablectl.drivers import events as ev
from tablectl.drivers import messages as msg
from tablectl.drivers.framer import Framer, encode


def card_frames(n: int) -> list[bytes]:
    rng = random.Random(1)
    return [encode(i, *msg.encode(ev.CardDrawn(i, rng.randrange(52)))) for i in range(n)]


def chunks(data: bytes, size: int) -> list[bytes]:
    return [data[i : i + size] for i in range(0, len(data), size)]


def measure(name: str, pieces: list[bytes], expected: int) -> float:
    best = 0.0
    for _ in range(5):
        framer = Framer()
        t0 = time.perf_counter()
        got = 0
        for p in pieces:
            got += len(framer.feed(p))
        dt = time.perf_counter() - t0
        assert got == expected, (name, got, expected)
        best = max(best, got / dt)
    print(f"{name:<34} {best:>12,.0f} frames/s")
    return best


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    frames = card_frames(n)
    stream = b"".join(frames)
    rng = random.Random(2)
    noisy = b"".join((bytes(rng.randrange(256) for _ in range(3)) if rng.random() < 0.05 else b"") + f for f in frames)
    print(f"{n:,} CardDrawn frames of {len(frames[0])} bytes, best of 5 runs, one core")
    for _ in range(3):  # warm up (allocator, CPU clock) so the first shape is not penalised
        Framer().feed(stream)
    results = [
        measure("clean stream, 4 KiB reads", chunks(stream, 4096), n),
        measure("one frame per read", frames, n),
        measure("5% noise between frames, 4 KiB", chunks(noisy, 4096), n),
    ]
    print(f"target 200,000 frames/s: {'met' if min(results) >= 200_000 else 'NOT met'} (slowest shape {min(results):,.0f})")


if __name__ == "__main__":
    main()
