"""``tablectl export`` of a log folder whose name is not UTF-8 (``ocp\\xff``): the log is exported,
the manifest names the folder with the byte escaped (JSON holds no such name), every table of the
dataset stays readable, the next export goes on from where this one ended, and a refusal names
the file as every other message does."""

from __future__ import annotations

import os
from pathlib import Path

import orjson
import pytest
from exporthelpers import Tablectl
from floorgen import Floor, play_shift

from tablectl.analytics.export.logs import export_logs
from tablectl.eventlog.keys import load_public_key

ODD = os.fsdecode(b"ocp\xff")  # the folder's name as Python holds it (a surrogate escape)


@pytest.fixture
def odd_floor(floor_copy: Floor) -> Floor:
    """The floor's copy with ocp-1's log folder renamed ``ocp<FF>``."""
    folder = floor_copy.logs["ocp-1"].with_name(ODD)
    floor_copy.logs["ocp-1"].rename(folder)
    floor_copy.logs["ocp-1"] = folder
    return floor_copy


def test_a_log_folder_whose_name_is_not_utf8_is_exported_and_query_reads_every_table(
        odd_floor: Floor, tmp_path: Path, tablectl: Tablectl) -> None:
    dataset = tmp_path / "ds"
    assert tablectl("export", odd_floor.logs["tcp-1"], "--to", dataset, "--key", odd_floor.public_key).code == 0
    done = tablectl("export", odd_floor.logs["ocp-1"], "--to", dataset, "--key", odd_floor.public_key)
    assert (done.code, done.err) == (0, "")
    assert done.out.startswith("ocp-1: seq 1-")
    done = tablectl("query", dataset, "SELECT table_id FROM rounds GROUP BY ALL ORDER BY 1", "--csv")
    assert (done.code, done.out) == (0, "table_id\nocp-1\ntcp-1\n")


def test_the_manifest_names_the_folder_with_its_byte_escaped(odd_floor: Floor, tmp_path: Path) -> None:
    export_logs([odd_floor.logs["ocp-1"]], tmp_path / "ds", [load_public_key(odd_floor.public_key)])
    manifest = orjson.loads((tmp_path / "ds" / "_manifests" / "ocp-1.json").read_bytes())
    [files] = [e["files"] for e in manifest["exports"]]
    assert files and all(f.startswith(str(odd_floor.logs["ocp-1"].parent / "ocp\\xff") + "/") for f in files)


def test_a_log_that_grew_in_that_folder_is_exported_going_on_from_the_last_export(odd_floor: Floor,
                                                                                    tmp_path: Path) -> None:
    key = [load_public_key(odd_floor.public_key)]
    [first] = export_logs([odd_floor.logs["ocp-1"]], tmp_path / "ds", key)
    play_shift(odd_floor, "ocp-1", 2, "D-99", 4, seed=77)
    [again] = export_logs([odd_floor.logs["ocp-1"]], tmp_path / "ds", key)
    assert again.note is None and again.refused is None  # no "reviewing the whole log again"
    assert again.from_seq == first.to_seq + 1 and again.rows["rounds"] == 4


def test_a_refused_log_in_that_folder_is_named_with_its_byte_escaped(odd_floor: Floor, tmp_path: Path,
                                                                      tablectl: Tablectl) -> None:
    log = min(odd_floor.logs["ocp-1"].glob("*.jsonl"))
    log.write_bytes(log.read_bytes().replace(b'{"seq":5,', b'{"seq":5 ,', 1))
    done = tablectl("export", odd_floor.logs["ocp-1"], "--to", tmp_path / "ds", "--key", odd_floor.public_key)
    assert done.code == 3
    assert f"tablectl: ocp-1: refused, nothing exported: integrity failure: {log.parent.parent}/ocp\\xff/" \
           f"{log.name}:5: " in done.err


def test_an_export_into_a_dataset_folder_whose_name_is_not_utf8_is_refused_in_one_line_writing_nothing(
        floor_copy: Floor, tmp_path: Path, tablectl: Tablectl) -> None:
    dataset = tmp_path / os.fsdecode(b"ds\xfe")
    done = tablectl("export", floor_copy.logs["tcp-1"], "--to", dataset, "--key", floor_copy.public_key)
    assert (done.code, done.out, done.err.count("\n")) == (2, "", 1)
    assert "ds\\xfe: DuckDB reads only paths that are UTF-8" in done.err
    assert not dataset.exists()
