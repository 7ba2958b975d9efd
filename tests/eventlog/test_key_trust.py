"""Which keys may sign a log: keys named by hand, the keyring's spans, and rotations in the log."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tablectl.eventlog import EventLog, generate_key, key_id
from tablectl.eventlog import keyring as kr
from tablectl.eventlog.trust import (
    BAD_HANDOVER, RETIRED_KEY, UNANNOUNCED_KEY, WRONG_KEY, KeySchedule, KeySpan, Refusal, Trust, effective_spans,
)
from tablectl.eventlog.verify import TABLE_MISMATCH, iter_events, verify

Deal = Callable[[EventLog, int, int, int], int]


def session(directory: Path, key: Ed25519PrivateKey, deal: Deal, *, previous: Ed25519PrivateKey | None = None,
            shoe: int = 1, table: str = "T1") -> None:
    with EventLog(directory, table, signing_key=key, previous_key=previous, checkpoint_every=4) as log:
        deal(log, shoe, 6, 100 * shoe)


def kinds(directory: Path, keys: object) -> set[str]:
    return verify([directory], keys).kinds()  # type: ignore[arg-type]


def test_the_first_checkpoint_may_be_signed_by_any_key_given() -> None:
    k1, k2 = generate_key().public_key(), generate_key().public_key()
    schedule = KeySchedule(Trust(given=(k1, k2)))
    assert schedule.key_for(key_id(k2), 5) is k2


def test_a_given_key_taking_over_without_an_introduction_is_refused() -> None:
    k1, k2 = generate_key().public_key(), generate_key().public_key()
    schedule = KeySchedule(Trust(given=(k1, k2)))
    schedule.accept(key_id(k1), 5, None)
    refusal = schedule.key_for(key_id(k2), 9)
    assert isinstance(refusal, Refusal) and refusal.kind == UNANNOUNCED_KEY


def test_a_rotated_key_is_handed_on_by_the_log(tmp_path: Path, deal: Deal) -> None:
    k1, k2 = generate_key(), generate_key()
    session(tmp_path, k1, deal)
    session(tmp_path, k2, deal, previous=k1, shoe=2)
    report = verify([tmp_path], k1.public_key())
    assert report.clean, report.findings


def test_a_session_signed_by_a_retired_key_is_an_integrity_failure_whatever_keys_are_given(tmp_path: Path, deal: Deal) -> None:
    k1, k2 = generate_key(), generate_key()
    session(tmp_path, k1, deal)
    session(tmp_path, k2, deal, previous=k1, shoe=2)
    session(tmp_path, k1, deal, shoe=3)  # someone who kept only the old key
    assert RETIRED_KEY in kinds(tmp_path, [k1.public_key(), k2.public_key()])


def test_a_replaced_key_with_no_introduction_fails_though_both_keys_are_given(tmp_path: Path, deal: Deal) -> None:
    k1, k2 = generate_key(), generate_key()
    session(tmp_path, k1, deal)
    session(tmp_path, k2, deal, shoe=2)
    assert UNANNOUNCED_KEY in kinds(tmp_path, [k1.public_key(), k2.public_key()])


def test_a_key_enrolled_from_the_seq_it_took_over_at_verifies_without_an_introduction(tmp_path: Path, deal: Deal) -> None:
    k1, k2 = generate_key(), generate_key()
    logs, ring = tmp_path / "logs", tmp_path / "ring"
    session(logs, k1, deal)
    first_end = verify([logs], k1.public_key()).last_seq
    session(logs, k2, deal, shoe=2)
    kr.enrol(ring, "T1", k1.public_key())
    kr.enrol(ring, "T1", k2.public_key(), from_seq=first_end + 1)
    assert verify([logs], kr.trust(ring, "T1")).clean


def test_an_enrolled_key_signing_after_its_successors_span_began_is_retired(tmp_path: Path, deal: Deal) -> None:
    k1, k2 = generate_key(), generate_key()
    logs, ring = tmp_path / "logs", tmp_path / "ring"
    session(logs, k1, deal)
    kr.enrol(ring, "T1", k1.public_key())
    kr.enrol(ring, "T1", k2.public_key(), from_seq=3)
    assert RETIRED_KEY in kinds(logs, kr.trust(ring, "T1"))


def test_a_key_the_keyring_does_not_hold_is_a_wrong_key(tmp_path: Path, deal: Deal) -> None:
    logs, ring = tmp_path / "logs", tmp_path / "ring"
    session(logs, generate_key(), deal)
    kr.enrol(ring, "T1", generate_key().public_key())
    assert WRONG_KEY in kinds(logs, kr.trust(ring, "T1"))


def test_another_tables_keys_do_not_vouch_for_a_log(tmp_path: Path, deal: Deal) -> None:
    key = generate_key()
    logs, ring = tmp_path / "logs", tmp_path / "ring"
    session(logs, key, deal)
    kr.enrol(ring, "T2", key.public_key())
    assert TABLE_MISMATCH in kinds(logs, kr.trust(ring, "T2"))


def test_a_log_file_renamed_for_another_table_is_an_integrity_failure(tmp_path: Path, deal: Deal) -> None:
    key = generate_key()
    session(tmp_path, key, deal)
    for path in list(tmp_path.glob("tablectl-T1-*.jsonl")):
        path.rename(path.with_name(path.name.replace("T1", "T2")))
    report = verify([tmp_path], key.public_key())
    assert report.table == "T1" and TABLE_MISMATCH in report.kinds()


def test_a_keyring_file_renamed_for_another_table_is_refused(tmp_path: Path) -> None:
    kr.enrol(tmp_path, "T1", generate_key().public_key())
    os.rename(tmp_path / "T1.toml", tmp_path / "T2.toml")
    with pytest.raises(kr.KeyringError, match="named for table 'T2'"):
        kr.load(tmp_path, "T2")


def test_enrolling_the_same_key_again_writes_nothing(tmp_path: Path) -> None:
    key = generate_key().public_key()
    kr.enrol(tmp_path, "T1", key)
    assert kr.enrol(tmp_path, "T1", key)[1] is False
    assert len(kr.load(tmp_path, "T1")) == 1


def test_keyring_files_are_never_group_or_world_writable(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        kr.enrol(tmp_path / "ring", "T1", generate_key().public_key())
    finally:
        os.umask(old)
    assert (tmp_path / "ring").stat().st_mode & 0o022 == 0
    assert (tmp_path / "ring" / "T1.toml").stat().st_mode & 0o022 == 0


def rotation_seq(directory: Path) -> int:
    return next(r["seq"] for r in iter_events([directory]) if r.get("reason") == "key_rotation")


def forked(tmp_path: Path, deal: Deal, successor: Ed25519PrivateKey) -> tuple[Path, Ed25519PrivateKey, int]:
    """A log whose first key hands over to *successor* at its second start: (log, first key, the
    hand-over's seq)."""
    k1, logs = generate_key(), tmp_path / "logs"
    session(logs, k1, deal)
    session(logs, successor, deal, previous=k1, shoe=2)
    session(logs, successor, deal, shoe=3)
    return logs, k1, rotation_seq(logs)


def test_a_hand_over_to_another_key_than_the_keyring_enrols_from_the_next_seq_is_an_integrity_failure(
    tmp_path: Path, deal: Deal,
) -> None:
    k3, ring = generate_key(), tmp_path / "ring"
    logs, k1, at = forked(tmp_path, deal, k3)
    kr.enrol(ring, "T1", k1.public_key())
    kr.enrol(ring, "T1", generate_key().public_key(), from_seq=at + 1)
    assert BAD_HANDOVER in kinds(logs, kr.trust(ring, "T1"))


def test_a_hand_over_inside_the_first_keys_span_to_a_key_other_than_the_named_successor_is_an_integrity_failure(
    tmp_path: Path, deal: Deal,
) -> None:
    k3, ring = generate_key(), tmp_path / "ring"
    logs, k1, at = forked(tmp_path, deal, k3)
    kr.enrol(ring, "T1", k1.public_key())
    kr.enrol(ring, "T1", generate_key().public_key(), from_seq=at + 500)  # the real successor, later
    assert BAD_HANDOVER in kinds(logs, kr.trust(ring, "T1"))


def test_a_hand_over_before_the_seq_the_keyring_enrols_the_successor_from_is_an_integrity_failure(
    tmp_path: Path, deal: Deal,
) -> None:
    k2, ring = generate_key(), tmp_path / "ring"
    logs, k1, at = forked(tmp_path, deal, k2)
    kr.enrol(ring, "T1", k1.public_key())
    kr.enrol(ring, "T1", k2.public_key(), from_seq=at + 5)
    assert BAD_HANDOVER in kinds(logs, kr.trust(ring, "T1"))


def test_a_hand_over_to_the_successor_the_keyring_enrols_from_the_next_seq_verifies(tmp_path: Path, deal: Deal) -> None:
    k2, ring = generate_key(), tmp_path / "ring"
    logs, k1, at = forked(tmp_path, deal, k2)
    kr.enrol(ring, "T1", k1.public_key())
    kr.enrol(ring, "T1", k2.public_key(), from_seq=at + 1)
    kr.retire(ring, "T1", key_id(k1), at)
    report = verify([logs], kr.trust(ring, "T1"))
    assert report.clean, report.findings


def test_a_key_introduced_where_the_keyring_names_no_successor_signs_to_the_end_of_the_open_span(
    tmp_path: Path, deal: Deal,
) -> None:
    ring = tmp_path / "ring"
    logs, k1, _ = forked(tmp_path, deal, generate_key())
    kr.enrol(ring, "T1", k1.public_key())
    report = verify([logs], kr.trust(ring, "T1"))
    assert report.clean, report.findings


def test_a_key_introduced_under_a_retired_key_signs_nothing_past_the_retirement(tmp_path: Path, deal: Deal) -> None:
    ring = tmp_path / "ring"
    logs, k1, at = forked(tmp_path, deal, generate_key())
    kr.enrol(ring, "T1", k1.public_key())
    kr.retire(ring, "T1", key_id(k1), at + 3)
    assert RETIRED_KEY in kinds(logs, kr.trust(ring, "T1"))


def test_a_key_introduced_by_an_introduced_key_inherits_the_first_keys_open_span(tmp_path: Path, deal: Deal) -> None:
    k1, k2, k3, logs, ring = generate_key(), generate_key(), generate_key(), tmp_path / "logs", tmp_path / "ring"
    session(logs, k1, deal)
    session(logs, k2, deal, previous=k1, shoe=2)
    session(logs, k3, deal, previous=k2, shoe=3)
    kr.enrol(ring, "T1", k1.public_key())
    report = verify([logs], kr.trust(ring, "T1"))
    assert report.clean, report.findings


def test_with_several_keys_given_a_hand_over_to_a_key_not_given_is_an_integrity_failure(
    tmp_path: Path, deal: Deal,
) -> None:
    logs, k1, _ = forked(tmp_path, deal, generate_key())
    assert BAD_HANDOVER in kinds(logs, [k1.public_key(), generate_key().public_key()])


def test_the_report_names_each_key_that_signed_with_the_lines_it_signed(tmp_path: Path, deal: Deal) -> None:
    k2 = generate_key()
    logs, k1, at = forked(tmp_path, deal, k2)
    report = verify([logs], k1.public_key())
    assert [(s.key, s.from_seq, s.to_seq) for s in report.signers] == [
        (key_id(k1), 1, at), (key_id(k2), at + 1, report.last_seq)]


def test_an_enrolled_keys_span_ends_where_the_next_key_is_enrolled_from_whatever_its_until_seq() -> None:
    k1, k2 = generate_key().public_key(), generate_key().public_key()
    spans = effective_spans([KeySpan(k1, 1, 500), KeySpan(k2, 145)])
    assert [(s.from_seq, s.until_seq) for s in spans] == [(1, 144), (145, None)]
