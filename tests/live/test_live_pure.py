"""The live floor's pure parts: subjects and message ids, the publisher's cursor and status, the
broker's config text, connection settings."""

from __future__ import annotations

import os

from pathlib import Path

import pytest

from tablectl.connection import ConnectError, Credentials, servers
from tablectl.live import stream
from tablectl.live.broker import (
    BrokerConfig,
    ClusterConfig,
    TlsConfig,
    parse_listen,
    render_config,
)
from tablectl.live.cursor import Cursor, LogFollower, complete_lines, next_read
from tablectl.live.status import PublisherStatus, status_text


def test_subjects_name_the_table():
    assert stream.log_subject("ocp-1") == "tablectl.ocp-1.log"
    assert stream.alarm_subject("ocp-1") == "tablectl.ocp-1.alarm"
    assert stream.table_of("tablectl.ocp-1.log") == "ocp-1"


def test_a_dot_in_a_table_name_is_carried_in_one_subject_token():
    assert stream.log_subject("pit2.t1") == "tablectl.pit2~t1.log"
    assert stream.table_of(stream.alarm_subject("pit2.t1")) == "pit2.t1"


@pytest.mark.parametrize("name", ["", "a b", "*", ">", "-x"])
def test_a_name_that_is_not_a_table_name_has_no_subject(name):
    with pytest.raises(ValueError):
        stream.log_subject(name)


@pytest.mark.parametrize("subject", ["tablectl.T1", "x.T1.log", "tablectl.T1.other", "tablectl.a.b.log"])
def test_other_subjects_name_no_table(subject):
    assert stream.table_of(subject) is None


def test_a_message_id_is_table_log_and_seq_and_parses_back():
    text = stream.msg_id("T1", "tablectl-T1-000003.jsonl", 1042)
    assert text == "T1:tablectl-T1-000003:1042"
    parsed = stream.parse_msg_id(text)
    assert parsed is not None and (parsed.table, parsed.file_name, parsed.file_number, parsed.seq) == (
        "T1", "tablectl-T1-000003.jsonl", 3, 1042)


@pytest.mark.parametrize("text", [None, "", "T1:tablectl-T1-000003", "T1:tablectl-T2-000003:5", "T1:x:5",
                                  "T1:tablectl-T1-000003:0", "T1:tablectl-T1-000003:-1", "T1:tablectl-T1-03:5"])
def test_what_is_not_a_message_id_parses_to_none(text):
    assert stream.parse_msg_id(text) is None


def test_the_stream_keeps_every_log_subject_in_files_with_a_duplicate_window():
    cfg = stream.stream_config(stream.StreamSettings(replicas=3, duplicate_window=60))
    assert (cfg.name, cfg.subjects, cfg.num_replicas, cfg.duplicate_window) == (stream.STREAM, ["tablectl.*.log"], 3, 60)
    assert cfg.storage.value == "file"


def test_stream_settings_out_of_range_are_refused():
    with pytest.raises(ValueError):
        stream.StreamSettings(replicas=7)
    with pytest.raises(ValueError):
        stream.StreamSettings(duplicate_window=10, max_age=5)


def test_the_collectors_consumer_is_durable_and_acks_each_line():
    cfg = stream.consumer_config("c1", ack_wait=2)
    assert (cfg.durable_name, cfg.ack_policy.value, cfg.ack_wait, cfg.filter_subject) == ("c1", "explicit", 2, "tablectl.*.log")


def test_only_complete_lines_are_read():
    assert complete_lines(b'{"a"}\n{"b"}\n{"c') == [b'{"a"}', b'{"b"}']
    assert complete_lines(b"partial") == []


def test_reading_goes_on_from_the_cursor_or_the_first_file_after_a_missing_one():
    files = ["tablectl-T-000001.jsonl", "tablectl-T-000003.jsonl"]
    assert next_read(files, Cursor()) == (0, 0)
    assert next_read(files, Cursor(files[1], 70, 9)) == (1, 70)
    assert next_read(files, Cursor("tablectl-T-000002.jsonl", 70, 9)) == (1, 0)
    assert next_read([], Cursor()) is None


def test_a_cursor_survives_its_encoding_and_refuses_garbage():
    c = Cursor("tablectl-T-000001.jsonl", 120, 3)
    assert Cursor.decode(c.encode()) == c
    for bad in (b"nope", b"[]", b'{"file":"../x","offset":1,"seq":1}', b'{"file":null,"offset":-1,"seq":0}'):
        with pytest.raises(ValueError):
            Cursor.decode(bad)


