"""An export writes its rows as they come, a chunk at a time per dataset and day, into hidden files
that only its commit puts in place: the dataset is the same however small the chunks, and an
export refused after it wrote rows leaves none of them."""

from __future__ import annotations

from pathlib import Path

import pyarrow.dataset as pads
import pytest
from floorgen import Floor, play_shift

from tablectl.analytics.dataset import store as ds
from tablectl.analytics.dataset.schemas import DATASETS
from tablectl.analytics.export.logs import export_logs
from tablectl.eventlog.keys import load_public_key


def _rows(dataset: Path) -> dict[str, list[dict]]:
    out = {}
    for name in DATASETS:
        if (dataset / name).exists():
            table = pads.dataset(dataset / name, format="parquet", partitioning="hive").to_table().to_pylist()
            out[name] = sorted(table, key=repr)
    return out


def test_the_dataset_is_the_same_however_small_the_chunks(small_floor: Floor, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    key = load_public_key(small_floor.public_key)
    whole = export_logs([small_floor.logs["tcp-1"]], tmp_path / "whole", [key])
    monkeypatch.setattr(ds.PartWriter, "CHUNK", 3)
    monkeypatch.setattr(ds.PartWriter, "BATCH", 2)  # a row group of two batches
    chunked = export_logs([small_floor.logs["tcp-1"]], tmp_path / "chunked", [key])
    assert [r.rows for r in chunked] == [r.rows for r in whole] and whole[0].rows["cards"] > 3
    assert _rows(tmp_path / "chunked") == _rows(tmp_path / "whole")


def test_an_export_refused_after_it_wrote_rows_leaves_none_of_them(floor_copy: Floor, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ds.PartWriter, "CHUNK", 3)  # rows go to disk as they are made
    monkeypatch.setattr(ds.PartWriter, "BATCH", 2)
    key = load_public_key(floor_copy.public_key)
    dataset, log = tmp_path / "ds", floor_copy.logs["thb-1"]
    for f in sorted(log.glob("*.jsonl")):  # the first shift only
        if b'"ts":"2026-11-02' not in f.read_bytes()[:200]:
            f.unlink()
    assert export_logs([log], dataset, [key])[0].refused is None
    other = tmp_path / "other"  # another log of a table of that name, signed with the same key, longer
    play_shift(Floor(tmp_path, floor_copy.public_key, {"thb-1": other}), "thb-1", 0, "D-98", 40, seed=1)
    before = sorted(dataset.rglob("*"))
    [refused] = export_logs([other], dataset, [key])
    assert refused.refused is not None and "differs from the one exported" in refused.refused
    assert sorted(dataset.rglob("*")) == before
