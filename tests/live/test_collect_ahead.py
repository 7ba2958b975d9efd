"""A forged line far ahead of a table's log, held while the table's genuine lines keep coming and
the copy goes on, is reported by name (real nats-server, real collector)."""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path

from livehelpers import assert_copy_identical, refusals
from loghelpers import write_log
from test_collect_redelivery import _until
from test_live_untrusted import _publish, genuine

from tablectl.eventlog import generate_key, keyring
from tablectl.eventlog import logformat as fmt
from tablectl.live import stream
from tablectl.live.broker import Broker
from tablectl.live.collect import Collector

FAR = 1_000_000_000


def test_a_line_far_ahead_held_while_the_copy_goes_on_is_an_ahead_alarm_naming_its_seq_and_the_copy(
        tmp_path: Path, broker: Broker):
    table = "ahead-1"
    key = generate_key()
    keyring.enrol(Path(os.environ["TABLECTL_KEYRING"]), table, key.public_key())
    lines = write_log(tmp_path / "log", table, key, shoes=2, cards=20)
    g = [genuine(table, f, line) for f, line in lines]
    file, line = lines[5]
    forged = line.replace(b'{"seq":%d,' % fmt.split_head(line)[0], b'{"seq":%d,' % FAR, 1)  # type: ignore[index]
    copies = tmp_path / "copies"

    async def go() -> None:
        collector = Collector(broker.url, copies, keyring=Path(os.environ["TABLECTL_KEYRING"]), gap_after=0.3)
        stop = asyncio.Event()
        task = asyncio.create_task(collector.run(stop))
        try:
            await _publish(broker.url, table, [*g[:20], (file, forged, stream.msg_id(table, file, FAR))])
            await _until(lambda: collector.stats.received == 21, "the first lines and the forged one")
            await _publish(broker.url, table, g[20:])  # the table deals on
            await _until(lambda: any(r["kind"] == "ahead" for r in refusals(copies)), "the ahead alarm", 10)
        finally:
            stop.set()
            await task

    asyncio.run(go())
    (ahead,) = [r for r in refusals(copies) if r["kind"] == "ahead"]
    assert (ahead["table"], ahead["seq"]) == (table, FAR)
    at = re.search(r"the copy is at seq (\d+)", ahead["message"])
    assert at is not None and int(at.group(1)) > 5, ahead["message"]
    assert_copy_identical(tmp_path / "log", copies / table, table)
