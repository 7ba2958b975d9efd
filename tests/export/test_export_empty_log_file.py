"""A stray empty log file (a crash right after a rotation leaves one; the next run takes it over)
does not stop the next export of its table, nor make it read the whole log again; and when one
table's export fails, the command still lists every table it exported before saying why it
stopped."""

from __future__ import annotations

from pathlib import Path

import pytest
from exporthelpers import Tablectl
from floorgen import Floor, play_shift

from tablectl.analytics.export.logs import export_logs
from tablectl.eventlog.keys import load_public_key


def _next_file(log: Path) -> Path:
    """The log file a rotation would make after *log*'s last one."""
    last = max(log.glob("*.jsonl"))
    stem, number = last.stem.rsplit("-", 1)
    return last.with_name(f"{stem}-{int(number) + 1:06d}.jsonl")


def test_a_stray_empty_log_file_after_an_export_leaves_the_next_export_nothing_new(
        floor_copy: Floor, tmp_path: Path, tablectl: Tablectl) -> None:
    [first] = export_logs([floor_copy.logs["tcp-1"]], tmp_path / "ds", [load_public_key(floor_copy.public_key)])
    _next_file(floor_copy.logs["tcp-1"]).touch()
    done = tablectl("export", floor_copy.logs["tcp-1"], "--to", tmp_path / "ds", "--key", floor_copy.public_key)
    assert (done.code, done.out, done.err) == (0, f"tcp-1: nothing new (exported through seq {first.to_seq})\n", "")


def test_the_run_that_takes_over_an_exported_empty_file_is_exported_going_on_from_the_last_export(
        floor_copy: Floor, tmp_path: Path) -> None:
    key = [load_public_key(floor_copy.public_key)]
    empty = _next_file(floor_copy.logs["ocp-1"])
    empty.touch()
    [first] = export_logs([floor_copy.logs["ocp-1"]], tmp_path / "ds", key)
    play_shift(floor_copy, "ocp-1", 2, "D-99", 4, seed=77)
    assert empty.stat().st_size > 0  # the new run wrote into it
    [again] = export_logs([floor_copy.logs["ocp-1"]], tmp_path / "ds", key)
    assert again.note is None and again.refused is None  # no "reviewing the whole log again"
    assert again.from_seq == first.to_seq + 1 and again.rows["rounds"] == 4


@pytest.mark.parametrize("workers", ["1", "2"])
def test_the_tables_exported_are_listed_when_another_table_fails(workers: str, floor_copy: Floor, tmp_path: Path,
                                                                 tablectl: Tablectl) -> None:
    empty = tmp_path / "empty" / "tablectl-zz-1-000001.jsonl"  # sorts after ocp-1: exported after it
    empty.parent.mkdir()
    empty.touch()
    done = tablectl("export", floor_copy.logs["ocp-1"], empty.parent, "--to", tmp_path / "ds",
                    "--key", floor_copy.public_key, "--workers", workers)
    assert done.code == 2
    assert done.out.startswith("ocp-1: seq 1-") and done.out.count("\n") == 1
    assert done.err == f"tablectl: {empty}: the log is empty\n"
