"""The table's publisher against a real nats-server: it goes on from its cursor, waits for a
stream, and says when the broker does not answer (the dealer's display shows warnings)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import nats
from click.testing import CliRunner
from livehelpers import make_streams, table_config, wait_for
from loghelpers import write_log

from tablectl.cli import main
from tablectl.eventlog import generate_key
from tablectl.live import stream
from tablectl.live.broker import Broker, free_port
from tablectl.live.cursor import cursor_path, load_cursor
from tablectl.live.publish import Publisher


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

