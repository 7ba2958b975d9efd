"""Tamper evidence: every way of changing a signed log is detected, named by file and line.

The log under test (fixture ``signed_log``): three shoes of 20 cards, one file per shoe,
a signed checkpoint every 8 lines, closed cleanly; four files in all.
"""

from __future__ import annotations

from pathlib import Path

import orjson

from tablectl.eventlog import generate_key
from tablectl.eventlog.logformat import digest, insert_signature
from tablectl.eventlog.verify import (
    ALTERED,
    BAD_SIGNATURE,
    NOT_CLOSED,
    SEQUENCE,
    TORN_TAIL,
    UNCLEAN_SHUTDOWN,
    UNSIGNED_TAIL,
    WRONG_KEY,
    verify,
)


def read(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines()


def write(path: Path, lines: list[bytes]) -> None:
    path.write_bytes(b"".join(line + b"\n" for line in lines))


def event(line: bytes) -> str:
    return orjson.loads(line)["event"]


def first_index(lines: list[bytes], name: str, after: int = 0) -> int:
    return next(i for i, line in enumerate(lines) if i >= after and event(line) == name)


def rehash(files: list[Path], start_file: int, start_line: int) -> None:
    """Re-link every line after (start_file, start_line) to its (changed) predecessor, as a
    forger without the key would: the chain is consistent again, the signatures are not."""
    prev = None
    for fi in range(start_file, len(files)):
        lines = read(files[fi])
        for li in range(len(lines)):
            if fi == start_file and li < start_line:
                continue
            if prev is not None:
                lines[li] = lines[li][:-66] + prev.encode() + lines[li][-2:]
            prev = digest(lines[li])
        write(files[fi], lines)


def test_an_untouched_log_verifies_clean(signed_log, key, log_files):
    report = verify([signed_log], key.public_key())
    assert report.clean and report.ok
    assert report.signed_seq == report.last_seq and len(report.files) == 4


def test_a_changed_card_is_detected_at_its_line(signed_log, key, log_files):
    second = log_files(signed_log)[1]
    lines = read(second)
    i = first_index(lines, "card_dealt", after=3)
    record = orjson.loads(lines[i])
    lines[i] = lines[i].replace(f'"card":"{record["card"]}"'.encode(), b'"card":"AS"')
    assert record["card"] != "AS"
    write(second, lines)

    report = verify([signed_log], key.public_key())
    assert not report.ok
    (finding,) = report.findings
    assert (finding.kind, finding.file, finding.line) == (ALTERED, str(second), i + 1)
    assert f"{second}:{i + 2}" in finding.message


def test_a_deleted_line_is_detected_where_the_gap_is(signed_log, key, log_files):
    second = log_files(signed_log)[1]
    lines = read(second)
    del lines[5]
    write(second, lines)

    report = verify([signed_log], key.public_key())
    assert not report.ok
    (finding,) = report.findings
    assert (finding.kind, finding.file, finding.line) == (SEQUENCE, str(second), 6)
    assert "1 line(s) missing" in finding.message


def test_two_swapped_lines_are_detected(signed_log, key, log_files):
    second = log_files(signed_log)[1]
    lines = read(second)
    lines[4], lines[5] = lines[5], lines[4]
    write(second, lines)

    report = verify([signed_log], key.public_key())
    assert not report.ok
    first = report.findings[0]
    assert (first.kind, first.file, first.line) == (SEQUENCE, str(second), 5)


def test_a_deleted_file_in_the_middle_is_detected(signed_log, key, log_files):
    files = log_files(signed_log)
    files[1].unlink()

    report = verify([signed_log], key.public_key())
    assert not report.ok
    first = report.findings[0]
    assert (first.kind, first.file, first.line) == (SEQUENCE, str(files[2]), 1)


def test_a_truncated_tail_is_detected_as_unsigned(signed_log, key, log_files):
    files = log_files(signed_log)
    files[3].unlink()
    lines = read(files[2])
    last_checkpoint = max(i for i, line in enumerate(lines) if event(line) == "checkpoint" and i < len(lines) - 3)
    write(files[2], lines[: last_checkpoint + 3])  # two lines after a periodic checkpoint remain

    report = verify([signed_log], key.public_key())
    assert not report.ok
    (finding,) = report.findings
    assert (finding.kind, finding.file, finding.line) == (UNSIGNED_TAIL, str(files[2]), last_checkpoint + 2)
    assert f"{files[2]}:{last_checkpoint + 3}" in finding.message


def test_a_tail_truncated_at_a_checkpoint_is_detected_as_not_closed(signed_log, key, log_files):
    files = log_files(signed_log)
    files[3].unlink()  # the log now ends at shoe 3's signed shoe_end checkpoint

    report = verify([signed_log], key.public_key())
    assert not report.ok
    (finding,) = report.findings
    assert (finding.kind, finding.file, finding.line) == (NOT_CLOSED, str(files[2]), len(read(files[2])))


def test_a_tail_cut_inside_a_line_is_detected(signed_log, key, log_files):
    last = log_files(signed_log)[-1]
    data = last.read_bytes()
    last.write_bytes(data[:-40])

    report = verify([signed_log], key.public_key())
    assert not report.ok
    assert {TORN_TAIL, UNSIGNED_TAIL} <= report.kinds()
    torn = next(f for f in report.findings if f.kind == TORN_TAIL)
    assert (torn.file, torn.line) == (str(last), 2)


def test_a_changed_card_re_hashed_without_the_key_fails_the_next_signature(signed_log, key, log_files):
    files = log_files(signed_log)
    lines = read(files[2])
    i = first_index(lines, "card_dealt", after=2)
    lines[i] = lines[i].replace(b'"to":"', b'"to":"seat:9","was":"', 1)
    write(files[2], lines)
    rehash(files, 2, i)

    report = verify([signed_log], key.public_key())
    assert not report.ok
    assert ALTERED not in report.kinds() and SEQUENCE not in report.kinds()  # the chain itself is consistent
    first = report.findings[0]
    next_checkpoint = first_index(lines, "checkpoint", after=i)
    assert (first.kind, first.file, first.line) == (BAD_SIGNATURE, str(files[2]), next_checkpoint + 1)


def test_a_forged_tail_with_a_shutdown_checkpoint_signed_by_another_key_is_detected(signed_log, key, log_files):
    files = log_files(signed_log)
    last = files[-1]
    lines = read(last)[:-1]  # drop the real shutdown checkpoint
    forger = generate_key()
    prev = digest(lines[-1])
    seq = orjson.loads(lines[-1])["seq"]
    for card in ("AS", "AH"):
        seq += 1
        line = orjson.dumps({"seq": seq, "event": "card_dealt", "ts": "2024-05-01T01:00:00.000000Z", "table": "T1",
                             "card": card, "to": "seat:1", "prev": prev})
        lines.append(line)
        prev = digest(line)
    # a checkpoint that claims the table's key id but is signed by the forger
    body = orjson.dumps({"seq": seq + 1, "event": "checkpoint", "ts": "2024-05-01T01:00:01.000000Z", "table": "T1",
                         "reason": "shutdown", "key": orjson.loads(read(last)[-1])["key"], "event_nos": {},
                         "prev": prev})
    lines.append(insert_signature(body, forger.sign(body).hex()))
    write(last, lines)

    report = verify([signed_log], key.public_key())
    assert not report.ok
    bad = next(f for f in report.findings if f.kind == BAD_SIGNATURE)
    assert (bad.file, bad.line) == (str(last), len(lines))
    tail = next(f for f in report.findings if f.kind == UNSIGNED_TAIL)
    assert (tail.file, tail.line) == (str(last), 1)  # the "rotated" line after shoe 3's checkpoint


def test_verifying_with_the_wrong_public_key_is_detected(signed_log, log_files):
    report = verify([signed_log], generate_key().public_key())
    assert not report.ok and report.signed_seq == 0
    wrong = report.findings[0]
    first_file = log_files(signed_log)[0]
    assert (wrong.kind, wrong.file, wrong.line) == (WRONG_KEY, str(first_file), first_index(read(first_file), "checkpoint") + 1)
    assert UNSIGNED_TAIL in report.kinds()


def test_no_tampering_is_ever_reported_as_an_unclean_shutdown(signed_log, key, log_files):
    files = log_files(signed_log)
    lines = read(files[1])
    del lines[5]
    write(files[1], lines)
    assert UNCLEAN_SHUTDOWN not in verify([signed_log], key.public_key()).kinds()


def test_a_forged_recovery_without_the_key_is_not_accepted_as_an_unclean_shutdown(signed_log, key, log_files):
    files = log_files(signed_log)
    last = files[-1]
    lines = read(last)[:-1]
    record = {"seq": orjson.loads(lines[-1])["seq"] + 1, "event": "recovery", "ts": "2024-05-01T01:00:00.000000Z",
              "table": "T1", "last_seq": orjson.loads(lines[-1])["seq"], "last_hash": digest(lines[-1]),
              "prev": digest(lines[-1])}
    lines.append(orjson.dumps(record))
    write(last, lines)

    report = verify([signed_log], key.public_key())
    assert not report.ok and UNSIGNED_TAIL in report.kinds() and UNCLEAN_SHUTDOWN not in report.kinds()
