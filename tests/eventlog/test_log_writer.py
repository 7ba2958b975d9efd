"""EventLog writer: envelope, chain, group commit, checkpoints, rotation, reopen, listeners."""

from __future__ import annotations

import os
from pathlib import Path

import orjson
import pytest

from tablectl.eventlog import EventLog, LogClosedError, LogFailedError, LogLockedError, key_id
from tablectl.eventlog.logformat import GENESIS, digest, split_signature


def lines_of(directory: Path) -> list[bytes]:
    out: list[bytes] = []
    for path in sorted(directory.glob("tablectl-*.jsonl")):
        out.extend(path.read_bytes().splitlines())
    return out


def records_of(directory: Path) -> list[dict]:
    return [orjson.loads(line) for line in lines_of(directory)]


def test_new_log_starts_with_log_opened_at_seq_1_with_genesis_prev(tmp_path, key, clock):
    with EventLog(tmp_path, "T1", signing_key=key, clock=clock):
        pass
    first = records_of(tmp_path)[0]
    assert (first["seq"], first["event"], first["prev"]) == (1, "log_opened", GENESIS)
    assert first["key"] == key_id(key) and first["hash"] == "blake2b-256" and first["table"] == "T1"


def test_append_returns_contiguous_seqs(tmp_path, key, clock):
    with EventLog(tmp_path, "T1", signing_key=key, clock=clock) as log:
        seqs = [log.append("card_dealt", card="QH") for _ in range(5)]
    assert seqs == [2, 3, 4, 5, 6]


def test_line_is_envelope_then_fields_in_given_order_then_prev(tmp_path, key, clock):
    with EventLog(tmp_path, "T1", signing_key=key, clock=clock) as log:
        log.append("card_dealt", shoe=4, round=17, card="QH", to="seat:3", device="shoe-1", event_no=9)
    line = records_of(tmp_path)[1]
    assert list(line) == ["seq", "event", "ts", "table", "shoe", "round", "card", "to", "device", "event_no", "prev"]


def test_ts_is_utc_iso8601_with_microseconds_from_the_clock(tmp_path, key):
    with EventLog(tmp_path, "T1", signing_key=key, clock=lambda: 1_714_567_890.25) as log:
        log.append("card_dealt", card="QH")
    assert records_of(tmp_path)[1]["ts"] == "2024-05-01T12:51:30.250000Z"


def test_append_writes_the_bytes_the_structlog_chain_renders(tmp_path, key, make_clock):
    fields = {"shoe": 4, "round": 17, "card": "QH", "to": "seat:3", "face": "up", "device": "shoe-1", "event_no": 9,
              "penetration": 0.4215, "wagers": {"2": {"ante": 500}}}
    with EventLog(tmp_path / "a", "T1", signing_key=key, clock=make_clock()) as direct:
        direct.append("dealt", **fields)
    with EventLog(tmp_path / "b", "T1", signing_key=key, clock=make_clock()) as chained:
        chained._write_log_event("dealt", **fields)  # through the bound structlog logger
    assert lines_of(tmp_path / "a")[1] == lines_of(tmp_path / "b")[1]


def test_every_prev_is_the_digest_of_the_previous_lines_raw_bytes(signed_log):
    lines = lines_of(signed_log)
    for before, line in zip(lines, lines[1:]):
        assert orjson.loads(line)["prev"] == digest(before)


def test_appended_lines_reach_the_file_only_at_commit(tmp_path, key, clock):
    log = EventLog(tmp_path, "T1", signing_key=key, clock=clock)
    size = log.path.stat().st_size
    log.append("card_dealt", card="QH")
    assert log.path.stat().st_size == size
    assert log.commit() == 2
    assert log.path.stat().st_size > size
    log.close()


def test_durable_seq_moves_only_at_commit(tmp_path, key, clock):
    with EventLog(tmp_path, "T1", signing_key=key, clock=clock) as log:
        log.append("card_dealt", card="QH")
        log.append("card_dealt", card="KH")
        assert (log.seq, log.durable_seq) == (3, 1)
        log.commit()
        assert log.durable_seq == 3


def test_group_commit_writes_many_appends_with_one_fsync(tmp_path, key, clock, mocker):
    log = EventLog(tmp_path, "T1", signing_key=key, clock=clock)
    fsync = mocker.spy(os, "fsync")
    for _ in range(64):
        log.append("card_dealt", card="QH")
    log.commit()
    assert fsync.call_count == 1
    assert os.readlink(f"/proc/self/fd/{fsync.call_args.args[0]}") == str(log.path)
    log.close()


def test_commit_with_nothing_appended_does_not_fsync(tmp_path, key, clock, mocker):
    log = EventLog(tmp_path, "T1", signing_key=key, clock=clock)
    fsync = mocker.spy(os, "fsync")
    assert log.commit() == 1
    assert fsync.call_count == 0
    log.close()


def test_fields_the_log_writes_itself_are_refused(tmp_path, key, clock):
    with EventLog(tmp_path, "T1", signing_key=key, clock=clock) as log:
        for field in ("seq", "ts", "table", "prev", "sig"):
            with pytest.raises(ValueError, match=field):
                log.append("card_dealt", **{field: 1})