def test_the_follower_leaves_a_torn_line_and_moves_on_once_a_newer_file_exists(tmp_path: Path):
    one, two = tmp_path / "tablectl-T-000001.jsonl", tmp_path / "tablectl-T-000002.jsonl"
    one.write_bytes(b'{"seq":1,"event":"a","prev":"x"}\n{"seq":2,"ev')
    f = LogFollower(tmp_path, "T")
    got = f.pending()
    assert [x.data for x in got] == [b'{"seq":1,"event":"a","prev":"x"}']
    f.advance(got[-1])
    assert f.pending() == []
    two.write_bytes(b'{"seq":2,"event":"b","prev":"y"}\n')
    assert [(x.file, x.end) for x in f.pending()] == [(two.name, 33)]


def test_status_says_how_far_behind_and_since_when_the_broker_does_not_answer():
    s = PublisherStatus("T1", published_seq=100, log_seq=1304, connected=False, unreachable_since=1000.0)
    assert status_text(s, 1000.0 + 185) == "publishing: 1,204 lines behind, broker unreachable 3 min"
    assert status_text(PublisherStatus("T1", 5, 5, connected=True), 0) == "publishing: up to date"
    assert status_text(PublisherStatus("T1", 4, 5, connected=True), 0) == "publishing: 1 line behind"


def test_the_broker_config_has_jetstream_in_the_store_and_a_cluster_and_tls_when_given(tmp_path: Path):
    text = render_config(BrokerConfig(listen="0.0.0.0:4222", server_name="n1", sync_always=True,
                                      cluster=ClusterConfig("floor", "10.0.0.1:6222", ("nats://10.0.0.2:6222",)),
                                      tls=TlsConfig(Path("/c.pem"), Path("/k.pem"), Path("/ca.pem"), True),
                                      authorization=Path("perm.conf")), tmp_path)
    for part in (f'store_dir: "{tmp_path}"', "sync_interval: always", 'name: "floor"', '"nats://10.0.0.2:6222"',
                 'cert_file: "/c.pem"', "verify: true", 'include "authorization.conf"', 'server_name: "n1"'):
        assert part in text


@pytest.mark.parametrize("text, want", [("127.0.0.1:4222", ("127.0.0.1", 4222)), (":4222", ("0.0.0.0", 4222)),
                                        ("[::1]:5", ("::1", 5))])
def test_listen_addresses_parse(text, want):
    assert parse_listen(text) == want


@pytest.mark.parametrize("text", ["4222", "host:", "host:port", "h:70000"])
def test_bad_listen_addresses_are_refused(text):
    with pytest.raises(ValueError):
        parse_listen(text)


def test_urls_may_name_a_clusters_nodes():
    assert servers("nats://a:1, b:2") == ["nats://a:1", "nats://b:2"]
    with pytest.raises(ConnectError):
        servers("http://a:1")


@pytest.mark.parametrize("url", ["nats://127.0.0.1:99999", "nats://", "nats://h:0", "nats://h:x", "a:1,tls://:4222"])
def test_a_url_no_client_could_connect_to_is_refused_naming_it(url):
    with pytest.raises(ConnectError, match="not a broker URL"):
        servers(url)


def test_a_url_without_a_port_or_with_a_user_is_a_broker_url():
    assert servers("nats://u:p@[::1]:4222,tls://broker") == ["nats://u:p@[::1]:4222", "tls://broker"]


def test_credentials_inside_the_log_folder_are_refused(tmp_path: Path):
    creds = tmp_path / "logs" / "t.creds"
    creds.parent.mkdir()
    creds.write_text("x")
    with pytest.raises(ConnectError, match="inside the log folder"):
        Credentials(creds=creds).check([tmp_path / "logs"])
    Credentials(creds=creds).check([tmp_path / "elsewhere"])


def test_a_credentials_file_that_is_a_fifo_is_refused_at_once_naming_it(tmp_path: Path):
    creds = tmp_path / "t.creds"
    os.mkfifo(creds)
    with pytest.raises(ConnectError, match=f"creds {creds}: a FIFO, not a regular file"):
        Credentials(creds=creds).check()


def test_credentials_that_do_not_go_together_are_refused(tmp_path: Path):
    with pytest.raises(ConnectError):
        Credentials(user="u").check()
    with pytest.raises(ConnectError):
        Credentials(creds=tmp_path / "a", nkey=tmp_path / "b").check()
