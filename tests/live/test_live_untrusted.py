"""The broker is not trusted: whatever an insider publishes on it, the collector writes only what
the table signed, in the table's order, and names each refusal (real nats-server, real collector).

The insider's messages carry ids the stream has not seen (``...:010`` for seq 10): the stream
drops a repeated id only within its duplicate window, which an insider can wait out."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import nats
import orjson
import pytest
from livehelpers import assert_copy_identical, refusals
from loghelpers import is_checkpoint, write_log

from tablectl.eventlog import generate_key, keyring
from tablectl.eventlog import logformat as fmt
from tablectl.live import stream
from tablectl.live.broker import Broker
from tablectl.live.collect import Collector


def _keyring() -> Path:
    return Path(os.environ["TABLECTL_KEYRING"])


@pytest.fixture
def signed(tmp_path: Path, request: pytest.FixtureRequest):
    """A signed log of a table named for the test, its key enrolled: (table, log dir, lines)."""
    table = "u-" + request.node.name.split("_", 2)[-1][:40].replace("_", "-").strip("-")
    key = generate_key()
    keyring.enrol(_keyring(), table, key.public_key())
    lines = write_log(tmp_path / "log", table, key, shoes=2, cards=20)
    return table, tmp_path / "log", lines


async def _publish(url: str, table: str, items: list[tuple[str, bytes, str]], subject: str | None = None) -> None:
    nc = await nats.connect(url)
    try:
        js = nc.jetstream(timeout=5)
        for file, line, mid in items:
            await js.publish(subject or stream.log_subject(table), line, headers={stream.MSG_ID_HEADER: mid})
    finally:
        await nc.close()


def genuine(table: str, file: str, line: bytes) -> tuple[str, bytes, str]:
    return file, line, stream.msg_id(table, file, fmt.split_head(line)[0])  # type: ignore[index]


def insider(table: str, file: str, line: bytes) -> tuple[str, bytes, str]:
    return file, line, f"{table}:{file[:-6]}:0{fmt.split_head(line)[0]}"  # type: ignore[index]


def _collect(url: str, to: Path, table: str, **options) -> tuple[Collector, list[dict]]:
    """Run a collector until idle, listening to the table's alarms: (collector, alarms)."""
    alarms: list[dict] = []

    async def heard(m) -> None:
        alarms.append(orjson.loads(m.data))

    async def go() -> Collector:
        nc = await nats.connect(url)
        await nc.subscribe(stream.alarm_subject(table), cb=heard)
        collector = Collector(url, to, keyring=_keyring(), **options)
        await collector.run(asyncio.Event(), until_idle=1.5)
        deadline = asyncio.get_running_loop().time() + 10
        while len(alarms) < sum(collector.stats.refused.values()):  # every refusal's alarm heard
            assert asyncio.get_running_loop().time() < deadline, "alarms not heard"
            await asyncio.sleep(0.02)
        await nc.close()
        return collector

    return asyncio.run(go()), alarms


def _forge(line: bytes) -> bytes:
    at = line.index(b'"card":"') + 8
    return line[:at] + (b"K" if line[at:at + 1] != b"K" else b"Q") + line[at + 1:]


def test_injected_changed_replayed_reordered_and_forged_messages_are_refused_by_name(tmp_path, broker: Broker, signed):
    table, log_dir, lines = signed
    g = [genuine(table, f, line) for f, line in lines]
    file9, line9 = lines[9]
    seq, _, prev = fmt.split_head(line9)
    injected = (b'{"seq":%d,"event":"dealt","ts":"2024-05-01T00:00:00.000001Z","table":"%s","card":"AS",'
                b'"to":"seat:1","prev":"%s"}' % (seq, table.encode(), prev.encode()))
    ch = next(i for i, (_, line) in enumerate(lines) if i >= 15 and b'"card":"' in line)
    cp = next(i for i, (_, line) in enumerate(lines) if is_checkpoint(line) and i > 25)
    f_cp, l_cp = lines[cp]
    at = l_cp.index(b'"sig":"') + 7
    bad_sig = l_cp[:at] + (b"1" if l_cp[at:at + 1] == b"0" else b"0") + l_cp[at + 1:]
    items = (g[:9]
             + [insider(table, file9, injected)]  # a line the table never wrote, linked to seq 9
             + g[9:ch]
             + [insider(table, lines[ch][0], _forge(lines[ch][1]))]  # a changed copy of a card line
             + g[ch:20]
             + [insider(table, *lines[3])]  # seq 4 again
             + g[20:22] + [g[23], g[22]]  # seq 24 stored before seq 23
             + g[24:cp] + [insider(table, f_cp, bad_sig)]  # a checkpoint whose signature does not verify
             + g[cp:])
    asyncio.run(_publish(broker.url, table, items))
    _collector, alarms = _collect(broker.url, tmp_path / "copies", table)
    kinds = {a["kind"]: a for a in alarms}
    assert set(kinds) == {"injected", "changed", "replayed", "reordered", "bad_signature"}
    assert (kinds["injected"]["seq"], kinds["changed"]["seq"], kinds["replayed"]["seq"], kinds["reordered"]["seq"]) == (
        10, ch + 1, 4, 24)
    assert all(a["message"] for a in alarms)
    assert sorted(r["kind"] for r in refusals(tmp_path / "copies")) == sorted(a["kind"] for a in alarms)
    assert_copy_identical(log_dir, tmp_path / "copies" / table, table)


def test_a_dropped_message_stops_the_copy_before_it_and_is_reported_as_a_gap(tmp_path, broker: Broker, signed):
    table, _log_dir, lines = signed
    g = [genuine(table, f, line) for f, line in lines]
    asyncio.run(_publish(broker.url, table, g[:30] + g[31:]))
    _collector, alarms = _collect(broker.url, tmp_path / "copies", table, gap_after=0.2)
    assert [(a["kind"], a["seq"]) for a in alarms] == [("gap", 31)]
    copied = [line for p in fmt.log_files(tmp_path / "copies" / table)[table] for line in p.read_bytes().split(b"\n")[:-1]]
    assert copied == [line for _, line in lines[:len(copied)]] and 0 < len(copied) < 31
    assert is_checkpoint(copied[-1])


def test_lines_of_another_table_on_a_tables_subject_are_refused_without_permissions(tmp_path, broker: Broker, signed):
    table, _, lines = signed
    other = "u-other-of-" + table[2:20]
    keyring.enrol(_keyring(), other, generate_key().public_key())
    subject = stream.log_subject(other)
    as_other = [(f.replace(table, other), line, stream.msg_id(other, f.replace(table, other), fmt.split_head(line)[0]))
                for f, line in lines[:3]]
    as_self = [genuine(table, f, line) for f, line in lines[3:5]]
    asyncio.run(_publish(broker.url, table, as_other + as_self, subject=subject))
    _collector, alarms = _collect(broker.url, tmp_path / "copies", other)
    assert [a["kind"] for a in alarms] == ["wrong_table"] * 3 + ["mislabelled"] * 2
    assert not fmt.log_files(tmp_path / "copies" / other) if (tmp_path / "copies" / other).exists() else True


def test_a_table_the_keyring_does_not_know_is_refused_and_nothing_written(tmp_path, broker: Broker):
    table = "u-unknown-table"
    lines = write_log(tmp_path / "log", table, generate_key(), shoes=1, cards=5)
    asyncio.run(_publish(broker.url, table, [genuine(table, f, line) for f, line in lines]))
    _collector, alarms = _collect(broker.url, tmp_path / "copies", table)
    assert [a["kind"] for a in alarms] == ["unknown_table"]
    assert not (tmp_path / "copies" / table).exists()
