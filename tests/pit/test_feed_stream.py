"""The feed on a real broker (``nats-server`` with JetStream, ``LocalBroker``), run in this process:
the log lines on the stream, the collector's alarms and the publishers' status reach the floor
state, once each, and a broker that goes away and comes back loses nothing."""

from __future__ import annotations

import asyncio
import shutil
import time
from collections.abc import Callable
from typing import Any, Self

import nats
import orjson

from tablectl.live.stream import alarm_subject, status_subject
from tablectl.pit.feed import Feed
from tablectl.pit.nats import STREAM, LocalBroker, ensure_stream, log_subject, msg_id
from tablectl.pit.rounds import RoundBook
from tablectl.pit.state import Floor

from .test_state import Log, a_round, started


async def publish(url: str, records: list[dict[str, Any]]) -> None:
    """Lines as a table's publisher sends them: on the table's log subject, with their message id."""
    nc = await nats.connect(url)
    js = nc.jetstream()
    await ensure_stream(js)
    for r in records:
        await js.publish(log_subject(r["table"]), orjson.dumps(r),
                         headers={"Nats-Msg-Id": msg_id(r["table"], f"tablectl-{r['table']}-000001", r["seq"])})
    await nc.close()


async def send(url: str, subject: str, message: dict[str, Any]) -> None:
    nc = await nats.connect(url)
    await nc.publish(subject, orjson.dumps(message))
    await nc.flush()
    await nc.close()


async def until(what: Callable[[], Any], message: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < deadline, message
        await asyncio.sleep(0.02)


class Running:
    """A feed into a floor of its own, running until the ``with`` ends."""

    def __init__(self, url: str) -> None:
        self.floor, self.rounds = Floor(), RoundBook()
        self.changed: list[str] = []
        self.status: list[str] = []
        self.feed = Feed(url, self.floor, self.rounds, self.changed.append, self.status.append)
        self.stop = asyncio.Event()

    async def __aenter__(self) -> Self:
        self.task = asyncio.create_task(self.feed.run(self.stop))
        await until(lambda: "live from the stream" in self.status, f"the feed never went live: {self.status}")
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.stop.set()
        await asyncio.wait_for(self.task, 5)

    def rounds_of(self, table: str) -> int:
        t = self.floor.tables.get(table)
        return t.day.rounds if t is not None and t.day is not None else 0


def test_lines_on_the_stream_before_and_after_the_page_started_reach_the_floor_once_each(broker: LocalBroker) -> None:
    log = Log("S1")
    before, after = started(log) + a_round(log, 1), a_round(log, 2)

    async def main() -> None:
        await publish(broker.url, before)
        await publish(broker.url, before[-3:])  # a publisher sending again what the stream has: dropped by the broker
        async with Running(broker.url) as r:
            await until(lambda: r.rounds_of("S1") == 1, "round 1 from the stream")
            await publish(broker.url, after)
            await until(lambda: r.rounds_of("S1") == 2, "round 2, published once the page was live")
            # the round is counted at its settlement, before the round's last lines are taken
            await until(lambda: r.feed.last_stream_seq == len(before) + len(after), "the stream's last line")
            assert r.feed.connected
            assert r.feed.lines == len(before) + len(after)
            assert set(r.changed) == {"S1"}

    asyncio.run(main())


def test_the_collectors_alarm_and_the_publishers_status_reach_the_table(broker: LocalBroker) -> None:
    log = Log("S2")

    async def main() -> None:
        await publish(broker.url, started(log))
        async with Running(broker.url) as r:
            await until(lambda: "S2" in r.floor.tables, "the table from the stream")
            await send(broker.url, alarm_subject("S2"), {"kind": "gap", "detail": "seq 7 to 9 missing",
                                                         "ts": "2026-05-01T21:00:05.000000Z"})
            await send(broker.url, status_subject("S2"), {"table": "S2", "published_seq": 6, "log_seq": 9,
                                                          "connected": True})
            await until(lambda: r.floor.alarms and r.floor.tables["S2"].publisher, "the alarm and the status")
            alarm = r.floor.alarms[0]
            assert (alarm.table, alarm.kind, alarm.what) == ("S2", "gap", "seq 7 to 9 missing")
            assert "3 lines behind" in str(r.floor.tables["S2"].publisher)

    asyncio.run(main())


def test_a_broker_that_goes_away_and_comes_back_loses_no_line_and_takes_none_twice(broker: LocalBroker) -> None:
    log = Log("S3")
    first, second = started(log) + a_round(log, 1), a_round(log, 2) + a_round(log, 3)

    async def main() -> None:
        await publish(broker.url, first)
        async with Running(broker.url) as r:
            await until(lambda: r.rounds_of("S3") == 1, "round 1")
            await asyncio.to_thread(broker.stop)
            await until(lambda: not r.feed.connected, "the feed noticing the broker gone")
            assert r.status[-1] == "broker unreachable: reconnecting"
            await asyncio.to_thread(broker.start)
            await until(lambda: "broker back: catching up" in r.status, f"the feed back: {r.status}")
            await publish(broker.url, second)
            await until(lambda: r.rounds_of("S3") == 3, "rounds 2 and 3, published after the broker came back")
            await until(lambda: r.feed.last_stream_seq == len(first) + len(second), "the stream's last line")
            assert r.feed.lines == len(first) + len(second)
            assert r.status[-1] == "live from the stream"

    asyncio.run(main())


def test_a_broker_that_comes_back_with_an_empty_store_is_read_from_its_new_stream(broker: LocalBroker) -> None:
    old, other = Log("S4"), Log("S5")
    first = started(old) + a_round(old, 1) + a_round(old, 2)
    second = a_round(old, 3) + started(other)  # fewer messages than the old stream held

    async def main() -> None:
        await publish(broker.url, first)
        async with Running(broker.url) as r:
            await until(lambda: r.feed.last_stream_seq == len(first), "the old stream's last line")
            await asyncio.to_thread(broker.stop)
            await until(lambda: not r.feed.connected, "the feed noticing the broker gone")
            shutil.rmtree(broker.store)  # a new disk, or a new broker host
            await asyncio.to_thread(broker.start)
            await publish(broker.url, second)
            await until(lambda: r.rounds_of("S4") == 3 and "S5" in r.floor.tables,
                        "round 3 and table S5 from the new stream")
            await until(lambda: r.feed.last_stream_seq == len(second), "the new stream's last line")
            assert r.feed.lines == len(first) + len(second)
            assert r.status[-1] == "live from the stream"

    asyncio.run(main())


def test_a_stream_deleted_and_made_anew_while_the_page_is_connected_is_read_from_its_start(broker: LocalBroker) -> None:
    log = Log("S6")
    first, second = started(log) + a_round(log, 1) + a_round(log, 2), a_round(log, 3)

    async def main() -> None:
        await publish(broker.url, first)
        async with Running(broker.url) as r:
            await until(lambda: r.feed.last_stream_seq == len(first), "the old stream's last line")
            nc = await nats.connect(broker.url)
            await nc.jetstream().delete_stream(STREAM)
            await nc.close()
            await publish(broker.url, second)
            await until(lambda: r.rounds_of("S6") == 3, "round 3 from the new stream")
            await until(lambda: r.feed.last_stream_seq == len(second), "the new stream's last line")
            assert r.feed.lines == len(first) + len(second)

    asyncio.run(main())
