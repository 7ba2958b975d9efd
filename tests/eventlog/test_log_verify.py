"""verify() and iter_events(): inputs, ordering, keys, partial logs, bad input."""

from __future__ import annotations

import pytest

import tablectl.eventlog.verify as verify_module
from tablectl.eventlog import EventLog, LogInputError, generate_key, iter_events, iter_located_events
from tablectl.eventlog.verify import BAD_START, PARTIAL, UNSIGNED_CHECKPOINT, UNSIGNED_TAIL, WRONG_KEY, verify


def test_a_directory_and_its_files_in_order_verify_the_same(signed_log, key, log_files):
    by_dir = verify([signed_log], key.public_key())
    by_files = verify(log_files(signed_log), key.public_key())
    assert by_dir.clean and by_files.clean
    assert (by_dir.lines, by_dir.last_seq, by_dir.checkpoints) == (by_files.lines, by_files.last_seq, by_files.checkpoints)


def test_the_report_counts_lines_and_signatures(signed_log, key):
    report = verify([signed_log], key.public_key())
    events = list(iter_events([signed_log]))
    assert report.lines == len(events) == report.last_seq
    assert report.checkpoints == sum(e["event"] == "checkpoint" for e in events)
    assert report.table == "T1" and report.first_seq == 1


def test_iter_events_yields_every_line_in_seq_order(signed_log):
    events = list(iter_events([signed_log]))
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert sum(e["event"] == "card_dealt" for e in events) == 60


def test_iter_located_events_names_file_and_line(signed_log, log_files):
    located = list(iter_located_events([signed_log]))
    second = log_files(signed_log)[1]
    path, line, record = next(x for x in located if x[0] == second)
    assert line == 1 and record["event"] == "rotated"


def test_without_a_key_only_the_chain_is_checked_and_the_report_says_so(signed_log):
    report = verify([signed_log], None)
    assert report.ok and not report.signatures_checked and report.signed_seq == 0


def test_a_log_slice_not_starting_at_seq_1_is_a_bad_start_unless_partial_is_allowed(signed_log, key, log_files):
    tail = log_files(signed_log)[2:]
    strict = verify(tail, key.public_key())
    assert not strict.ok and BAD_START in strict.kinds()
    partial = verify(tail, key.public_key(), allow_partial=True)
    assert partial.ok and partial.kinds() == {PARTIAL}


def test_a_log_signed_by_two_keys_in_turn_verifies_with_both(tmp_path, key, clock, deal):
    new_key = generate_key()
    with EventLog(tmp_path, "T1", signing_key=key, clock=clock) as log:
        deal(log, 1, 5, 1)
    with EventLog(tmp_path, "T1", signing_key=new_key, previous_key=key, clock=clock) as log:
        deal(log, 2, 5, 6)
    assert verify([tmp_path], [key.public_key(), new_key.public_key()]).clean
    only_new = verify([tmp_path], new_key.public_key())
    assert WRONG_KEY in only_new.kinds()


def test_a_log_written_without_a_signing_key_does_not_verify_as_signed(tmp_path, key, clock, deal):
    with EventLog(tmp_path, "T1", signing_key=None, clock=clock) as log:
        deal(log, 1, 5, 1)
    report = verify([tmp_path], key.public_key())
    assert not report.ok and {UNSIGNED_CHECKPOINT, UNSIGNED_TAIL} <= report.kinds()


def test_verify_does_not_write(signed_log, key):
    before = {p: p.read_bytes() for p in signed_log.iterdir() if p.is_file()}
    verify([signed_log], key.public_key())
    assert {p: p.read_bytes() for p in signed_log.iterdir() if p.is_file()} == before


def test_a_missing_path_is_bad_input(tmp_path, key):
    with pytest.raises(LogInputError, match="no such file"):
        verify([tmp_path / "nope"], key.public_key())


def test_an_empty_directory_is_bad_input(tmp_path, key):
    with pytest.raises(LogInputError, match="no tablectl log files"):
        verify([tmp_path], key.public_key())


def test_a_file_that_is_not_a_log_is_bad_input(tmp_path, key):
    notes = tmp_path / "notes.txt"
    notes.write_text("shift notes\n")
    with pytest.raises(LogInputError, match="not a tablectl event log"):
        verify([notes], key.public_key())


def test_a_log_of_empty_files_is_bad_input(tmp_path, key):
    (tmp_path / "tablectl-T1-000001.jsonl").write_bytes(b"")
    with pytest.raises(LogInputError, match="empty"):
        verify([tmp_path], key.public_key())


def test_a_directory_holding_two_tables_logs_is_bad_input(tmp_path, key, clock):
    for table in ("T1", "T2"):
        EventLog(tmp_path, table, signing_key=key, clock=clock).close()
    with pytest.raises(LogInputError, match="several tables"):
        verify([tmp_path], key.public_key())


def test_game_events_that_resemble_log_events_are_not_taken_for_them(tmp_path, key, clock):
    with EventLog(tmp_path, "T1", signing_key=key, clock=clock, checkpoint_every=0) as log:
        log.append("recount", device="shoe-1", event_no=1)
        log.append("rotation_started")
        log.append("card_dealt", card="QH", detail={"event": "checkpoint", "reason": "shutdown"})
    report = verify([tmp_path], key.public_key())
    assert report.clean and report.checkpoints == 1


def test_findings_name_the_right_line_across_read_chunks(tmp_path, key, clock, monkeypatch, deal):
    monkeypatch.setattr(verify_module, "_CHUNK", 1000)  # many chunk boundaries, some mid-line
    with EventLog(tmp_path, "T1", signing_key=key, clock=clock, checkpoint_every=7) as log:
        deal(log, 1, 60, 1)
    assert verify([tmp_path], key.public_key()).clean
    path = next(tmp_path.glob("*.jsonl"))
    lines = path.read_bytes().splitlines()
    lines[40] = lines[40].replace(b'"round":', b'"round":1', 1)
    path.write_bytes(b"".join(x + b"\n" for x in lines))
    (finding,) = verify([tmp_path], key.public_key()).findings
    assert (finding.kind, finding.line) == ("altered", 41)