def test_the_logs_own_events_cannot_be_appended(tmp_path, key, clock):
    with EventLog(tmp_path, "T1", signing_key=key, clock=clock) as log:
        for event in ("checkpoint", "recovery", "rotated", "log_opened"):
            with pytest.raises(ValueError, match="written by the log itself"):
                log.append(event)


def test_event_names_must_be_lower_snake_case(tmp_path, key, clock):
    with EventLog(tmp_path, "T1", signing_key=key, clock=clock) as log:
        with pytest.raises(ValueError, match="event name"):
            log.append('Card "Dealt"')


def test_unserializable_field_raises_and_leaves_no_gap_in_seq(tmp_path, key, clock):
    with EventLog(tmp_path, "T1", signing_key=key, clock=clock) as log:
        with pytest.raises(TypeError):
            log.append("card_dealt", card=object())
        assert log.append("card_dealt", card="QH") == 2
    assert [r["seq"] for r in records_of(tmp_path)] == [1, 2, 3]


def test_event_no_requires_an_int_and_a_device(tmp_path, key, clock):
    with EventLog(tmp_path, "T1", signing_key=key, clock=clock) as log:
        with pytest.raises(TypeError):
            log.append("card_dealt", event_no=5)
        with pytest.raises(TypeError):
            log.append("card_dealt", device="shoe-1", event_no="5")


def test_listeners_get_each_line_only_after_it_is_durable(tmp_path, key, clock):
    seen: list[dict] = []
    with EventLog(tmp_path, "T1", signing_key=key, clock=clock) as log:
        log.add_listener(seen.append)
        log.append("card_dealt", card="QH")
        log.append("card_dealt", card="KH")
        assert seen == []
        log.commit()
        assert [(r["seq"], r["card"]) for r in seen] == [(2, "QH"), (3, "KH")]


def test_a_failing_listener_does_not_stop_other_listeners_or_the_log(tmp_path, key, clock):
    seen: list[int] = []

    def broken(record: dict) -> None:
        raise RuntimeError("display crashed")

    with EventLog(tmp_path, "T1", signing_key=key, clock=clock) as log:
        log.add_listener(broken)
        log.add_listener(lambda r: seen.append(r["seq"]))
        log.append("card_dealt", card="QH")
        assert log.commit() == 2
    assert 2 in seen


def test_a_signed_checkpoint_follows_every_n_lines(tmp_path, key, clock):
    with EventLog(tmp_path, "T1", signing_key=key, clock=clock, checkpoint_every=10) as log:
        for _ in range(25):
            log.append("card_dealt", card="QH")
    checkpoints = [(r["seq"], r["reason"]) for r in records_of(tmp_path) if r["event"] == "checkpoint"]
    assert checkpoints == [(11, "periodic"), (22, "periodic"), (29, "shutdown")]


def test_checkpoint_signature_covers_the_line_without_its_sig_member(tmp_path, key, clock):
    with EventLog(tmp_path, "T1", signing_key=key, clock=clock) as log:
        log.append("card_dealt", card="QH")
    last = lines_of(tmp_path)[-1]
    record = orjson.loads(last)
    signed, sig = split_signature(last)
    key.public_key().verify(bytes.fromhex(sig), signed)  # raises if not
    assert record["sig"] == sig and b'"sig"' not in signed and record["key"] == key_id(key)
    assert list(record)[-2:] == ["sig", "prev"]


def test_checkpoint_records_each_devices_highest_event_no(tmp_path, key, clock):
    with EventLog(tmp_path, "T1", signing_key=key, clock=clock) as log:
        log.append("card_dealt", device="shoe-1", event_no=41)
        log.append("shuffle_done", device="csm-1", event_no=7)
    assert records_of(tmp_path)[-1]["event_nos"] == {"shoe-1": 41, "csm-1": 7}


def test_unsigned_log_writes_checkpoints_without_sig(tmp_path, clock):
    with EventLog(tmp_path, "T1", signing_key=None, clock=clock) as log:
        log.append("card_dealt", card="QH")
    last = records_of(tmp_path)[-1]
    assert last["event"] == "checkpoint" and last["key"] is None and "sig" not in last


def test_close_ends_with_a_shutdown_checkpoint_and_refuses_more_appends(tmp_path, key, clock):
    log = EventLog(tmp_path, "T1", signing_key=key, clock=clock)
    log.append("card_dealt", card="QH")
    log.close()
    assert records_of(tmp_path)[-1]["reason"] == "shutdown"
    with pytest.raises(LogClosedError):
        log.append("card_dealt", card="KH")


