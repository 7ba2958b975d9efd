"""A table restarted on a new log folder within the stream's duplicate window: its new log starts
again at file 1, seq 1, and the message id names each line by its digest as well as its place, so
the stream stores every line of it, and the collector names the table in an alarm for each line
it cannot append to the copy of the earlier log (real nats-server, real publisher and collector)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import nats
from livehelpers import assert_copy_identical, refusals, wait_for
from loghelpers import write_log

from tablectl.eventlog import generate_key, keyring
from tablectl.eventlog import logformat as fmt
from tablectl.live import stream
from tablectl.live.broker import Broker
from tablectl.live.chain import MISLABELLED, Message, Refusal, check_message
from tablectl.live.collect import Collector
from tablectl.live.publish import Publisher


def _stored(url: str) -> int:
    """How many messages the log stream holds."""
    async def go() -> int:
        nc = await nats.connect(url)
        try:
            return int((await nc.jetstream().stream_info(stream.STREAM)).state.messages)
        finally:
            await nc.close()

    return asyncio.run(go())


def _publish(url: str, log_dir: Path, table: str, lines: int) -> None:
    p = Publisher(url, log_dir, table).start()
    try:
        wait_for(lambda: p.status().published_seq == lines, 20, f"{log_dir.name} published")
    finally:
        p.stop()


def _collect(url: str, to: Path) -> Collector:
    collector = Collector(url, to, keyring=Path(os.environ["TABLECTL_KEYRING"]))
    asyncio.run(collector.run(asyncio.Event(), until_idle=1.5))
    return collector


def test_a_lines_message_id_names_its_digest_so_only_the_same_line_is_a_duplicate(tmp_path: Path):
    first = write_log(tmp_path / "a", "nl-1", generate_key(), shoes=1, cards=5)
    again = write_log(tmp_path / "b", "nl-1", generate_key(), shoes=1, cards=5)  # another log: its own key
    (file, line), (file_b, line_b) = first[0], again[0]
    assert (file, fmt.split_head(line)[0]) == (file_b, fmt.split_head(line_b)[0]) and line != line_b  # type: ignore[index]
    mid = stream.msg_id("nl-1", file, 1, fmt.digest(line))
    assert mid == f"nl-1:{file[:-6]}:1:{fmt.digest(line)[:16]}"
    assert mid == stream.msg_id("nl-1", file, 1, fmt.digest(line))
    assert mid != stream.msg_id("nl-1", file_b, 1, fmt.digest(line_b))
    assert stream.parse_msg_id(mid) == stream.MsgId("nl-1", file[:-6], 1, fmt.digest(line)[:16])
    assert all(stream.parse_msg_id(bad) is None for bad in (mid[:-1], mid + "0", mid[:-1] + "g", mid + ":1"))
    assert isinstance(check_message("tablectl.nl-1.log", mid, line), Message)
    wrong = check_message("tablectl.nl-1.log", mid, line_b)
    assert isinstance(wrong, Refusal) and wrong.kind == MISLABELLED and "digest" in wrong.message


def _two_logs(tmp_path: Path, table: str) -> tuple[list[tuple[str, bytes]], list[tuple[str, bytes]]]:
    """A table's log in ``a``, its key enrolled, and the same table's new log in ``b``, shorter."""
    key = generate_key()
    keyring.enrol(Path(os.environ["TABLECTL_KEYRING"]), table, key.public_key())
    old = write_log(tmp_path / "a", table, key, shoes=2, cards=20)
    new = write_log(tmp_path / "b", table, generate_key(), shoes=1, cards=20)  # a new folder (and key: the logs' clocks are the same)
    assert len(new) < len(old)
    return old, new


def test_a_table_restarted_on_a_new_log_folder_has_each_line_stored_and_refused_as_another_logs(
        tmp_path: Path, broker: Broker):
    table = "nl-2"
    old, new = _two_logs(tmp_path, table)
    _publish(broker.url, tmp_path / "a", table, len(old))
    _collect(broker.url, tmp_path / "copies")
    _publish(broker.url, tmp_path / "b", table, len(new))  # at once: well within the duplicate window
    assert _stored(broker.url) == len(old) + len(new)
    collector = _collect(broker.url, tmp_path / "copies")
    assert (collector.stats.received, collector.stats.written) == (len(new), 0)
    assert_copy_identical(tmp_path / "a", tmp_path / "copies" / table, table)
    refused = refusals(tmp_path / "copies")
    assert [(r["table"], r["kind"], r["seq"]) for r in refused] == [(table, "fork", s) for s in range(1, len(new) + 1)]
    assert "opens another log of the table" in refused[0]["message"]


def test_a_collector_catching_up_on_both_logs_refuses_each_line_of_the_new_one_by_name(tmp_path: Path, broker: Broker):
    table = "nl-3"
    old, new = _two_logs(tmp_path, table)
    _publish(broker.url, tmp_path / "a", table, len(old))
    _publish(broker.url, tmp_path / "b", table, len(new))
    collector = _collect(broker.url, tmp_path / "copies")
    assert (collector.stats.received, collector.stats.written) == (len(old) + len(new), len(old))
    assert_copy_identical(tmp_path / "a", tmp_path / "copies" / table, table)
    refused = refusals(tmp_path / "copies")
    assert sorted((r["table"], r["seq"]) for r in refused) == [(table, s) for s in range(1, len(new) + 1)]
    assert {r["kind"] for r in refused} <= {"fork", "injected", "changed"}


def test_a_collector_takes_a_log_published_under_either_form_of_message_id(tmp_path: Path, broker: Broker):
    """A table's publisher upgraded while its log is in the stream: the lines before under the
    ids an earlier tablectl gave them (``<table>:<log>:<seq>``), the lines after under the new."""
    table = "nl-4"
    key = generate_key()
    keyring.enrol(Path(os.environ["TABLECTL_KEYRING"]), table, key.public_key())
    lines = write_log(tmp_path / "log", table, key, shoes=2, cards=20)
    half = len(lines) // 2

    async def go() -> None:
        nc = await nats.connect(broker.url)
        try:
            js = nc.jetstream(timeout=5)
            for i, (file, line) in enumerate(lines):
                seq = fmt.split_head(line)[0]  # type: ignore[index]
                mid = stream.msg_id(table, file, seq) if i < half else stream.msg_id(table, file, seq, fmt.digest(line))
                await js.publish(stream.log_subject(table), line, headers={stream.MSG_ID_HEADER: mid})
        finally:
            await nc.close()

    asyncio.run(go())
    collector = _collect(broker.url, tmp_path / "copies")
    assert_copy_identical(tmp_path / "log", tmp_path / "copies" / table, table)
    assert collector.stats.written == len(lines) and refusals(tmp_path / "copies") == []
