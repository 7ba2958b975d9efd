"""Crash recovery: a killed writer, a torn last line, an unclean close; what reopening records."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import orjson
import pytest

from tablectl.eventlog import EventLog, LogCorruptError, iter_events, save_keypair
from tablectl.eventlog.logformat import digest
from tablectl.eventlog.verify import UNCLEAN_SHUTDOWN, UNSIGNED_TAIL, verify


WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from tablectl.eventlog import EventLog, load_private_key

    log = EventLog(Path(sys.argv[1]), "T1", signing_key=load_private_key(Path(sys.argv[2])),
                   checkpoint_every=50)
    n = 0
    while True:
        for _ in range(7):
            n += 1
            log.append("card_dealt", shoe=1 + n // 100, card="QH", to="seat:1", device="shoe-1", event_no=n)
        durable = log.commit()
        print(durable, n, flush=True)   # what the link would now ACK to the device
        if n % 100 < 7:
            log.end_shoe(shoe=n // 100)
    """
)


def test_sigkill_mid_stream_loses_no_committed_line_and_the_restart_records_recovery(tmp_path, key):
    keys = save_keypair(tmp_path / "keys", key)
    directory = tmp_path / "log"
    child = subprocess.Popen([sys.executable, "-c", WRITER, str(directory), str(keys.private)],
                             stdout=subprocess.PIPE, text=True)
    try:
        acked_seq = acked_event_no = 0
        for reply in child.stdout:
            acked_seq, acked_event_no = map(int, reply.split())
            if acked_event_no >= 400:  # past several rotations and checkpoints
                break
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait(timeout=10)
        child.stdout.close()
    assert child.returncode == -signal.SIGKILL and acked_event_no >= 400

    with EventLog(directory, "T1", signing_key=key) as log:
        assert log.recovery is not None
        assert log.last_event_no("shoe-1") >= acked_event_no  # the device replays after this: no doubles
        recovery_seq = log.recovery["last_seq"] + 1

    events = list(iter_events([directory]))
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert len(events) > acked_seq
    dealt = [e["event_no"] for e in events if e["event"] == "card_dealt"]
    assert dealt == list(range(1, len(dealt) + 1)) and len(dealt) >= acked_event_no
    assert events[recovery_seq - 1]["event"] == "recovery"

    report = verify([directory], key.public_key())
    assert report.ok, report.findings
    assert report.kinds() == {UNCLEAN_SHUTDOWN}


def test_a_torn_last_line_is_moved_aside_and_recorded(tmp_path, key, clock, deal):
    log = EventLog(tmp_path, "T1", signing_key=key, clock=clock)
    deal(log, 1, 5, 1)
    log.commit()
    log.close(clean=False)
    torn = b'{"seq":7,"event":"card_dealt","ts":"2024-05-01T00:00:00.0'
    last_file = log.path
    with open(last_file, "ab") as f:
        f.write(torn)

    with EventLog(tmp_path, "T1", signing_key=key, clock=clock) as reopened:
        record = reopened.recovery
    assert record["torn"]["bytes"] == len(torn) and record["torn"]["file"] == last_file.name
    assert (tmp_path / record["torn"]["moved_to"]).read_bytes() == torn
    assert last_file.read_bytes().endswith(b"\n") and torn not in last_file.read_bytes()
    assert record["last_seq"] == 6

    report = verify([tmp_path], key.public_key())
    assert report.ok and report.kinds() == {UNCLEAN_SHUTDOWN}
    assert "torn" in report.warnings[0].message


def test_unclean_close_makes_the_next_open_write_recovery_then_a_signed_checkpoint(tmp_path, key, clock, deal):
    log = EventLog(tmp_path, "T1", signing_key=key, clock=clock)
    deal(log, 1, 5, 1)
    log.commit()
    log.close(clean=False)
    last_line = log.path.read_bytes().splitlines()[-1]

    with EventLog(tmp_path, "T1", signing_key=key, clock=clock) as reopened:
        new_file = reopened.path
    first, second = (orjson.loads(x) for x in new_file.read_bytes().splitlines()[:2])
    assert first["event"] == "recovery" and first["prev"] == digest(last_line)
    assert (first["last_seq"], first["last_hash"]) == (6, digest(last_line))
    assert (first["last_checkpoint_seq"], first["unsigned"]) == (0, 6)
    assert (second["event"], second["reason"]) == ("checkpoint", "recovery") and "sig" in second


def test_verify_reports_a_recorded_crash_as_unclean_shutdown_not_tampering(tmp_path, key, clock, deal):
    log = EventLog(tmp_path, "T1", signing_key=key, clock=clock)
    deal(log, 1, 5, 1)
    log.commit()
    log.close(clean=False)
    EventLog(tmp_path, "T1", signing_key=key, clock=clock).close()

    report = verify([tmp_path], key.public_key())
    assert report.ok and not report.clean
    (warning,) = report.findings
    assert warning.kind == UNCLEAN_SHUTDOWN and not warning.integrity
    assert "seq 1..6" in warning.message and warning.line == 1 and warning.file.endswith("000002.jsonl")


def test_a_crash_without_restart_is_an_unsigned_tail(tmp_path, key, clock, deal):
    log = EventLog(tmp_path, "T1", signing_key=key, clock=clock, checkpoint_every=4)
    deal(log, 1, 6, 1)
    log.commit()
    log.close(clean=False)

    report = verify([tmp_path], key.public_key())
    assert not report.ok
    assert report.kinds() == {UNSIGNED_TAIL}


def test_a_crash_right_after_rotation_reuses_the_empty_new_file(tmp_path, key, clock, deal):
    log = EventLog(tmp_path, "T1", signing_key=key, clock=clock)
    deal(log, 1, 3, 1)
    log.end_shoe(shoe=1)
    log.close(clean=False)
    log.path.write_bytes(b"")  # the new file was created, its first line never reached the disk

    with EventLog(tmp_path, "T1", signing_key=key, clock=clock) as reopened:
        assert reopened.path == log.path
        assert reopened.recovery["last_event"] == "checkpoint"
    assert verify([tmp_path], key.public_key()).ok


def test_reopening_refuses_a_log_whose_tail_does_not_chain(tmp_path, key, clock, deal):
    log = EventLog(tmp_path, "T1", signing_key=key, clock=clock)
    deal(log, 1, 5, 1)
    log.commit()
    log.close(clean=False)
    data = log.path.read_bytes()
    log.path.write_bytes(data.replace(b'"card":"7S"', b'"card":"8S"', 1))

    with pytest.raises(LogCorruptError):
        EventLog(tmp_path, "T1", signing_key=key, clock=clock)
