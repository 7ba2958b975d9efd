"""The collector's CPU per line, against a bare ``orjson.loads`` plus one Ed25519 signature check
per line (what any reader that parsed and authenticated each line on its own would pay).

Each repeat: a broker on a free loopback port (a real nats-server), TABLES signed logs of LINES
lines in all (checkpoint every 1000 lines, a file per 2,000-line shoe) published into its stream
first; then the collector (``tablectl.live.collect.Collector``, in this process) reads the stream
from the start until it has written every line: its CPU time (this process, all threads) per line
— fetching, judging, journalling, verifying, writing and fsyncing the copies, acknowledging. The
baseline runs over the same lines. Prints the medians and ranges over the repeats.

    python bench/bench_collect.py [--tables 10] [--lines 50000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]


def make_logs(root: Path, tables: int, lines: int, keyring_dir: Path) -> dict[str, list[tuple[str, bytes]]]:
    from tablectl.eventlog import EventLog, generate_key, keyring
    from tablectl.eventlog import logformat as fmt

    per = max(1, lines // tables)
    out = {}
    for t in range(tables):
        table = f"bench-{t:03d}"
        key = generate_key()
        keyring.enrol(keyring_dir, table, key.public_key())
        log = EventLog(root / table, table, signing_key=key, checkpoint_every=1000, fsync=False)
        for i in range(per):
            log.append("dealt", shoe=i // 2000 + 1, round=i // 6 + 1, card="QH", to=f"seat:{i % 7 + 1}",
                       device="shoe-1", event_no=i + 1, penetration=round((i % 2000) / 2000, 4))
            if i % 64 == 63:
                log.commit()
            if i % 2000 == 1999:
                log.end_shoe(shoe=i // 2000 + 1)
        log.close()
        out[table] = [(p.name, line) for p in fmt.log_files(root / table)[table]
                      for line in p.read_bytes().split(b"\n")[:-1]]
    return out


async def publish(url: str, logs: dict[str, list[tuple[str, bytes]]]) -> None:
    import nats

    from tablectl.live import stream

    nc = await nats.connect(url)
    js = nc.jetstream(timeout=30)
    await stream.ensure_stream(js)
    pending = []
    for table, lines in logs.items():
        for file, line in lines:
            seq = int(line[7:line.index(b",")])
            pending.append(await js.publish_async(stream.log_subject(table), line,
                                                  headers={stream.MSG_ID_HEADER: stream.msg_id(table, file, seq)}))
            if len(pending) >= 2000:
                await asyncio.gather(*pending)
                pending.clear()
    await asyncio.gather(*pending)
    await nc.close()


def collector_cpu(url: str, to: Path, keyring_dir: Path, total: int) -> tuple[float, float]:
    """(CPU seconds, wall seconds) the collector took to write ``total`` lines."""
    from tablectl.live.collect import Collector

    collector = Collector(url, to, keyring=keyring_dir, batch=512)

    async def run() -> None:
        stop = asyncio.Event()
        task = asyncio.create_task(collector.run(stop))
        while collector.stats.written < total and not task.done():
            await asyncio.sleep(0.01)
        stop.set()
        await task

    cpu0, wall0 = time.process_time(), time.perf_counter()
    asyncio.run(run())
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    if collector.stats.written != total or collector.stats.refused:
        raise SystemExit(f"collector wrote {collector.stats.written} of {total} lines, refused {dict(collector.stats.refused)}")
    return cpu, wall


def baseline_cpu(lines: list[bytes]) -> float:
    """CPU seconds of orjson.loads + one Ed25519 verify per line."""
    from tablectl.eventlog import generate_key

    key = generate_key()
    message = lines[0]
    signature = key.sign(message)
    public = key.public_key()
    loads, verify = orjson.loads, public.verify
    cpu0 = time.process_time()
    for line in lines:
        loads(line)
        verify(signature, message)
    return time.process_time() - cpu0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--lines", type=int, default=50_000, help="lines in all, over the tables")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "src"))
    from tablectl.live.broker import Broker

    per_line, base_line, ratios, rates = [], [], [], []
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory(prefix="bench-collect-") as d:
            root = Path(d)
            logs = make_logs(root / "logs", args.tables, args.lines, root / "keyring")
            total = sum(len(v) for v in logs.values())
            with Broker(root / "broker", listen="127.0.0.1:0") as broker:
                asyncio.run(publish(broker.url, logs))
                cpu, wall = collector_cpu(broker.url, root / "copies", root / "keyring", total)
            base = baseline_cpu([line for v in logs.values() for _, line in v])
            per_line.append(cpu / total * 1e6)
            base_line.append(base / total * 1e6)
            ratios.append(cpu / base)
            rates.append(total / wall)

    def show(name: str, values: list[float], unit: str) -> None:
        print(f"{name:<44} median {statistics.median(values):9.2f} {unit}  (range {min(values):.2f}-{max(values):.2f})")

    print(f"bench_collect: {args.tables} tables, {total:,} lines, {args.repeat} repeat(s)")
    show("collector CPU per line", per_line, "us")
    show("orjson.loads + 1 signature check per line", base_line, "us")
    show("ratio collector / baseline", ratios, "x")
    show("collector lines per second (wall)", rates, "/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
