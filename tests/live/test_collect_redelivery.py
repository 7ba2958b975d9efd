"""The stream delivering again what the collector already took (a broker that lost its consumer's
state after a crash starts over, counting every delivery as the first) is dropped quietly; the same
line published again is still a replay (real nats-server, real collector)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path

import nats
from livehelpers import assert_copy_identical, refusals
from loghelpers import write_log
from test_live_untrusted import _publish, genuine, insider

from tablectl.eventlog import generate_key, keyring
from tablectl.live import stream
from tablectl.live.broker import Broker
from tablectl.live.collect import Collector


async def _until(condition: Callable[[], object], what: str, timeout: float = 20.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.02)


def test_lines_delivered_anew_by_a_consumer_that_lost_its_state_are_quiet_and_a_replay_is_still_reported(
        tmp_path: Path, broker: Broker):
    table = "redelivered-1"
    key = generate_key()
    keyring.enrol(Path(os.environ["TABLECTL_KEYRING"]), table, key.public_key())
    lines = write_log(tmp_path / "log", table, key, shoes=2, cards=20)
    copies = tmp_path / "copies"
    n = len(lines)

    async def go() -> Collector:
        collector = Collector(broker.url, copies, keyring=Path(os.environ["TABLECTL_KEYRING"]))
        stop = asyncio.Event()
        task = asyncio.create_task(collector.run(stop))
        try:
            await _publish(broker.url, table, [genuine(table, f, line) for f, line in lines])
            await _until(lambda: collector.stats.written == n, "the copy")
            nc = await nats.connect(broker.url)
            try:  # what nats-server does after a SIGKILL: the same messages, each delivered as if for the first time
                js = nc.jetstream(timeout=5)
                await js.delete_consumer(stream.STREAM, collector.durable)
                await js.add_consumer(stream.STREAM, stream.consumer_config(collector.durable, collector.ack_wait))
            finally:
                await nc.close()
            await _until(lambda: collector.stats.received == 2 * n, "every line delivered again")
            await _publish(broker.url, table, [insider(table, *lines[3])])  # seq 4 published again
            await _until(lambda: collector.stats.received == 2 * n + 1, "the replay")
        finally:
            stop.set()
            await task
        return collector

    collector = asyncio.run(go())
    assert [(r["kind"], r["seq"]) for r in refusals(copies)] == [("replayed", 4)]
    assert collector.stats.repeats == n
    assert_copy_identical(tmp_path / "log", copies / table, table)


def test_after_a_collector_restart_lines_delivered_anew_are_still_quiet_repeats(tmp_path: Path, broker: Broker):
    table = "redelivered-2"
    key = generate_key()
    keyring.enrol(Path(os.environ["TABLECTL_KEYRING"]), table, key.public_key())
    lines = write_log(tmp_path / "log", table, key, shoes=2, cards=20)[:-5]  # the last lines held, unsigned yet
    copies = tmp_path / "copies"
    asyncio.run(_publish(broker.url, table, [genuine(table, f, line) for f, line in lines]))

    async def collect() -> Collector:
        collector = Collector(broker.url, copies, keyring=Path(os.environ["TABLECTL_KEYRING"]))
        await collector.run(asyncio.Event(), until_idle=1.0)
        return collector

    first = asyncio.run(collect())
    assert 0 < first.stats.written < len(lines) and first.stats.held == len(lines) - first.stats.written

    async def start_over() -> None:  # the broker's consumer state lost: every message delivered as the first time
        nc = await nats.connect(broker.url)
        try:
            js = nc.jetstream(timeout=5)
            await js.delete_consumer(stream.STREAM, first.durable)
            await js.add_consumer(stream.STREAM, stream.consumer_config(first.durable, first.ack_wait))
        finally:
            await nc.close()

    asyncio.run(start_over())
    again = asyncio.run(collect())
    assert (again.stats.received, again.stats.repeats, dict(again.stats.refused)) == (len(lines), len(lines), {})
    assert refusals(copies) == []
