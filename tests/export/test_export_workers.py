"""``tablectl export --workers N``: the tables of one export in N processes at once give the
dataset exported one table at a time, with one progress count over every table, and a failure in
one table stops no table already started."""

from __future__ import annotations

import errno
import os
import re
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from exporthelpers import run_tablectl
from floorgen import Floor

from tablectl.analytics.dataset.store import Manifest, load_rules
from tablectl.analytics.export import logs as ex
from tablectl.analytics.export import table as one_table
from tablectl.analytics.export import workers as export_workers
from tablectl.eventlog.keys import load_public_key
from tablectl.review import engine

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "compare_datasets.py"


@pytest.fixture
def in_workers(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The library's exports go to the workers whatever the machine's cores (a one-core machine
    would export one table at a time); each call's number of tables is recorded."""
    real = export_workers.export_in_workers
    calls: list[int] = []

    def spy(jobs: list[export_workers.Job], *args: object, **kwargs: object) -> list[ex.TableExport]:
        calls.append(len(jobs))
        return real(jobs, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ex, "can_fork", lambda: True)
    monkeypatch.setattr(ex, "export_in_workers", spy)
    return calls


def _summary(stdout: str) -> list[str]:
    """The export's lines per table, without the seconds each took."""
    return sorted(re.sub(r" \([0-9.]+ s\)$", "", line) for line in stdout.splitlines())


def test_tables_exported_at_once_give_the_dataset_exported_one_at_a_time(small_floor: Floor, tmp_path: Path) -> None:
    logs = list(small_floor.logs.values())
    alone = run_tablectl("export", *logs, "--to", tmp_path / "alone", "--key", small_floor.public_key, "--workers", "1")
    together = run_tablectl("export", *logs, "--to", tmp_path / "together", "--key", small_floor.public_key,
                            "--workers", "3")
    assert alone.code == together.code == 0, together.err
    assert _summary(together.out) == _summary(alone.out) and len(together.out.splitlines()) == len(logs)
    same = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path / "alone"), str(tmp_path / "together")],
                          capture_output=True, text=True)
    assert same.returncode == 0 and "identical" in same.stdout, same.stdout
    assert load_rules(tmp_path / "together") == load_rules(tmp_path / "alone")  # every table's rules registered
    for table in small_floor.logs:
        a, b = Manifest.load(tmp_path / "alone", table), Manifest.load(tmp_path / "together", table)
        assert (b.through_seq, b.chain_head, b.exports[0].rows) == (a.through_seq, a.chain_head, a.exports[0].rows)


def test_one_progress_count_covers_every_table_exported_at_once(small_floor: Floor, tmp_path: Path,
                                                               in_workers: list[int]) -> None:
    keys = [load_public_key(small_floor.public_key)]
    counts: list[tuple[int, int]] = []
    ex.export_logs(small_floor.logs.values(), tmp_path / "ds", keys, workers=2,
                   progress=lambda lines, size: counts.append((lines, size)))
    files = [f for log in small_floor.logs.values() for f in log.glob("*.jsonl")]
    lines = sum(f.read_bytes().count(b"\n") for f in files)
    assert sum(n for n, _ in counts) == lines
    assert sum(b for _, b in counts) == sum(f.stat().st_size for f in files)
    assert in_workers == [len(small_floor.logs)]


def test_a_table_that_fails_in_its_worker_is_raised_and_the_tables_started_are_exported(
        small_floor: Floor, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, in_workers: list[int]) -> None:
    # the two longest logs start first (the longest fails at once), the others wait for them
    size = {t: sum(f.stat().st_size for f in log.glob("*.jsonl")) for t, log in small_floor.logs.items()}
    tables = sorted(size, key=lambda t: -size[t])
    failing = tables[0]
    real = one_table._export

    def disk_full_for_one(table: str, *args: object, **kwargs: object) -> ex.TableExport:
        if table == failing:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), "ds")
        return real(table, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(one_table, "_export", disk_full_for_one)  # the workers are forked: they have it too
    dataset = tmp_path / "ds"
    with pytest.raises(OSError) as raised:
        ex.export_logs(small_floor.logs.values(), dataset, [load_public_key(small_floor.public_key)], workers=2)
    assert raised.value.errno == errno.ENOSPC
    # the other table started with it went on to the end; no table was started after the failure
    exported = {p.stem for p in (dataset / "_manifests").glob("*.json") if not p.name.startswith("_")}
    assert exported == {tables[1]}
    assert orjson.loads((dataset / "_manifests" / f"{tables[1]}.json").read_bytes())["through_seq"] > 0


def test_tables_exported_at_once_whose_logs_are_long_enough_for_a_verify_worker_are_exported(
        small_floor: Floor, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, in_workers: list[int]) -> None:
    # a long log's review verifies it in a worker process of its own; an export worker cannot fork
    # one (a daemonic process has no children): its review verifies the log itself
    monkeypatch.setattr(engine, "PARALLEL_BYTES", 0)
    keys = [load_public_key(small_floor.public_key)]
    together = ex.export_logs(small_floor.logs.values(), tmp_path / "together", keys, workers=2)
    alone = ex.export_logs(small_floor.logs.values(), tmp_path / "alone", keys, workers=1)
    assert [(r.table, r.refused, r.rows) for r in together] == [(r.table, r.refused, r.rows) for r in alone]
    assert all(r.refused is None and r.rows for r in together) and in_workers == [len(small_floor.logs)]
