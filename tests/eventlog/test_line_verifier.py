"""LineVerifier: verify()'s checks on a log that arrives a run of lines at a time (the collector)."""

from __future__ import annotations

from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tablectl.eventlog import EventLog, generate_key
from tablectl.eventlog import logformat as fmt
from tablectl.eventlog.verify import (
    ALTERED,
    BAD_SIGNATURE,
    SEQUENCE,
    UNCLEAN_SHUTDOWN,
    WRONG_KEY,
    ChainHead,
    LineVerifier,
    verify,
)


def _log(tmp_path: Path, key: Ed25519PrivateKey, clock, deal, shoes: int = 3, crash: bool = False) -> Path:
    d = tmp_path / "log"
    log = EventLog(d, "T1", signing_key=key, checkpoint_every=7, clock=clock)
    n = 1
    for shoe in range(1, shoes + 1):
        n = deal(log, shoe, 10, n)
        log.commit()
        log.end_shoe(shoe=shoe)
    if crash:
        n = deal(log, shoes + 1, 3, n)
        log.commit()
        log.close(clean=False)  # the process dies: no shutdown checkpoint
        log = EventLog(d, "T1", signing_key=key, checkpoint_every=7, clock=clock)
    log.close()
    return d


def _lines(d: Path) -> list[tuple[str, bytes]]:
    out = []
    for path in fmt.log_files(d)["T1"]:
        out += [(path.name, line) for line in path.read_bytes().splitlines()]
    return out


def _runs(lines: list[tuple[str, bytes]]) -> list[list[tuple[str, bytes]]]:
    """The lines cut after every checkpoint: what a collector can take one signature at a time."""
    runs, run = [], []
    for item in lines:
        run.append(item)
        if b'"event":"checkpoint"' in item[1][:40]:
            runs.append(run)
            run = []
    assert not run
    return runs


def test_a_log_taken_run_by_run_ends_where_verify_ends(tmp_path, key, clock, deal):
    d = _log(tmp_path, key, clock, deal)
    v = LineVerifier(key.public_key())
    for run in _runs(_lines(d)):
        result = v.advance(run)
        assert result.accepted and not result.findings
    report = verify([d], key.public_key())
    assert (v.head.seq, v.head.digest, v.head.reason) == (report.last_seq, report.last_digest, "shutdown")


def test_a_run_not_ending_at_a_signed_checkpoint_is_not_taken(tmp_path, key, clock, deal):
    lines = _lines(_log(tmp_path, key, clock, deal))
    v = LineVerifier(key.public_key())
    result = v.advance(lines[:3])
    assert not result.accepted and result.unsigned == 3 and not result.findings
    assert v.head.seq == 0
    assert v.advance(_runs(lines)[0]).accepted


def test_a_changed_line_is_refused_and_the_genuine_run_taken_after(tmp_path, key, clock, deal):
    runs = _runs(_lines(_log(tmp_path, key, clock, deal)))
    assert LineVerifier(key.public_key()).advance(runs[0]).accepted
    v = LineVerifier(key.public_key())
    v.advance(runs[0])
    name, line = runs[1][2]
    changed = list(runs[1])
    changed[2] = (name, line.replace(b'"seat:', b'"dp:', 1) if b'"seat:' in line else line.replace(b'"burn"', b'"dp"'))
    result = v.advance(changed)
    assert not result.accepted and ALTERED in {f.kind for f in result.findings}
    assert v.head.seq == len(runs[0])
    assert v.advance(runs[1]).accepted


def test_a_line_missing_from_a_run_is_a_sequence_finding(tmp_path, key, clock, deal):
    runs = _runs(_lines(_log(tmp_path, key, clock, deal)))
    v = LineVerifier(key.public_key())
    result = v.advance(runs[0][:2] + runs[0][3:])
    assert not result.accepted and SEQUENCE in {f.kind for f in result.findings}


def test_a_checkpoint_signed_by_another_key_is_refused(tmp_path, key, clock, deal):
    runs = _runs(_lines(_log(tmp_path, key, clock, deal)))
    other = _log(tmp_path / "other", generate_key(), clock, deal)
    v = LineVerifier(key.public_key())
    result = v.advance(_runs(_lines(other))[0])
    assert not result.accepted and WRONG_KEY in {f.kind for f in result.findings}
    assert v.advance(runs[0]).accepted


def test_a_forged_signature_is_refused(tmp_path, key, clock, deal):
    runs = _runs(_lines(_log(tmp_path, key, clock, deal)))
    name, cp = runs[0][-1]
    at = cp.index(b'"sig":"') + 7
    forged = cp[:at] + (b"0" if cp[at:at + 1] != b"0" else b"1") + cp[at + 1:]
    result = LineVerifier(key.public_key()).advance(runs[0][:-1] + [(name, forged)])
    assert not result.accepted and BAD_SIGNATURE in {f.kind for f in result.findings}


def test_verification_goes_on_from_a_head_verify_found(tmp_path, key, clock, deal):
    d = _log(tmp_path, key, clock, deal)
    lines = _lines(d)
    runs = _runs(lines)
    first = tmp_path / "first"
    first.mkdir()
    upto = sum(len(r) for r in runs[:2])
    for name, line in lines[:upto]:
        with open(first / name, "ab") as f:
            f.write(line + b"\n")
    v = LineVerifier(key.public_key(), ChainHead.of(verify([first], key.public_key())))  # ends at a periodic checkpoint
    for run in runs[2:]:
        assert v.advance(run).accepted


def test_an_unclean_shutdown_is_a_warning_once_its_recovery_is_signed(tmp_path, key, clock, deal):
    lines = _lines(_log(tmp_path, key, clock, deal, crash=True))
    v = LineVerifier(key.public_key())
    kinds = set()
    for run in _runs(lines):
        result = v.advance(run)
        assert result.accepted
        kinds |= {f.kind for f in result.findings}
    assert kinds == {UNCLEAN_SHUTDOWN}
