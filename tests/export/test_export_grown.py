"""Exporting a log again after it grew: the dataset then holds exactly the rows a fresh export of
the whole log gives (compared in DuckDB, duplicates counted), and a log edited in the part already
exported is refused, whatever was added after it."""

from __future__ import annotations

from pathlib import Path

from exporthelpers import Tablectl, dataset_difference
from floorgen import Floor, play_shift

from tablectl.analytics.dataset.schemas import DATASETS


def test_a_re_export_after_the_log_grew_holds_the_rows_of_a_fresh_export(floor_copy: Floor, tmp_path: Path,
                                                                           tablectl: Tablectl) -> None:
    log, key = floor_copy.logs["tcp-1"], floor_copy.public_key
    dataset, fresh = tmp_path / "ds", tmp_path / "fresh"
    assert tablectl("export", log, "--to", dataset, "--key", key).code == 0
    play_shift(floor_copy, "tcp-1", 2, "D-99", 6, seed=77)
    done = tablectl("export", log, "--to", dataset, "--key", key)
    assert done.code == 0, done.err
    assert "reviewing the whole log again" not in done.err  # went on from the saved state
    assert tablectl("export", log, "--to", fresh, "--key", key).code == 0
    differences = {name: dataset_difference(dataset, fresh, name) for name in DATASETS}
    assert {name: d[:2] for name, d in differences.items()} == dict.fromkeys(DATASETS, (0, 0))
    assert differences["rounds"][2] > 6 and differences["cards"][2] > 0


def test_an_edit_in_the_part_already_exported_is_refused_after_the_log_grew(floor_copy: Floor, tmp_path: Path,
                                                                            tablectl: Tablectl) -> None:
    log, key = floor_copy.logs["tcp-1"], floor_copy.public_key
    dataset = tmp_path / "ds"
    assert tablectl("export", log, "--to", dataset, "--key", key).code == 0
    play_shift(floor_copy, "tcp-1", 2, "D-99", 6, seed=77)
    exported = sorted(log.glob("*.jsonl"))[1]  # a file the first export read, not the last
    lines = exported.read_bytes().split(b"\n")
    n = next(i for i, line in enumerate(lines) if b'"event":"settled"' in line)
    lines[n] = lines[n].replace(b'"stake":', b'"stake":1', 1)  # a bet ten times or more what it was
    exported.write_bytes(b"\n".join(lines))
    before = sorted(p.relative_to(dataset) for p in dataset.rglob("*"))
    done = tablectl("export", log, "--to", dataset, "--key", key)
    assert done.code == 3
    assert f"{exported}:{n + 1}:" in done.err and "tcp-1: refused" in done.err
    assert sorted(p.relative_to(dataset) for p in dataset.rglob("*")) == before