def test_end_shoe_rotates_to_a_new_file_and_the_chain_continues(tmp_path, key, clock, deal):
    with EventLog(tmp_path, "T1", signing_key=key, clock=clock, rotate="shoe") as log:
        deal(log, 1, 5, 1)
        first_file = log.path
        log.end_shoe(shoe=1)
        assert log.path != first_file
        deal(log, 2, 5, 6)
    old_last = first_file.read_bytes().splitlines()[-1]
    new_first = orjson.loads(log.path.read_bytes().splitlines()[0])
    assert orjson.loads(old_last)["event"] == "checkpoint" and orjson.loads(old_last)["reason"] == "shoe_end"
    assert orjson.loads(old_last)["shoe"] == 1
    assert new_first["event"] == "rotated" and new_first["previous"] == first_file.name
    assert new_first["prev"] == digest(old_last)


def test_file_names_sort_in_log_order(tmp_path, key, clock):
    with EventLog(tmp_path, "T1", signing_key=key, clock=clock) as log:
        for shoe in range(1, 4):
            log.end_shoe(shoe=shoe)
    names = [p.name for p in sorted(tmp_path.glob("*.jsonl"))]
    assert names == [f"tablectl-T1-{n:06d}.jsonl" for n in range(1, 5)]


def test_end_shoe_without_shoe_rotation_checkpoints_in_the_same_file(tmp_path, key, clock, deal):
    with EventLog(tmp_path, "T1", signing_key=key, clock=clock, rotate="never") as log:
        deal(log, 1, 5, 1)
        log.end_shoe(shoe=1)
        deal(log, 2, 5, 6)
    assert len(list(tmp_path.glob("*.jsonl"))) == 1
    assert [r["reason"] for r in records_of(tmp_path) if r["event"] == "checkpoint"] == ["shoe_end", "shutdown"]


def test_day_rotation_starts_a_new_file_with_the_first_line_after_utc_midnight(tmp_path, key, make_clock):
    clock = make_clock(start=1_714_521_600.0 - 2.0, step=0.5)  # 2024-04-30T23:59:58Z
    with EventLog(tmp_path, "T1", signing_key=key, clock=clock, rotate="day") as log:
        for _ in range(6):
            log.append("card_dealt", card="QH")
    files = sorted(tmp_path.glob("*.jsonl"))
    assert len(files) == 2
    first = [orjson.loads(x) for x in files[0].read_bytes().splitlines()]
    assert all(r["ts"].startswith("2024-04-30") for r in first[:-1])
    assert (first[-1]["event"], first[-1]["reason"]) == ("checkpoint", "day")  # written at the turn
    second = [orjson.loads(x) for x in files[1].read_bytes().splitlines()]
    assert second[0]["event"] == "rotated" and second[0]["reason"] == "day"
    assert all(r["ts"].startswith("2024-05-01") for r in second[1:])


def test_reopen_after_clean_close_continues_the_chain_with_log_opened(tmp_path, key, clock):
    with EventLog(tmp_path, "T1", signing_key=key, clock=clock) as log:
        log.append("card_dealt", card="QH")
    with EventLog(tmp_path, "T1", signing_key=key, clock=clock) as log:
        assert log.recovery is None
        assert log.append("card_dealt", card="KH") == 5
    lines = lines_of(tmp_path)
    reopened = orjson.loads(lines[3])
    assert reopened["event"] == "log_opened" and reopened["prev"] == digest(lines[2])


def test_last_event_no_is_the_highest_durable_number_per_device(tmp_path, key, clock):
    with EventLog(tmp_path, "T1", signing_key=key, clock=clock) as log:
        log.append("card_dealt", device="shoe-1", event_no=5)
        log.commit()
        log.append("card_dealt", device="shoe-1", event_no=6)
        assert log.last_event_no("shoe-1") == 5
        log.commit()
        assert log.last_event_no("shoe-1") == 6
        assert log.last_event_no("csm-1") == 0


def test_last_event_no_after_reopen_counts_lines_after_the_last_checkpoint(tmp_path, key, clock, deal):
    log = EventLog(tmp_path, "T1", signing_key=key, clock=clock, checkpoint_every=4)
    deal(log, 1, 10, 1)  # event_no 1..10; checkpoints after some of them
    log.append("card_returned", device="csm-1", event_no=77)
    log.commit()
    log.close(clean=False)
    with EventLog(tmp_path, "T1", signing_key=key, clock=clock) as reopened:
        assert reopened.last_event_no("shoe-1") == 10
        assert reopened.last_event_no("csm-1") == 77


def test_a_second_writer_on_the_same_log_is_refused(tmp_path, key, clock):
    with EventLog(tmp_path, "T1", signing_key=key, clock=clock):
        with pytest.raises(LogLockedError):
            EventLog(tmp_path, "T1", signing_key=key, clock=clock)


def test_a_failed_fsync_fails_the_log_for_good(tmp_path, key, clock, mocker):
    log = EventLog(tmp_path, "T1", signing_key=key, clock=clock)
    log.append("card_dealt", card="QH")
    mocker.patch("tablectl.eventlog.writer.os.fsync", side_effect=OSError(5, "Input/output error"))
    with pytest.raises(LogFailedError):
        log.commit()
    mocker.stopall()
    with pytest.raises(LogFailedError):
        log.append("card_dealt", card="KH")
    assert log.durable_seq == 1
    log.close()
