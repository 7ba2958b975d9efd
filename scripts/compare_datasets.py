"""Compare two exported datasets row by row, every Parquet column of every dataset (rounds, cards,
bets, decisions, sightings, ...): the check that a change to the export's math changed no value.

    python scripts/compare_datasets.py REFERENCE CANDIDATE

Each dataset folder's Parquet files are read with pyarrow in path order; the rows are compared in
that order, column by column, floats by their bits (NaN equal to NaN). Prints per dataset the rows
and columns compared; exits 1 naming the first difference (dataset, column, row), 0 when none.
"""

from __future__ import annotations

import math
import struct
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq


def _files(root: Path, name: str) -> list[Path]:
    return sorted(p.relative_to(root) for p in (root / name).rglob("*.parquet"))


def _bits(value: Any) -> Any:
    """A value as compared: floats by their bits, inside lists too."""
    if isinstance(value, float):
        return ("nan",) if math.isnan(value) else struct.pack("<d", value)
    if isinstance(value, list):
        return [_bits(v) for v in value]
    if isinstance(value, dict):
        return {k: _bits(v) for k, v in value.items()}
    return value


def compare(reference: Path, candidate: Path, log: Callable[[str], None] | None = print) -> list[str]:
    """Every difference between the two datasets, as one line each (empty: identical); ``log``
    is told the rows and columns compared per dataset."""
    problems: list[str] = []
    names = sorted({p.name for p in reference.iterdir() if p.is_dir() and not p.name.startswith("_")}
                   | {p.name for p in candidate.iterdir() if p.is_dir() and not p.name.startswith("_")})
    for name in names:
        ref_files, cand_files = _files(reference, name), _files(candidate, name)
        if ref_files != cand_files:
            problems.append(f"{name}: files differ: {ref_files} vs {cand_files}")
            continue
        rows = 0
        columns: set[str] = set()
        for rel in ref_files:
            a, b = pq.read_table(reference / rel), pq.read_table(candidate / rel)
            if a.schema != b.schema:
                problems.append(f"{name}/{rel}: schemas differ")
                continue
            for column in a.column_names:
                columns.add(column)
                left, right = a.column(column).to_pylist(), b.column(column).to_pylist()
                if len(left) != len(right):
                    problems.append(f"{name}/{rel}: {column}: {len(left)} rows vs {len(right)}")
                    continue
                for i, (x, y) in enumerate(zip(left, right)):
                    if _bits(x) != _bits(y):
                        problems.append(f"{name}/{rel}: column {column!r} row {i}: {x!r} vs {y!r}")
                        break
            rows += a.num_rows
        if log is not None:
            log(f"{name}: {rows} rows x {len(columns)} columns compared")
    return problems


def main() -> int:
    if len(sys.argv) != 3:
        print("usage: compare_datasets.py REFERENCE CANDIDATE", file=sys.stderr)
        return 2
    reference, candidate = Path(sys.argv[1]), Path(sys.argv[2])
    for p in (reference, candidate):
        if not p.is_dir():
            print(f"compare_datasets: {p}: not a dataset directory", file=sys.stderr)
            return 2
    problems = compare(reference, candidate)
    for line in problems[:20]:
        print(line)
    print("identical" if not problems else f"{len(problems)} difference(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
