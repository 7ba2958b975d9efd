"""Each copy folder reads the stream through a consumer of its own: a second collector into another
folder gets every line, not the ones the first left (real nats-server, real collectors)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from click.testing import CliRunner
from livehelpers import assert_copy_identical
from loghelpers import write_log
from test_live_untrusted import _publish, genuine

from tablectl.cli import main
from tablectl.eventlog import generate_key, keyring
from tablectl.live.broker import Broker
from tablectl.live.collect import Collector, folder_durable


def _keyring() -> Path:
    return Path(os.environ["TABLECTL_KEYRING"])


def test_a_second_folder_gets_the_whole_log_that_the_first_folders_collector_already_took(tmp_path: Path, broker: Broker):
    table = "durable-1"
    key = generate_key()
    keyring.enrol(_keyring(), table, key.public_key())
    lines = write_log(tmp_path / "log", table, key, shoes=2, cards=20)
    asyncio.run(_publish(broker.url, table, [genuine(table, f, line) for f, line in lines]))
    for folder in ("primary", "backup"):  # the documented command, twice, no --durable
        collector = Collector(broker.url, tmp_path / folder, keyring=_keyring())
        asyncio.run(collector.run(asyncio.Event(), until_idle=1.0))
        assert_copy_identical(tmp_path / "log", tmp_path / folder / table, table)
        assert not collector.stats.refused


def test_the_default_consumer_is_made_from_the_folders_path_and_kept_in_it(tmp_path: Path):
    collector = Collector("nats://127.0.0.1:1", tmp_path / "copies", keyring=_keyring())
    collector.open()
    collector.close()
    name = folder_durable(tmp_path / "copies")
    assert collector.durable == name != folder_durable(tmp_path / "other") and name.startswith("collector-")
    assert (tmp_path / "copies" / ".collect" / "durable").read_text() == name + "\n"
    (tmp_path / "copies").rename(tmp_path / "moved")  # a moved folder keeps its consumer
    again = Collector("nats://127.0.0.1:1", tmp_path / "moved", keyring=_keyring())
    again.open()
    again.close()
    assert again.durable == name


def test_a_folder_an_earlier_collector_wrote_keeps_collector_and_a_named_one_is_used_as_named(tmp_path: Path):
    (tmp_path / "old" / ".collect").mkdir(parents=True)
    (tmp_path / "old" / ".collect" / "lock").touch()  # what every earlier run left
    old = Collector("nats://127.0.0.1:1", tmp_path / "old", keyring=_keyring())
    old.open()
    old.close()
    named = Collector("nats://127.0.0.1:1", tmp_path / "named", keyring=_keyring(), durable="mine")
    named.open()
    named.close()
    assert (old.durable, named.durable) == ("collector", "mine")
    assert not (tmp_path / "named" / ".collect" / "durable").exists()


def test_the_help_says_what_the_default_consumer_is():
    result = CliRunner().invoke(main, ["collect", "--help"])
    assert result.exit_code == 0 and "DIR/.collect/durable" in result.output and "resolved path" in result.output
