"""A table, the broker and the collector as real processes: whatever stops (the broker, the
collector, a cluster node), the copy ends byte-identical to the table's log, review clean, every
line once, and the table dealt on all along."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import nats
import orjson
from livehelpers import (
    assert_copy_identical,
    assert_review_clean,
    copy_complete,
    log_lines,
    make_streams,
    refusals,
    run_collector,
    run_table,
    wait_for,
)

from tablectl.live import stream
from tablectl.live.broker import Broker, Cluster


#: rounds a table deals where the test stops something while it deals: far more than the stops take
LONG = 1000


def _finish(table, logs: Path, copies: Path, name: str, collector, rounds: int = 200) -> dict:
    """The table done, the copy complete; the collector stopped by SIGTERM: its stats."""
    assert table.wait(120) == 0, table.output()[-3000:]
    assert f"{rounds} rounds" in table.output()
    wait_for(lambda: copy_complete(logs, copies / name, name), 60, "the copy to reach the log's last line")
    collector.signal(signal.SIGTERM)
    assert collector.wait(15) == 130, collector.output()[-3000:]
    assert_copy_identical(logs, copies / name, name)
    assert_review_clean(copies / name)
    assert refusals(copies) == []
    return orjson.loads((copies.parent / "stats.json").read_bytes())


def test_the_broker_stopped_twice_while_a_table_deals_loses_nothing_and_holds_nothing(tmp_path, own_broker: Broker):
    copies = tmp_path / "copies"
    collector = run_collector(tmp_path, own_broker.url, copies, "--stats", str(tmp_path / "stats.json"))
    table, logs = run_table(tmp_path, "live-b1", own_broker.url, rounds=LONG)
    grown_while_down = []
    for at in (300, 1500):
        wait_for(lambda at=at: len(log_lines(logs, "live-b1")) >= at or not table.running, 60, f"{at} lines")
        assert table.running, "the table finished before the broker was stopped: deal more rounds"
        own_broker.stop()
        down_at = len(log_lines(logs, "live-b1"))
        wait_for(lambda down_at=down_at: len(log_lines(logs, "live-b1")) >= down_at + 200 or not table.running, 60,
                 "the table to deal on while the broker is down")
        grown_while_down.append(len(log_lines(logs, "live-b1")) - down_at)
        own_broker.start()
    assert all(n >= 200 for n in grown_while_down)  # dealing never waited for the broker
    stats = _finish(table, logs, copies, "live-b1", collector, LONG)
    assert stats["written"] == len(log_lines(logs, "live-b1")) and stats["refused"] == {}


def test_the_collector_killed_mid_stream_and_restarted_loses_nothing_and_doubles_nothing(tmp_path, broker: Broker):
    copies = tmp_path / "copies"
    first = run_collector(tmp_path, broker.url, copies, "--ack-wait", "1", name="first")
    table, logs = run_table(tmp_path, "live-c1", broker.url)
    wait_for(lambda: len(log_lines(copies / "live-c1", "live-c1")) >= 500 if (copies / "live-c1").is_dir() else False,
             60, "the collector to write 500 lines")
    first.kill9()
    second = run_collector(tmp_path, broker.url, copies, "--ack-wait", "1", "--stats", str(tmp_path / "stats.json"),
                           name="second")
    stats = _finish(table, logs, copies, "live-c1", second)
    assert stats["refused"] == {}


def test_a_cluster_node_killed_mid_stream_loses_nothing(tmp_path):
    with Cluster(tmp_path / "cluster") as cluster:
        make_streams(cluster.nodes[0].url, replicas=3)
        leader = _stream_leader(cluster.url)
        copies = tmp_path / "copies"
        collector = run_collector(tmp_path, cluster.url, copies, "--replicas", "3", "--ack-wait", "2",
                                  "--stats", str(tmp_path / "stats.json"))
        table, logs = run_table(tmp_path, "live-n1", cluster.url, rounds=LONG)
        wait_for(lambda: len(log_lines(logs, "live-n1")) >= 800 or not table.running, 60, "800 lines")
        assert table.running
        victim = next(n for n in cluster.nodes if n.config.server_name == leader)
        victim.kill()
        stats = _finish(table, logs, copies, "live-n1", collector, LONG)
        assert stats["refused"] == {}


def _stream_leader(url: str) -> str:
    async def go() -> str:
        nc = await nats.connect(url.split(","))
        try:
            info = await nc.jetstream().stream_info(stream.STREAM)
            return str(info.cluster.leader)
        finally:
            await nc.close()

    return asyncio.run(go())
