"""The table's publisher against a real nats-server: it goes on from its cursor, waits for a
stream, and says when the broker does not answer (the dealer's display shows warnings)."""

from __future__ import annotations

import asyncio
import logging
import signal
import socket
import threading
import time
from pathlib import Path
from typing import Any, Self

import nats
import orjson
import pytest
from click.testing import CliRunner
from livehelpers import Proc, log_lines, make_streams, table_config, tablectl, wait_for
from loghelpers import write_log

from tablectl.cli import main
from tablectl.eventlog import generate_key
from tablectl.live import stream
from tablectl.live.broker import Broker, free_port
from tablectl.live.cursor import cursor_path, load_cursor
from tablectl.live.publish import Publisher
from tablectl.live.status import status_text


def _stored(url: str) -> list[str]:
    """The message ids the stream holds, in order."""
    async def go() -> list[str]:
        nc = await nats.connect(url)
        js = nc.jetstream()
        info = await js.stream_info(stream.STREAM)
        ids = []
        for seq in range(info.state.first_seq, info.state.last_seq + 1):
            msg = await js.get_msg(stream.STREAM, seq)
            ids.append(msg.headers[stream.MSG_ID_HEADER])
        await nc.close()
        return ids

    return asyncio.run(go())


class StatusWatch:
    """Every state a table's publisher sends on ``tablectl.<table>.status`` (what the pit keeps), as
    plain values, read on a thread of its own."""

    def __init__(self, url: str, table: str) -> None:
        self.url, self.table = url, table
        self.got: list[dict[str, Any]] = []
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)

    async def _run(self) -> None:
        self._loop, self._stop = asyncio.get_running_loop(), asyncio.Event()
        nc = await nats.connect(self.url)

        async def take(msg: Any) -> None:
            self.got.append(orjson.loads(msg.data))

        await nc.subscribe(stream.status_subject(self.table), cb=take)
        await nc.flush()
        self._ready.set()
        await self._stop.wait()
        await nc.close()

    def __enter__(self) -> Self:
        self._thread.start()
        assert self._ready.wait(10), "the status subscription"
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._loop is not None and self._stop is not None
        self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(10)


def test_a_restarted_publisher_goes_on_from_its_cursor(tmp_path: Path, broker: Broker):
    key = generate_key()
    lines = write_log(tmp_path / "log", "pub-a", key, shoes=1, cards=10)
    p = Publisher(broker.url, tmp_path / "log", "pub-a").start()
    wait_for(lambda: p.status().published_seq == len(lines), 20, "the log published")
    p.stop()
    assert load_cursor(cursor_path(tmp_path / "log", "pub-a")).seq == len(lines)
    more = write_log(tmp_path / "log", "pub-a", key, shoes=1, cards=10)
    p = Publisher(broker.url, tmp_path / "log", "pub-a").start()
    wait_for(lambda: p.status().published_seq == len(more), 20, "the rest published")
    p.stop()
    ids = _stored(broker.url)
    assert len(ids) == len(set(ids)) == len(more)


def test_lines_wait_in_the_log_until_there_is_a_stream(tmp_path: Path):
    with Broker(tmp_path / "broker", listen="127.0.0.1:0") as b:
        lines = write_log(tmp_path / "log", "pub-b", generate_key(), shoes=1, cards=5)
        p = Publisher(b.url, tmp_path / "log", "pub-b").start()
        try:
            wait_for(lambda: p.status().error is not None, 20, "the publisher to find no stream")
            assert p.status().published_seq == 0 and "no stream" in p.status().error
            make_streams(b.url)
            wait_for(lambda: p.status().published_seq == len(lines), 20, "the log published")
        finally:
            p.stop()


def test_a_broker_that_does_not_answer_is_said_as_a_warning(tmp_path: Path, caplog):
    write_log(tmp_path / "log", "pub-c", generate_key(), shoes=1, cards=5)
    caplog.set_level(logging.WARNING, logger="tablectl.publish")
    p = Publisher(f"nats://127.0.0.1:{free_port()}", tmp_path / "log", "pub-c", status_every=0.2).start()
    try:
        wait_for(lambda: any("broker unreachable" in r.getMessage() for r in caplog.records), 20, "the warning")
    finally:
        p.stop()
    (record,) = [r for r in caplog.records if "broker unreachable" in r.getMessage()][:1]
    assert record.getMessage().startswith("publishing: ") and "lines behind" in record.getMessage()


def test_run_publish_with_a_bad_url_is_one_line_and_exit_2(tmp_path: Path):
    config = table_config(tmp_path, "pub-d")
    result = CliRunner().invoke(main, ["run", str(config), "--simulate", "--headless", "--autoplay", "1",
                                       "--log-dir", str(tmp_path / "logs"), "--publish", "http://x:1"])
    assert result.exit_code == 2 and "--publish" in result.output and "not a NATS URL" in result.output



