"""A table's copy on the collector's disk: opened again after a crash at any point of a write."""

from __future__ import annotations

from pathlib import Path

from loghelpers import signed_runs, write_log

from tablectl.eventlog import generate_key
from tablectl.live.chain import Head
from tablectl.live.copy import TableCopy


def _written(copy: TableCopy) -> list[bytes]:
    return [line for p in copy.files() for line in p.read_bytes().split(b"\n")[:-1]]


def test_a_copy_goes_on_from_the_head_it_recorded(tmp_path: Path):
    key = generate_key()
    runs = signed_runs(write_log(tmp_path / "log", "T1", key))
    copy = TableCopy(tmp_path / "copies", "T1")
    verifier, head = copy.open(key.public_key())
    assert head == Head()
    for run in runs[:3]:
        assert verifier.advance(run).accepted
        copy.append(run, verifier.head)
    copy.close()
    again, head = TableCopy(tmp_path / "copies", "T1").open(key.public_key())
    assert head.seq == sum(len(r) for r in runs[:3]) and again.advance(runs[3]).accepted


def test_a_run_cut_by_a_crash_is_cut_back_to_the_last_signed_line(tmp_path: Path):
    key = generate_key()
    runs = signed_runs(write_log(tmp_path / "log", "T1", key))
    copy = TableCopy(tmp_path / "copies", "T1")
    verifier, _ = copy.open(key.public_key())
    for run in runs[:2]:
        verifier.advance(run)
        copy.append(run, verifier.head)
    copy.close()
    signed = _written(copy)
    partial = runs[2][:-1]  # the run without its checkpoint, and a torn piece of the next line
    for name, line in partial:
        with open(copy.dir / name, "ab") as f:
            f.write(line + b"\n")
    with open(copy.dir / runs[2][-1][0], "ab") as f:
        f.write(runs[2][-1][1][:30])
    _, head = TableCopy(tmp_path / "copies", "T1").open(key.public_key())
    assert _written(copy) == signed and head.seq == len(signed)
