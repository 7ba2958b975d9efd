"""The floor's permissions on a real nats-server: a table publishes only its own subjects, the
collector reads through its consumer and publishes no log line, and the whole flow works under them."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import nats
import pytest
from livehelpers import assert_copy_identical
from loghelpers import write_log

from tablectl.connection import Credentials
from tablectl.eventlog import generate_key, keyring
from tablectl.live import stream
from tablectl.live.broker import Broker, BrokerConfig
from tablectl.live.collect import Collector
from tablectl.live.connect import inbox_prefix
from tablectl.live.permissions import Login, render_permissions
from tablectl.live.publish import Publisher

TABLES = ("perm-a", "perm-b")


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory):
    """A broker under the floor's permissions: (broker, folder of password files)."""
    root = tmp_path_factory.mktemp("guarded")
    secrets = root / "secrets"
    secrets.mkdir()
    logins = {}
    for user in (*TABLES, "collector"):
        (secrets / user).write_text(f"pw-{user}\n")
        logins[user] = Login(f"pw-{user}")
    rules = root / "floor-permissions.conf"
    rules.write_text(render_permissions({t: logins[t] for t in TABLES}, logins["collector"]))
    with Broker(root / "broker", config=BrokerConfig(listen="127.0.0.1:0", authorization=rules)) as b:
        yield b, secrets


def _login(secrets: Path, user: str) -> Credentials:
    return Credentials(user=user, password_file=secrets / user)


async def _try_publish(url: str, secrets: Path, user: str, subject: str) -> list[str]:
    """Publish one message as ``user``: the errors the server sent back."""
    errors: list[str] = []

    async def on_error(e: Exception) -> None:
        errors.append(str(e))

    nc = await nats.connect(url, error_cb=on_error, inbox_prefix=inbox_prefix(user),
                            **_login(secrets, user).options())
    try:
        with pytest.raises(Exception):  # noqa: B017 - no stream answers a publish the server dropped
            await nc.jetstream(timeout=1).publish(subject, b"{}", headers={stream.MSG_ID_HEADER: "x"})
        await nc.flush()
    finally:
        await nc.close()
    return errors


def test_a_table_may_not_publish_on_another_tables_subject(guarded):
    broker, secrets = guarded
    errors = asyncio.run(_try_publish(broker.url, secrets, "perm-a", "tablectl.perm-b.log"))
    assert any("permissions violation" in e.lower() and "tablectl.perm-b.log" in e for e in errors), errors


def test_the_collector_may_not_publish_a_log_line(guarded):
    broker, secrets = guarded
    errors = asyncio.run(_try_publish(broker.url, secrets, "collector", "tablectl.perm-a.log"))
    assert any("permissions violation" in e.lower() for e in errors), errors


def test_under_the_permissions_a_table_publishes_and_the_collector_collects(tmp_path, guarded):
    broker, secrets = guarded
    key = generate_key()
    keyring.enrol(Path(os.environ["TABLECTL_KEYRING"]), "perm-a", key.public_key())
    write_log(tmp_path / "log", "perm-a", key, shoes=2, cards=10)
    publisher = Publisher(broker.url, tmp_path / "log", "perm-a", _login(secrets, "perm-a")).start()
    try:
        async def collect() -> Collector:
            collector = Collector(broker.url, tmp_path / "copies", keyring=Path(os.environ["TABLECTL_KEYRING"]),
                                  credentials=_login(secrets, "collector"))
            stop = asyncio.Event()
            task = asyncio.create_task(collector.run(stop))
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 30
            while not (tmp_path / "copies" / "perm-a" / ".collect-head.json").exists() or publisher.status().behind \
                    or collector.stats.written < publisher.status().published_seq:
                assert loop.time() < deadline, f"not collected: {publisher.status()} {collector.stats}"
                await asyncio.sleep(0.05)
            stop.set()
            await task
            return collector

        collector = asyncio.run(collect())
    finally:
        publisher.stop()
    assert not collector.stats.refused
    assert_copy_identical(tmp_path / "log", tmp_path / "copies" / "perm-a", "perm-a")
