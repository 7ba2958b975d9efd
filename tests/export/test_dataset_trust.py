"""What the dataset can be trusted for: one export writes it at a time; readers read only the files
the manifests list, with the rows the manifests record; ``tablectl query`` reads and writes nothing
else; ``floor --z`` is a real number; a game math cache that cannot be written does not stop the
report; nothing written is group- or world-writable whatever the umask."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import select
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import orjson
import pyarrow.parquet as pq
import pytest
from exporthelpers import Tablectl, run_tablectl
from floorgen import Floor

from tablectl.analytics.dataset import queries
from tablectl.analytics.dataset import store as ds
from tablectl.analytics.export.logs import export_logs
from tablectl.analytics.floor.report import floor
from tablectl.eventlog.keys import load_public_key


def export_command(floor_: Floor, dataset: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "tablectl", "export", *map(str, floor_.logs.values()), "--to", str(dataset),
            "--key", str(floor_.public_key), *extra]


def counted(dataset: Path, sql: str) -> list[int]:
    done = run_tablectl("query", dataset, sql, "--csv")
    assert done.code == 0, done.err
    return [int(v) for v in done.out.split()[1].split(",")]


@pytest.fixture
def dataset(exported: Path, tmp_path: Path) -> Path:
    """A copy of the exported small floor that a test may change."""
    copy = tmp_path / "ds"
    shutil.copytree(exported, copy)
    return copy


def a_part(dataset: Path, name: str = "rounds", table: str = "tcp-1") -> Path:
    return sorted((dataset / name / f"table={table}").glob("date=*/part-*.parquet"))[0]


def reseal(dataset: Path, part: Path, table: str = "tcp-1") -> None:
    """As an insider who rewrites the manifest too: record *part*'s new SHA-256 (what is then
    checked is what the footer says)."""
    path = dataset / "_manifests" / f"{table}.json"
    manifest = orjson.loads(path.read_bytes())
    rel = part.relative_to(dataset).as_posix()
    for export in manifest["exports"]:
        if rel in export["digests"]:
            export["digests"][rel] = hashlib.sha256(part.read_bytes()).hexdigest()
    path.write_bytes(orjson.dumps(manifest))


# -- one writer ------------------------------------------------------------------------------------

def test_two_concurrent_exports_write_each_row_once_and_neither_fails(small_floor: Floor, tmp_path: Path) -> None:
    target = tmp_path / "ds"
    first = subprocess.Popen(export_command(small_floor, target), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    second = subprocess.Popen(export_command(small_floor, target), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    results = [(p.wait(300), *p.communicate()) for p in (first, second)]  # the second waits for the first
    assert [code for code, _, _ in results] == [0, 0], results
    assert sum("nothing new" in out for _, out, _ in results) == 1  # one did it all, the other found it done
    rows, distinct = counted(target, 'SELECT count(*) AS n, count(DISTINCT ("table", round_id)) AS d FROM rounds')
    assert rows == distinct == small_floor.rounds
    cards = counted(target, 'SELECT count(*) - count(DISTINCT ("table", seq)) AS dup FROM cards')
    assert cards == [0]


def test_an_export_waits_for_the_one_holding_the_dataset_and_says_so(small_floor: Floor, tmp_path: Path) -> None:
    target = tmp_path / "ds"
    with ds.exclusive(target):
        proc = subprocess.Popen(export_command(small_floor, target, "--wait", "60"), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        assert select.select([proc.stderr], [], [], 120)[0], "the export neither waited nor said so"
        waiting = proc.stderr.readline()
        assert f"another export (pid {os.getpid()}) is writing the dataset" in waiting
        assert proc.poll() is None and not (target / "rounds").exists()  # waiting, not exporting
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0 and err == "", err
    assert counted(target, "SELECT count(*) AS n FROM rounds") == [small_floor.rounds]


def test_an_export_that_cannot_get_the_dataset_in_time_is_refused_with_exit_5(small_floor: Floor,
                                                                              tmp_path: Path) -> None:
    target = tmp_path / "ds"
    with ds.exclusive(target):
        done = run_tablectl("export", small_floor.logs["tcp-1"], "--to", target, "--key", small_floor.public_key,
                            "--wait", "0.5")
    assert done.code == 5
    lines = done.err.splitlines()
    assert len(lines) == 2 and "waiting up to 0.5 s" in lines[0]
    assert lines[1].startswith(f"tablectl: {target}: another export (pid {os.getpid()}) held the dataset for 0.5 s")
    assert not (target / "rounds").exists() and not (target / "_manifests" / "tcp-1.json").exists()


# -- readers read what the manifests list ----------------------------------------------------------

def test_the_manifest_lists_each_file_of_an_export_with_its_rows(exported: Path) -> None:
    manifest = orjson.loads((exported / "_manifests" / "tcp-1.json").read_bytes())
    (export,) = manifest["exports"]
    on_disk = {p.relative_to(exported).as_posix(): pq.read_metadata(p).num_rows
               for p in exported.glob("*/table=tcp-1/date=*/*.parquet")}
    assert {**export["parts"], **manifest["open_parts"]} == on_disk  # open rows: listed apart, replaced next time
    assert sum(n for rel, n in on_disk.items() if rel.startswith("rounds/")) == export["rows"]["rounds"]


@pytest.mark.parametrize("command", ["query", "floor"])
def test_a_copied_file_is_an_integrity_failure_naming_it(dataset: Path, command: str) -> None:
    part = a_part(dataset)
    copy = part.with_name(part.name.replace(".parquet", "-copy.parquet"))
    shutil.copy(part, copy)
    done = run_tablectl(command, dataset, *(["SELECT count(*) FROM rounds"] if command == "query" else []))
    assert done.code == 3 and done.out == ""
    assert done.err == (f"tablectl: integrity failure: {copy}: in the dataset but listed by no manifest "
                        f"(a copy? move it out of {dataset}): nothing read\n")


def test_a_file_copied_into_another_day_is_an_integrity_failure(dataset: Path) -> None:
    part = a_part(dataset)
    other = dataset / "rounds" / "table=tcp-1" / "date=2026-11-09" / part.name
    other.parent.mkdir()
    shutil.copy(part, other)
    done = run_tablectl("floor", dataset)
    assert done.code == 3 and done.err.count("\n") == 1
    assert f"{other}: in the dataset but listed by no manifest" in done.err


def test_a_listed_file_whose_rows_differ_from_the_manifest_is_an_integrity_failure(dataset: Path) -> None:
    part = a_part(dataset)
    table = pq.read_table(part)
    pq.write_table(table.slice(0, table.num_rows - 1), part)  # one round taken out, same name
    reseal(dataset, part)
    through = orjson.loads((dataset / "_manifests" / "tcp-1.json").read_bytes())["through_seq"]
    done = run_tablectl("query", dataset, "SELECT count(*) FROM rounds")
    assert done.code == 3
    assert done.err == (f"tablectl: integrity failure: {part}: holds {table.num_rows - 1} rows, its export "
                        f"(_manifests/tcp-1.json, seq 1-{through}) wrote {table.num_rows}\n")


def test_a_listed_file_rewritten_without_a_column_is_an_integrity_failure(dataset: Path) -> None:
    part = a_part(dataset)
    pq.write_table(pq.read_table(part).drop_columns(["win"]), part)  # same rows, the house's result gone
    reseal(dataset, part)
    done = run_tablectl("floor", dataset)
    assert done.code == 3 and done.out == ""
    assert done.err == (f"tablectl: integrity failure: {part}: lacks the column(s) win its export "
                        "(dataset format 2) writes: nothing read\n")


def test_a_listed_file_that_is_missing_is_an_integrity_failure(dataset: Path) -> None:
    part = a_part(dataset, "bets")
    part.unlink()
    done = run_tablectl("floor", dataset)
    assert done.code == 3 and done.err.count("\n") == 1 and f"{part}: listed by _manifests/tcp-1.json" in done.err
    assert "but missing" in done.err


def test_a_manifest_from_before_files_were_listed_is_read_and_its_rows_checked(dataset: Path) -> None:
    for path in (dataset / "_manifests").glob("[!_]*.json"):
        manifest = orjson.loads(path.read_bytes())
        for export in manifest["exports"]:
            del export["parts"], export["digests"]
        path.write_bytes(orjson.dumps(manifest))
    before = counted(dataset, "SELECT count(*) AS n FROM rounds")
    part = a_part(dataset)
    other = dataset / "rounds" / "table=tcp-1" / "date=2026-11-09" / part.name
    other.parent.mkdir()
    shutil.copy(part, other)
    done = run_tablectl("query", dataset, "SELECT count(*) FROM rounds")
    assert before == [200] and done.code == 3 and done.err.count("\n") == 1
    assert "the rounds files of _manifests/tcp-1.json" in done.err and "the export wrote 40" in done.err


# -- query is read-only ----------------------------------------------------------------------------

ATTACKS = {
    "copy": "COPY (SELECT * FROM rounds) TO '{out}'",
    "copy_over_a_listed_file": "COPY (SELECT 1 AS a) TO '{part}' (FORMAT parquet)",
    "attach": "ATTACH '{out}' AS other",
    "install": "INSTALL httpfs",
    "load": "LOAD httpfs",
    "create": "CREATE TABLE stolen AS SELECT * FROM rounds",
    "read_text": "SELECT * FROM read_text('/etc/passwd')",
    "read_csv": "SELECT * FROM read_csv('/etc/passwd')",
    "read_an_unlisted_parquet": "SELECT * FROM read_parquet('{outside}')",
    "glob": "SELECT * FROM glob('/etc/*')",
    "set": "SET enable_external_access = true",
    "pragma": "PRAGMA enable_profiling",
    "two_statements": "SELECT 1; CREATE TABLE t (a INT)",
}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_query_refuses_what_is_not_reading_the_dataset(attack: str, exported: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.parquet"
    shutil.copy(a_part(exported), outside)
    data = [*exported.rglob("*.parquet"), *(exported / "_manifests").glob("[!_]*.json")]
    before = {p: p.stat().st_mtime_ns for p in data}
    sql = ATTACKS[attack].format(out=tmp_path / "out.db", part=a_part(exported), outside=outside)
    done = run_tablectl("query", exported, sql)
    assert done.code == 2 and done.err.startswith("tablectl: query: ") and done.err.count("\n") == 1, done.err
    assert not (tmp_path / "out.db").exists()
    assert {p: p.stat().st_mtime_ns for p in data} == before
    assert not [p for p in exported.rglob("*") if p.name.startswith("stolen") or p.suffix == ".db"]


def test_every_named_query_runs_on_the_read_only_dataset(exported: Path, tablectl: Tablectl) -> None:
    names = [line.split()[0] for line in tablectl("query", exported, "--list").out.splitlines()]
    assert len(names) >= 7
    for name in names:
        done = tablectl("query", exported, name, "--json")
        assert done.code == 0, (name, done.err)
        assert isinstance(orjson.loads(done.out), list)


def test_the_connection_cannot_be_reopened_to_files_by_sql(exported: Path) -> None:
    import duckdb

    con = queries.connect(exported)
    assert con.execute("SELECT current_setting('enable_external_access'), current_setting('lock_configuration')"
                       ).fetchone() == (False, True)
    with pytest.raises(duckdb.Error, match="locked"):
        con.execute("SET enable_external_access = true")


# -- floor options and storage ---------------------------------------------------------------------

@pytest.mark.parametrize("z", ["nan", "inf", "-inf", "0", "-1"])
def test_floor_refuses_a_z_that_is_not_a_positive_finite_number(z: str, exported: Path) -> None:
    done = run_tablectl("floor", exported, "--z", z)
    assert done.code == 2 and "--z" in done.err and done.out == ""


def test_a_math_cache_that_cannot_be_written_is_a_warning_and_the_report_is_made(
        dataset: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (dataset / "_manifests" / queries.MATH_CACHE).unlink(missing_ok=True)

    def full(fd: int) -> None:  # the data reach the disk at fsync: there the disk is full
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    warnings: list[str] = []
    report = floor(dataset, warn=warnings.append)
    monkeypatch.undo()
    assert report.tables.rows and report.math.rows
    assert len(warnings) == 1 and "cannot cache the game math (No space left on device)" in warnings[0]
    assert not list((dataset / "_manifests").glob(".*.tmp"))  # the half-written cache is removed


@contextlib.contextmanager
def tiny_tmpfs(where: Path, size: str) -> Iterator[Path]:
    where.mkdir()
    try:
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                                 capture_output=True).returncode == 0
    except FileNotFoundError:
        mounted = False
    if not mounted:
        pytest.skip("cannot mount a tmpfs here (needs root)")
    try:
        yield where
    finally:
        subprocess.run(["umount", str(where)], check=False)


def test_floor_on_a_full_disk_warns_that_the_math_is_not_cached_and_prints_the_report(exported: Path,
                                                                                      tmp_path: Path) -> None:
    with tiny_tmpfs(tmp_path / "disk", "4m") as disk:
        target = disk / "ds"
        shutil.copytree(exported, target)
        (target / "_manifests" / queries.MATH_CACHE).unlink(missing_ok=True)
        with contextlib.suppress(OSError), open(disk / "filler", "wb") as f:
            while True:
                f.write(b"\0" * 4096)
                f.flush()
        done = run_tablectl("floor", target)
        assert done.code == 1 and "FLAGGED dealers" in done.out
        assert done.err.count("\n") == 1 and done.err.startswith("tablectl: warning: ")
        assert "cannot cache the game math (No space left on device)" in done.err


# -- modes -----------------------------------------------------------------------------------------

def test_nothing_the_export_writes_is_group_or_world_writable_under_umask_0(small_floor: Floor,
                                                                           tmp_path: Path) -> None:
    target = tmp_path / "new" / "ds"
    old = os.umask(0)
    try:
        export_logs([small_floor.logs["ocp-1"]], target, [load_public_key(small_floor.public_key)])
        floor(target)  # writes the game math cache
    finally:
        os.umask(old)
    written = [tmp_path / "new", target, *target.rglob("*")]
    assert any(p.name == queries.MATH_CACHE for p in written) and any(p.name == ds.LOCK for p in written)
    modes = {str(p): stat.S_IMODE(p.stat().st_mode) for p in written}
    assert {m for p, m in modes.items() if Path(p).is_dir()} == {0o755}
    assert {m for p, m in modes.items() if Path(p).is_file()} == {0o644}
