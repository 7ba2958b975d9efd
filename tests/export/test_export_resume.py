"""A re-export goes on from where the last one ended: it reads only the log files added since
(re-hashing the ones it read before), and anything in doubt about the state it saved — changed
by hand, forged, bound to another manifest — makes it read the whole log again, saying why in one
line, with the same rows. A dataset of an older format is refused by its readers, naming it and
saying to re-export."""

from __future__ import annotations

import multiprocessing
from pathlib import Path
from typing import Any

import msgspec
import orjson
import pyarrow.parquet as pq
import pytest
from exporthelpers import Tablectl, dataset_difference
from floorgen import Floor, play_shift

from tablectl.analytics.dataset.schemas import DATASETS
from tablectl.analytics.export import resume
from tablectl.analytics.export.logs import export_logs
from tablectl.eventlog.keys import load_public_key

AGAIN = "reviewing the whole log again"


def _lines(files: list[Path]) -> int:
    return sum(f.read_bytes().count(b"\n") for f in files)


def _grown(floor: Floor, table: str, dataset: Path) -> int:
    """Export *table*'s log to *dataset*, then play a shift more; the lines the shift added."""
    log = floor.logs[table]
    export_logs([log], dataset, [load_public_key(floor.public_key)])
    before = _lines(sorted(log.glob("*.jsonl")))
    play_shift(floor, table, 2, "D-99", 6, seed=77)
    return _lines(sorted(log.glob("*.jsonl"))) - before


def _same_rows_as_fresh(floor: Floor, table: str, dataset: Path, fresh: Path, tablectl: Tablectl) -> None:
    assert tablectl("export", floor.logs[table], "--to", fresh, "--key", floor.public_key).code == 0
    differences = {name: dataset_difference(dataset, fresh, name) for name in DATASETS}
    assert {name: d[:2] for name, d in differences.items()} == dict.fromkeys(DATASETS, (0, 0))
    assert differences["rounds"][2] > 6


def test_a_re_export_after_the_log_grew_reads_only_the_new_lines(floor_copy: Floor, tmp_path: Path) -> None:
    added = _grown(floor_copy, "tcp-1", tmp_path / "ds")
    read = [0]
    [done] = export_logs([floor_copy.logs["tcp-1"]], tmp_path / "ds", [load_public_key(floor_copy.public_key)],
                         progress=lambda lines, _bytes: read.__setitem__(0, read[0] + lines))
    assert done.refused is None and done.note is None
    assert read[0] == added > 0


def test_exporting_the_same_logs_again_reads_none_of_their_lines(floor_copy: Floor, tmp_path: Path) -> None:
    key = [load_public_key(floor_copy.public_key)]
    export_logs([floor_copy.logs["ocp-1"]], tmp_path / "ds", key)
    read = [0]
    [done] = export_logs([floor_copy.logs["ocp-1"]], tmp_path / "ds", key,
                         progress=lambda lines, _bytes: read.__setitem__(0, read[0] + lines))
    assert done.refused is None and done.note is None and not done.rows
    assert read[0] == 0


