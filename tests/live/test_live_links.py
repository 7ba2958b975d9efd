"""A link an insider plants where the live floor makes a file (issue 33, item 2): the collector's
lock, log, journal and state folder, a table copy's files, folder and head, the publisher's cursor,
the broker's config and authorization. Each is refused in one line naming the path, nothing
written through it; the old predictable temporary names catch nothing."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from livehelpers import wait_for
from loghelpers import signed_runs, write_log

from tablectl.cli import EXIT_STORAGE, EXIT_USAGE, main
from tablectl.eventlog import generate_key
from tablectl.files import LinkRefusedError
from tablectl.live.broker import AUTHORIZATION_FILE, Broker, BrokerConfig, BrokerError
from tablectl.live.collect import STATE_DIR, Collector
from tablectl.live.copy import HEAD_FILE, TableCopy
from tablectl.live.cursor import Cursor, cursor_path, load_cursor, save_cursor
from tablectl.live.journal import Journal
from tablectl.live.publish import Publisher

PRECIOUS = b"precious: the anchor history\n"


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    """A file of someone else's a planted link points at."""
    path = tmp_path / "elsewhere" / "victim.jsonl"
    path.parent.mkdir()
    path.write_bytes(PRECIOUS)
    return path


def plant(link: Path, target: Path) -> Path:
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(target)
    return link


def untouched(victim: Path, link: Path, held: bytes = PRECIOUS) -> bool:
    """The victim holds what it held, and the link is still the insider's link to it."""
    return victim.read_bytes() == held and link.is_symlink() and link.resolve() == victim.resolve()


# -- the collector ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["lock", "collector.jsonl", "held.journal"])
def test_a_link_at_the_collectors_lock_log_or_journal_is_refused_and_the_victim_untouched(tmp_path, victim, name):
    link = plant(tmp_path / "copies" / STATE_DIR / name, victim)
    collector = Collector("nats://127.0.0.1:1", tmp_path / "copies", keyring=tmp_path / "keyring")
    with pytest.raises(LinkRefusedError) as e:
        collector.open()
    assert str(e.value).startswith(f"{link}: a symbolic link") and "\n" not in str(e.value)
    assert untouched(victim, link)
    link.unlink()  # the refusal left nothing open, the lock neither: the next run goes on
    collector.open()
    collector.close()


def test_a_link_in_place_of_the_collectors_state_folder_is_refused(tmp_path, victim):
    link = plant(tmp_path / "copies" / STATE_DIR, victim.parent)
    with pytest.raises(LinkRefusedError, match=str(link)):
        Collector("nats://127.0.0.1:1", tmp_path / "copies", keyring=tmp_path / "keyring").open()
    assert sorted(p.name for p in victim.parent.iterdir()) == ["victim.jsonl"] and victim.read_bytes() == PRECIOUS


def test_collect_with_a_planted_lock_link_says_so_in_one_line_and_writes_nothing(tmp_path, victim):
    link = plant(tmp_path / "copies" / STATE_DIR / "lock", victim)
    result = CliRunner().invoke(main, ["collect", "nats://127.0.0.1:1", "--to", str(tmp_path / "copies"),
                                       "--until-idle", "1"])
    assert result.exit_code == EXIT_STORAGE, result.output
    assert str(link) in result.output and len(result.output.strip().splitlines()) == 1
    assert untouched(victim, link)


def test_the_journal_compacts_past_a_link_at_its_old_temporary_name(tmp_path, victim):
    journal = Journal(tmp_path / STATE_DIR / "held.journal")
    link = plant(tmp_path / STATE_DIR / "held.journal.tmp", victim)
    journal.add("T1", "tablectl-T1-000001.jsonl", b"a line")
    journal.compact([("T1", "tablectl-T1-000001.jsonl", b"kept")])
    journal.close()
    assert list(Journal(tmp_path / STATE_DIR / "held.journal").read()) == [("T1", "tablectl-T1-000001.jsonl", b"kept")]
    assert untouched(victim, link)


# -- a table's copy -----------------------------------------------------------------------------


def _copied(tmp_path: Path, runs_in: int) -> tuple[TableCopy, list[list[tuple[str, bytes]]], object]:
    """A copy of T1 holding its first ``runs_in`` signed runs: (copy, all runs, the key)."""
    key = generate_key()
    runs = signed_runs(write_log(tmp_path / "log", "T1", key))
    copy = TableCopy(tmp_path / "copies", "T1")
    verifier, _ = copy.open(key.public_key())
    for run in runs[:runs_in]:
        assert verifier.advance(run).accepted
        copy.append(run, verifier.head)
    copy.close()
    return copy, runs, key


def test_a_link_in_place_of_a_copys_file_is_refused_not_cut(tmp_path, victim):
    copy, _, key = _copied(tmp_path, 2)
    last = copy.files()[-1]
    held = last.read_bytes() + b'{"torn'  # what a crash leaves: cutting it back would truncate the victim
    victim.write_bytes(held)
    last.unlink()
    plant(last, victim)
    with pytest.raises(LinkRefusedError) as e:
        TableCopy(tmp_path / "copies", "T1").open(key.public_key())
    assert str(e.value).startswith(f"{last}: a symbolic link") and untouched(victim, last, held)


