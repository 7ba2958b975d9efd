"""The floor soak (slow, by hand): TABLES simulated tables (``tablectl run --simulate --headless
--autoplay``, each its own process) publishing at full speed into one broker on this machine for
SECONDS, one collector; then every copy byte-identical to its table's log. The tables run niced
(each stands in for a computer of its own), so the broker and the collector come first.

Figures (printed, and written as JSON to ``$TABLECTL_SOAK_REPORT`` if set): latency from a line's
``ts`` (written just before the table's fsync) to its arrival at the collector and to its write
into the copy (p50, p99; a line is written once the checkpoint that signs it arrives), the
collector's CPU per line as a ratio to a bare ``orjson.loads`` plus one signature check per line,
the broker's memory (peak of ``/varz`` ``mem``).

    TABLECTL_SOAK_TABLES=100 TABLECTL_SOAK_SECONDS=600 pytest -n 0 -m slow tests/live/test_live_soak.py -s
"""

from __future__ import annotations

import json
import os
import signal
import statistics
import time
from pathlib import Path

import orjson
import pytest
from livehelpers import (
    Proc,
    assert_copy_identical,
    assert_review_clean,
    copy_complete,
    log_lines,
    make_streams,
    table_config,
    tablectl,
    wait_for,
)

from tablectl.eventlog import generate_key
from tablectl.live.broker import Broker

TABLES = int(os.environ.get("TABLECTL_SOAK_TABLES", "100"))
SECONDS = float(os.environ.get("TABLECTL_SOAK_SECONDS", "600"))


def _rss_mib(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _baseline_us(lines: list[bytes]) -> float:
    key = generate_key()
    message, public = lines[0], key.public_key()
    signature = key.sign(message)
    t = time.process_time()
    for line in lines:
        orjson.loads(line)
        public.verify(signature, message)
    return (time.process_time() - t) / len(lines) * 1e6


@pytest.mark.slow
@pytest.mark.timeout(7200)
@pytest.mark.parametrize("tables, seconds", [(TABLES, SECONDS)])
def test_a_floor_publishing_at_full_speed_is_collected_whole(tmp_path: Path, tables: int, seconds: float):
    broker = Broker(tmp_path / "broker", listen="127.0.0.1:0").start()
    try:
        make_streams(broker.url)
        copies = tmp_path / "copies"
        collector = Proc(tablectl("collect", broker.url, "--to", str(copies), "--stats", str(tmp_path / "stats.json")),
                         tmp_path / "collect.out")
        names = [f"soak-{i:03d}" for i in range(tables)]
        procs = []
        for i, name in enumerate(names):
            config = table_config(tmp_path, name, publish=broker.url)
            config.write_text(config.read_text().replace("drain = 30", "drain = 60"))
            # each table stands in for a computer of its own: niced, so that on this one machine the
            # broker and the collector get the CPU they would have on theirs
            procs.append(Proc(["nice", "-n", "19", *tablectl("run", str(config), "--simulate", "--headless",
                                                              "--autoplay", "100000000", "--seed", str(i + 1),
                                                              "--log-dir", str(tmp_path / "logs" / name))],
                              tmp_path / f"{name}.out"))
        started = time.monotonic()
        broker_mem, collector_rss = [], []
        while time.monotonic() - started < seconds:
            broker_mem.append(broker.varz()["mem"] / 2**20)
            collector_rss.append(_rss_mib(collector.p.pid))
            dead = [p for p in procs if not p.running]
            assert not dead, dead[0].output()[-2000:]
            time.sleep(min(5.0, max(0.1, seconds - (time.monotonic() - started))))
        dealt = time.monotonic() - started
        for p in procs:
            p.signal(signal.SIGTERM)
        for p in procs:
            assert p.wait(300) == 130, p.output()[-2000:]
        drained = time.monotonic()
        for name in names:
            wait_for(lambda name=name: copy_complete(tmp_path / "logs" / name, copies / name, name), 600, f"{name}'s copy")
        caught_up = time.monotonic() - drained
        broker_mem.append(broker.varz()["mem"] / 2**20)
        collector.signal(signal.SIGTERM)
        assert collector.wait(60) == 130, collector.output()[-2000:]
    finally:
        broker.stop()
    stats = orjson.loads((tmp_path / "stats.json").read_bytes())
    for name in names:
        assert_copy_identical(tmp_path / "logs" / name, copies / name, name)
    for name in names[:3]:
        assert_review_clean(copies / name, stopped_mid_round=True)
    total = sum(len(log_lines(tmp_path / "logs" / n, n)) for n in names)
    assert stats["written"] == total and stats["refused"] == {}
    sample = [line for n in names[:10] for line in log_lines(tmp_path / "logs" / n, n)][:50_000]
    base = statistics.median(_baseline_us(sample) for _ in range(3))
    per_line = stats["cpu_s"] / total * 1e6
    report = {
        "tables": tables, "seconds": round(dealt, 1), "lines": total, "lines_per_s": round(total / dealt),
        "arrival_s": stats["arrival"], "write_s": stats["latency"],
        "collector_cpu_us_per_line": round(per_line, 2), "baseline_us_per_line": round(base, 2),
        "cpu_ratio": round(per_line / base, 3),
        "broker_mem_mib_peak": round(max(broker_mem), 1), "collector_rss_mib_peak": round(max(collector_rss), 1),
        "catch_up_after_stop_s": round(caught_up, 1),
    }
    print("\nsoak:", json.dumps(report, indent=2))
    if os.environ.get("TABLECTL_SOAK_REPORT"):
        Path(os.environ["TABLECTL_SOAK_REPORT"]).write_text(json.dumps(report, indent=2) + "\n")
