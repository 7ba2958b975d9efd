"""A broker the collector cannot reach is said, naming the URL and the error: when it starts, every
so often, and once when it answers again; ``--until-idle`` then exits 4; SIGTERM while connecting
stops it within 2 s (real nats-server, real ``tablectl collect``)."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path

import nats
from livehelpers import Proc, run_collector, tablectl, wait_for

from tablectl.live import stream
from tablectl.live.broker import Broker, free_port
from tablectl.live.collect import Outage


def test_the_outage_is_said_when_it_starts_every_so_often_and_once_when_it_ends():
    o = Outage("nats://b:4222", every=30.0)
    assert o.down and not o.reached
    assert o.failed(100.0, "ConnectionRefusedError: refused") == \
        "broker unreachable at nats://b:4222: ConnectionRefusedError: refused; trying again"
    assert o.failed(110.0, "ConnectionRefusedError: refused") is None
    assert o.failed(131.0, "ConnectionRefusedError: refused") == \
        "broker unreachable at nats://b:4222 for 31 s: ConnectionRefusedError: refused; trying again"
    assert o.answered(140.0) == "broker at nats://b:4222 answers again (after 40 s)"
    assert o.answered(141.0) is None and o.reached and not o.down


def test_until_idle_with_no_broker_says_it_is_unreachable_and_exits_4(tmp_path: Path):
    url = f"nats://127.0.0.1:{free_port()}"
    proc = run_collector(tmp_path, url, tmp_path / "copies", "--until-idle", "1")
    assert proc.wait(30) == 4, proc.output()
    out = proc.output()
    assert out.count(f"broker unreachable at {url}: ") == 1, out
    assert f"the broker at {url} was never reached" in out


def test_sigterm_while_connecting_stops_it_within_2_s(tmp_path: Path):
    proc = Proc(tablectl("collect", f"nats://127.0.0.1:{free_port()}", "--to", str(tmp_path / "copies")),
                tmp_path / "collect.out")
    wait_for(lambda: "Ctrl-C stops" in proc.output(), 20, "the collector to start")
    started = time.monotonic()
    proc.signal(signal.SIGTERM)
    assert proc.wait(10) == 130, proc.output()
    assert time.monotonic() - started < 2.0


def test_a_broker_lost_mid_run_is_said_and_so_is_its_return(tmp_path: Path, own_broker: Broker):
    proc = run_collector(tmp_path, own_broker.url, tmp_path / "copies")
    try:
        wait_for(lambda: _consumers(own_broker.url), 20, "the collector's consumer")
        own_broker.stop()
        wait_for(lambda: f"broker unreachable at {own_broker.url}" in proc.output(), 20, "the warning")
        own_broker.start()
        wait_for(lambda: f"broker at {own_broker.url} answers again" in proc.output(), 20, "the all-clear")
    finally:
        proc.signal(signal.SIGTERM)
        proc.wait(10)
    assert proc.output().count("broker unreachable at") == 1


def _consumers(url: str) -> list[str]:
    async def go() -> list[str]:
        nc = await nats.connect(url)
        try:
            return [c.name for c in await nc.jetstream().consumers_info(stream.STREAM)]
        finally:
            await nc.close()

    return asyncio.run(go())