def test_a_link_at_the_next_file_of_a_copy_is_refused_and_the_victim_untouched(tmp_path, victim):
    key = generate_key()
    runs = signed_runs(write_log(tmp_path / "log", "T1", key))
    copy = TableCopy(tmp_path / "copies", "T1")
    verifier, _ = copy.open(key.public_key())
    link = plant(copy.dir / runs[0][0][0], victim)
    assert verifier.advance(runs[0]).accepted
    with pytest.raises(LinkRefusedError, match=str(link)):
        copy.append(runs[0], verifier.head)
    assert untouched(victim, link)


def test_a_link_in_place_of_a_tables_copy_folder_is_refused(tmp_path, victim):
    plant(tmp_path / "copies" / "T1", victim.parent)
    with pytest.raises(LinkRefusedError, match=str(tmp_path / "copies" / "T1")):
        TableCopy(tmp_path / "copies", "T1").open(generate_key().public_key())
    assert sorted(p.name for p in victim.parent.iterdir()) == ["victim.jsonl"]


def test_a_copys_head_is_never_written_through_a_link(tmp_path, victim):
    copy, _, key = _copied(tmp_path, 1)
    old_temp = plant(copy.dir / (HEAD_FILE + ".tmp"), victim)  # the name it was written under before
    TableCopy(tmp_path / "copies", "T1").open(key.public_key())  # writes its head
    assert untouched(victim, old_temp) and not (copy.dir / HEAD_FILE).is_symlink()
    (copy.dir / HEAD_FILE).unlink()
    head = plant(copy.dir / HEAD_FILE, victim)
    again = TableCopy(tmp_path / "copies", "T1")
    with pytest.raises(LinkRefusedError) as e:
        again.open(key.public_key())
    assert str(e.value).startswith(f"{head}: a symbolic link") and untouched(victim, head)


# -- the publisher's cursor ---------------------------------------------------------------------


def test_the_cursor_is_saved_past_a_link_at_its_old_temporary_name(tmp_path, victim):
    path = cursor_path(tmp_path, "T1")
    link = plant(path.with_name(path.name + ".tmp"), victim)
    save_cursor(path, Cursor("tablectl-T1-000001.jsonl", 120, 3))
    assert load_cursor(path) == Cursor("tablectl-T1-000001.jsonl", 120, 3) and untouched(victim, link)
    assert (path.stat().st_mode & 0o777) == 0o644


def test_a_link_at_the_cursor_is_refused_and_the_publisher_says_where(tmp_path, victim, broker: Broker, caplog):
    write_log(tmp_path / "log", "links-pub", generate_key(), shoes=1, cards=5)
    link = plant(cursor_path(tmp_path / "log", "links-pub"), victim)
    with pytest.raises(LinkRefusedError, match=str(link)):
        save_cursor(link, Cursor())
    with caplog.at_level(logging.WARNING, logger="tablectl.publish"):
        p = Publisher(broker.url, tmp_path / "log", "links-pub").start()
        try:
            wait_for(lambda: any(str(link) in r.getMessage() and "symbolic link" in r.getMessage()
                                 for r in caplog.records), 20, "the refusal reported")
        finally:
            p.stop()
    assert untouched(victim, link)


# -- the broker's config ------------------------------------------------------------------------


def test_the_broker_config_is_written_past_a_link_at_its_old_temporary_name(tmp_path, victim):
    broker = Broker(tmp_path / "store", listen="127.0.0.1:0")
    link = plant(tmp_path / "store" / "nats-server.conf.tmp", victim)
    assert "jetstream" in broker.write_config().read_text() and untouched(victim, link)
    assert (broker.config_file.stat().st_mode & 0o777) == 0o644


@pytest.mark.parametrize("name", ["nats-server.conf", AUTHORIZATION_FILE])
def test_a_link_at_the_broker_config_or_authorization_is_one_line_naming_it(tmp_path, victim, name):
    permissions = tmp_path / "permissions.conf"
    permissions.write_text("authorization { users = [] }\n")
    link = plant(tmp_path / "store" / name, victim)
    broker = Broker(tmp_path / "store", config=BrokerConfig(listen="127.0.0.1:0", authorization=permissions))
    with pytest.raises(BrokerError) as e:
        broker.write_config()
    assert str(e.value).startswith(f"{link}: a symbolic link") and untouched(victim, link)
    result = CliRunner().invoke(main, ["broker", "--store", str(tmp_path / "store"), "--listen", "127.0.0.1:0",
                                       "--permissions", str(permissions), "--check"])
    assert result.exit_code == EXIT_USAGE and str(link) in result.output
    assert len(result.output.strip().splitlines()) == 1 and untouched(victim, link)
    assert os.readlink(link) == str(victim)


def test_collect_never_writes_its_stats_through_a_link(tmp_path, victim):
    link = plant(tmp_path / "stats.json", victim)
    result = CliRunner().invoke(main, ["collect", "nats://127.0.0.1:1", "--to", str(tmp_path / "copies"),
                                       "--until-idle", "0.5", "--stats", str(link)])
    assert result.exit_code == EXIT_STORAGE, result.output
    assert f"{link}: cannot write the stats: a symbolic link" in result.output and untouched(victim, link)