def test_marks_taken_in_a_worker_while_the_log_is_read_let_the_next_export_skip_every_file(
        floor_copy: Floor, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    workers: list[object] = []

    class Spied(resume.Forked):  # type: ignore[type-arg]
        def __init__(self, fn: Any) -> None:
            workers.append(self)
            super().__init__(fn)

    monkeypatch.setattr(resume, "PARALLEL_BYTES", 0)  # every log big enough for the worker
    monkeypatch.setattr(resume, "can_fork", lambda: True)  # whatever the machine's cores
    monkeypatch.setattr(resume, "Forked", Spied)
    key = [load_public_key(floor_copy.public_key)]
    export_logs([floor_copy.logs["ocp-1"]], tmp_path / "ds", key)
    assert len(workers) == 1
    read = [0]
    [done] = export_logs([floor_copy.logs["ocp-1"]], tmp_path / "ds", key,
                         progress=lambda lines, _bytes: read.__setitem__(0, read[0] + lines))
    assert done.refused is None and done.note is None and read[0] == 0


def test_marks_not_asked_for_leave_no_worker_behind(floor_copy: Floor, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(resume, "PARALLEL_BYTES", 0)
    monkeypatch.setattr(resume, "can_fork", lambda: True)
    with pytest.raises(RuntimeError), resume.Marking(sorted(floor_copy.logs["ocp-1"].glob("*.jsonl"))):
        assert multiprocessing.active_children()
        raise RuntimeError("the export stopped")
    assert not multiprocessing.active_children()


def test_a_state_file_changed_by_hand_makes_the_export_read_the_whole_log_again_with_the_same_rows(
        floor_copy: Floor, tmp_path: Path, tablectl: Tablectl) -> None:
    dataset = tmp_path / "ds"
    _grown(floor_copy, "tcp-1", dataset)
    state = resume.state_path(dataset, "tcp-1")
    state.write_bytes(state.read_bytes().replace(b'"seq":', b'"seq": ', 1))
    done = tablectl("export", floor_copy.logs["tcp-1"], "--to", dataset, "--key", floor_copy.public_key)
    assert done.code == 0
    assert done.err == f"tablectl: tcp-1: {state}: not the state its manifest recorded: {AGAIN}\n"
    _same_rows_as_fresh(floor_copy, "tcp-1", dataset, tmp_path / "fresh", tablectl)


def test_a_forged_state_bound_to_the_manifest_writes_nothing_outside_the_dataset(
        floor_copy: Floor, tmp_path: Path, tablectl: Tablectl) -> None:
    dataset = tmp_path / "ds"
    _grown(floor_copy, "tcp-1", dataset)
    state = resume.state_path(dataset, "tcp-1")
    carry = orjson.loads(state.read_bytes())
    values = [None] * 24
    values[0] = "tcp-1"
    carry["rows"].append(["rounds", "../../../../escaped", values])
    forged = orjson.dumps(carry)
    state.write_bytes(forged)
    manifest_file = dataset / "_manifests" / "tcp-1.json"
    manifest = orjson.loads(manifest_file.read_bytes())
    manifest["resume"]["state"] = resume._blake(forged).hexdigest()  # the attacker rebinds it
    manifest_file.write_bytes(orjson.dumps(manifest))
    done = tablectl("export", floor_copy.logs["tcp-1"], "--to", dataset, "--key", floor_copy.public_key)
    assert done.code == 0
    assert done.err.count("\n") == 1 and "not a row of the table" in done.err and AGAIN in done.err
    assert not list(tmp_path.rglob("*escaped*"))
    _same_rows_as_fresh(floor_copy, "tcp-1", dataset, tmp_path / "fresh", tablectl)


def test_a_state_that_would_introduce_a_key_is_not_restored(floor_copy: Floor, tmp_path: Path) -> None:
    dataset = tmp_path / "ds"
    _grown(floor_copy, "tcp-1", dataset)
    state = resume.state_path(dataset, "tcp-1")
    carry = msgspec.json.decode(state.read_bytes())
    carry["review"]["keys"]["introduced"] = {"0123456789abcdef": ["00" * 32, 1, "x"]}
    forged = msgspec.json.encode(carry)
    state.write_bytes(forged)
    manifest = dataset / "_manifests" / "tcp-1.json"
    data = orjson.loads(manifest.read_bytes())
    data["resume"]["state"] = resume._blake(forged).hexdigest()
    manifest.write_bytes(orjson.dumps(data))
    [done] = export_logs([floor_copy.logs["tcp-1"]], dataset, [load_public_key(floor_copy.public_key)])
    assert done.refused is None and done.note is not None
    assert "key rotation in the part exported" in done.note and AGAIN in done.note


def test_a_log_file_that_grew_after_its_export_is_read_again_from_its_first_line(floor_copy: Floor,
                                                                                tmp_path: Path) -> None:
    dataset = tmp_path / "ds"
    _grown(floor_copy, "tcp-1", dataset)
    exported = sorted(floor_copy.logs["tcp-1"].glob("*.jsonl"))[0]
    size = exported.stat().st_size
    with open(exported, "ab") as f:
        f.write(b"\n")
    [done] = export_logs([floor_copy.logs["tcp-1"]], dataset, [load_public_key(floor_copy.public_key)])
    assert done.note == f"{exported}: {size + 1} bytes, {size} when it was exported: {AGAIN}"
    assert done.refused is not None and str(exported) in done.refused  # the blank line: an integrity failure


def _older_format(exported: Path, copy: Path) -> Path:
    """A copy of *exported* as an older tablectl wrote it: no ``format``, rounds without theo_win,
    no digests of the files."""
    import shutil

    shutil.copytree(exported, copy)
    for part in (copy / "rounds").rglob("*.parquet"):
        table = pq.read_table(part, partitioning=None)
        pq.write_table(table.drop_columns(["theo_win"]), part)
    for manifest in (copy / "_manifests").glob("*.json"):
        if manifest.name.startswith("_"):  # the dataset's own files (its rules, its math), not a table's manifest
            continue
        data = orjson.loads(manifest.read_bytes())
        if isinstance(data, dict) and "format" in data:
            del data["format"]
            data.pop("open_digests", None)
            for export in data["exports"]:
                export.pop("digests", None)
            manifest.write_bytes(orjson.dumps(data))
    return copy


def test_query_refuses_a_dataset_of_an_older_format_saying_to_re_export(exported: Path, tmp_path: Path,
                                                                       tablectl: Tablectl) -> None:
    old = _older_format(exported, tmp_path / "old")
    done = tablectl("query", old, "SELECT count(*) AS n FROM rounds")
    assert done.code == 2 and done.out == "" and done.err.count("\n") == 1
    assert f"tablectl: {old}: written by an older tablectl" in done.err and "rounds lacks theo_win" in done.err
    assert "re-export" in done.err


def test_floor_refuses_a_dataset_of_an_older_format_saying_to_re_export(exported: Path, tmp_path: Path,
                                                                       tablectl: Tablectl) -> None:
    old = _older_format(exported, tmp_path / "old")
    done = tablectl("floor", old)
    assert done.code == 2 and done.err.count("\n") == 1
    assert f"{old}: written by an older tablectl" in done.err and "re-export" in done.err


def test_two_re_exports_each_after_a_shift_hold_the_rows_of_a_fresh_export(floor_copy: Floor, tmp_path: Path,
                                                                           tablectl: Tablectl) -> None:
    dataset = tmp_path / "ds"
    _grown(floor_copy, "ocp-1", dataset)
    log, key = floor_copy.logs["ocp-1"], floor_copy.public_key
    first = tablectl("export", log, "--to", dataset, "--key", key)
    play_shift(floor_copy, "ocp-1", 2, "D-98", 5, seed=78, hour=3.0)
    second = tablectl("export", log, "--to", dataset, "--key", key)
    assert first.code == second.code == 0 and first.err == second.err == ""
    _same_rows_as_fresh(floor_copy, "ocp-1", dataset, tmp_path / "fresh", tablectl)


def test_a_log_file_changed_in_place_after_its_export_is_found_by_its_mark(floor_copy: Floor, tmp_path: Path) -> None:
    dataset = tmp_path / "ds"
    _grown(floor_copy, "tcp-1", dataset)
    exported = sorted(floor_copy.logs["tcp-1"].glob("*.jsonl"))[0]
    data = bytearray(exported.read_bytes())
    at = data.index(b'"seat":', len(data) // 2) + len(b'"seat":')  # a seat number in a line half way through
    data[at] = ord("9") if data[at] != ord("9") else ord("8")
    exported.write_bytes(bytes(data))  # as long as it was
    [done] = export_logs([floor_copy.logs["tcp-1"]], dataset, [load_public_key(floor_copy.public_key)])
    assert done.note == f"{exported}: changed since it was exported: {AGAIN}"
    assert done.refused is not None and str(exported) in done.refused  # the line changed: an integrity failure


def test_a_dataset_whose_files_an_older_tablectl_marked_is_read_whole_again_with_the_same_rows(
        floor_copy: Floor, tmp_path: Path, tablectl: Tablectl) -> None:
    dataset = tmp_path / "ds"
    _grown(floor_copy, "tcp-1", dataset)
    manifest = dataset / "_manifests" / "tcp-1.json"
    data = orjson.loads(manifest.read_bytes())
    data["resume"]["format"] = 1  # its files marked with BLAKE2b
    manifest.write_bytes(orjson.dumps(data))
    done = tablectl("export", floor_copy.logs["tcp-1"], "--to", dataset, "--key", floor_copy.public_key)
    assert done.code == 0
    assert done.err == (f"tablectl: tcp-1: its manifest's resume record is of format 1, this tablectl reads "
                        f"{resume.FORMAT}: {AGAIN}\n")
    _same_rows_as_fresh(floor_copy, "tcp-1", dataset, tmp_path / "fresh", tablectl)