def test_with_no_broker_the_status_counts_the_lines_written_since_it_started(tmp_path: Path):
    p = Publisher(f"nats://127.0.0.1:{free_port()}", tmp_path / "log", "pub-e", status_every=0.2).start()
    try:
        lines = write_log(tmp_path / "log", "pub-e", generate_key(), shoes=1, cards=5)
        said = wait_for(lambda: (t := status_text(p.status(), time.time())).startswith(f"publishing: {len(lines)} lines")
                        and t, 20, f"the status to count {len(lines)} lines")
        assert said.startswith(f"publishing: {len(lines)} lines behind, broker unreachable ")
    finally:
        p.stop()


def test_the_first_status_sent_says_the_broker_answers(tmp_path: Path, broker: Broker):
    lines = write_log(tmp_path / "log", "pub-f", generate_key(), shoes=1, cards=5)
    with StatusWatch(broker.url, "pub-f") as watch:
        p = Publisher(broker.url, tmp_path / "log", "pub-f", status_every=60).start()
        try:
            wait_for(lambda: watch.got, 20, "the first status")
        finally:
            p.stop()
    first = watch.got[0]
    assert first["connected"] is True and first["unreachable_s"] is None and first["log_seq"] == len(lines)


def test_the_last_status_of_a_stopped_publisher_that_sent_everything_says_up_to_date(tmp_path: Path, broker: Broker):
    lines = write_log(tmp_path / "log", "pub-g", generate_key(), shoes=1, cards=5)
    with StatusWatch(broker.url, "pub-g") as watch:
        p = Publisher(broker.url, tmp_path / "log", "pub-g", status_every=60).start()
        wait_for(lambda: p.status().published_seq == len(lines), 20, "the log published")
        p.stop()
        wait_for(lambda: len(watch.got) >= 2, 10, "the status it stopped in")
    last = watch.got[-1]
    assert (last["behind"], last["published_seq"], last["connected"]) == (0, len(lines), True)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_run_publish_with_no_broker_stops_within_2_s(tmp_path: Path, signum: signal.Signals):
    logs = tmp_path / "logs"
    table = Proc(tablectl("run", str(table_config(tmp_path, "pub-h")), "--simulate", "--headless", "--log-dir", str(logs),
                          "--publish", f"nats://127.0.0.1:{free_port()}"), tmp_path / "table.out")
    wait_for(lambda: log_lines(logs, "pub-h") or not table.running, 30, "the table to deal")
    began = time.monotonic()
    table.signal(signum)
    code = table.wait(10)
    assert (code, time.monotonic() - began < 2.0) == (130, True), (time.monotonic() - began, table.output())


def test_a_connection_being_tried_does_not_hold_the_stop(tmp_path: Path):
    write_log(tmp_path / "log", "pub-i", generate_key(), shoes=1, cards=5)
    with socket.socket() as silent:  # takes the connection, never says a word
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        p = Publisher(f"nats://127.0.0.1:{silent.getsockname()[1]}", tmp_path / "log", "pub-i").start()
        began = time.monotonic()
        p.stop(drain=5)
        assert time.monotonic() - began < 2.0


def test_a_backlog_left_by_a_broker_restart_a_moment_before_the_stop_is_sent_in_the_drain(tmp_path: Path):
    with Broker(tmp_path / "broker", listen="127.0.0.1:0") as b:
        make_streams(b.url)
        key = generate_key()
        first = write_log(tmp_path / "log", "pub-j", key, shoes=1, cards=5)
        p = Publisher(b.url, tmp_path / "log", "pub-j").start()
        wait_for(lambda: p.status().published_seq == len(first), 20, "the first lines published")
        b.stop()
        lines = write_log(tmp_path / "log", "pub-j", key, shoes=2, cards=5)
        wait_for(lambda: not p.status().connected, 10, "the publisher to see the broker gone")
        b.start()
        p.stop(drain=5)
        assert load_cursor(cursor_path(tmp_path / "log", "pub-j")).seq == len(lines)


def test_a_broker_down_for_longer_than_the_drain_is_not_waited_for(tmp_path: Path):
    with Broker(tmp_path / "broker", listen="127.0.0.1:0") as b:
        make_streams(b.url)
        key = generate_key()
        write_log(tmp_path / "log", "pub-k", key, shoes=1, cards=5)
        p = Publisher(b.url, tmp_path / "log", "pub-k").start()
        wait_for(lambda: p.status().connected and p.status().published_seq > 0, 20, "the log published")
        b.stop()
        write_log(tmp_path / "log", "pub-k", key, shoes=2, cards=5)
        time.sleep(1.2)
        began = time.monotonic()
        p.stop(drain=1)
        assert time.monotonic() - began < 0.5
