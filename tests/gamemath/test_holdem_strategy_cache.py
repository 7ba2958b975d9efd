"""Texas Hold'em Bonus's main game cache is whole or absent: a solve stopped while it writes its
files (a Ctrl-C, a SIGTERM: ``SystemExit``) leaves nothing half written, and the next run solves
again and writes both files whole. The solve itself is stood in for by its stored result."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tablectl.gamemath.holdem import strategy

STORED = Path(__file__).parents[1] / "export" / "data" / "thb-main.json"  # the main game's stored analysis
REPORTS = [strategy._from_dict(d) for d in json.loads(STORED.read_text(encoding="utf-8"))]
ARRAYS = {"hands": np.array(["AA", "72o"]), "straight_play": np.array([True, False])}


@pytest.fixture
def solves(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The solve stood in for: its stored reports at once; the list counts the solves."""
    count: list[int] = []

    def run(with_table: bool = False, progress: Any = None) -> tuple[list[Any], dict[str, np.ndarray], None]:
        count.append(1)
        return REPORTS, ARRAYS, None

    monkeypatch.setattr(strategy, "_run", run)
    return count


def test_a_solve_stopped_while_writing_its_decisions_leaves_no_cache_file(
        solves: list[int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def stopped(file: Any, **arrays: np.ndarray) -> None:
        file.write(b"PK\x03\x04 half a zip")
        raise SystemExit(130)

    monkeypatch.setattr(np, "savez_compressed", stopped)
    with pytest.raises(SystemExit):
        strategy.analyse(tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_a_solve_stopped_before_its_analysis_is_written_is_solved_again(
        solves: list[int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def stopped(*args: Any, **kwargs: Any) -> None:
        raise SystemExit(130)

    with monkeypatch.context() as patch:
        patch.setattr(strategy, "atomic_write", stopped)
        with pytest.raises(SystemExit):
            strategy.analyse(tmp_path)
    assert [p.suffix for p in tmp_path.iterdir()] == [".npz"]  # whole: the analysis is written last
    assert strategy.cached(tmp_path) is None and strategy.will_solve(tmp_path)
    strategy.analyse(tmp_path)
    assert len(solves) == 2


def test_the_run_after_a_stopped_one_writes_both_files_whole_and_the_next_reads_them(
        solves: list[int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as patch:
        patch.setattr(np, "savez_compressed", lambda *a, **k: (_ for _ in ()).throw(SystemExit(130)))
        with pytest.raises(SystemExit):
            strategy.analyse(tmp_path)
    assert strategy.analyse(tmp_path) == REPORTS
    assert strategy.analyse(tmp_path, strategy_file=tmp_path / "decisions.npz") == REPORTS
    assert len(solves) == 2  # the stopped run and the one after; the third read the cache
    with np.load(tmp_path / "decisions.npz") as stored:
        assert stored["hands"].tolist() == ["AA", "72o"]
    assert sorted(p.suffix for p in tmp_path.iterdir() if p.name.startswith("thb-main")) == [".json", ".npz"]


def test_a_cache_file_written_again_is_read_again(solves: list[int], tmp_path: Path) -> None:
    strategy.analyse(tmp_path)
    assert strategy.cached(tmp_path) == REPORTS
    stored = next(tmp_path.glob("*.json"))
    stored.write_text(json.dumps([]), encoding="utf-8")

    assert strategy.cached(tmp_path) == []


def test_a_fifo_in_place_of_the_cache_file_is_not_read(solves: list[int], tmp_path: Path) -> None:
    strategy.analyse(tmp_path)
    stored = next(tmp_path.glob("*.json"))
    stored.unlink()
    os.mkfifo(stored)

    assert strategy.cached(tmp_path) is None  # at once: nothing opened the FIFO
