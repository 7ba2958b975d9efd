"""``scripts/compare_datasets.py``: two exported datasets compared row by row, every Parquet column,
floats by their bits -- what tells that a change to the export's math changed no value."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "compare_datasets.py"


def dataset(root: Path, theo_var: list[float | None]) -> Path:
    part = root / "rounds" / "table=t-1" / "date=2026-11-26"
    part.mkdir(parents=True)
    pq.write_table(pa.table({"round": [1, 2, 3], "theo_var": theo_var}), part / "part-1.parquet")
    return root


def run(a: Path, b: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), str(a), str(b)], capture_output=True, text=True)


def test_datasets_with_the_same_values_are_reported_identical(tmp_path: Path) -> None:
    a = dataset(tmp_path / "a", [1.5, None, float("nan")])
    b = dataset(tmp_path / "b", [1.5, None, float("nan")])
    proc = run(a, b)
    assert proc.returncode == 0
    assert "rounds: 3 rows x 2 columns compared" in proc.stdout and "identical" in proc.stdout


def test_a_float_one_bit_apart_is_named_by_column_and_row(tmp_path: Path) -> None:
    a = dataset(tmp_path / "a", [1.5, None, 0.1 + 0.2])
    b = dataset(tmp_path / "b", [1.5, None, 0.3])
    proc = run(a, b)
    assert proc.returncode == 1
    assert "column 'theo_var' row 2: 0.30000000000000004 vs 0.3" in proc.stdout


def test_a_missing_dataset_directory_is_refused_naming_it(tmp_path: Path) -> None:
    proc = run(dataset(tmp_path / "a", [1.0, 2.0, 3.0]), tmp_path / "nowhere")
    assert proc.returncode == 2
    assert f"compare_datasets: {tmp_path / 'nowhere'}: not a dataset directory" in proc.stderr
