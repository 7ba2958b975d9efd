"""What ``tablectl query`` and ``tablectl floor`` refuse to read, in one line naming the file, and
what they warn about: a listed file whose content is not what its export wrote (its SHA-256 in
the manifest), a column of another type than its dataset's schema, something other than a regular
file where a listed file should be (a FIFO, a folder, a link), a table's files with no manifest,
and dealer ids that look alike by Unicode's confusables (UTS #39). One table played by two dealers
whose ids differ by a Cyrillic letter, exported once for the module and copied for each test that
changes it."""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import orjson
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from exporthelpers import Done, run_tablectl
from floorgen import new_floor, play_shift

TABLE = "ocp-7"
DEALER = "D-31"
LOOKALIKE = "D-\u04171"  # "D-З1": a Cyrillic Ze for the 3
SELECT = "SELECT count(*) AS n FROM rounds"


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One One Card Poker table, a shift a day of 4 rounds by each dealer, exported (read only)."""
    floor = new_floor(tmp_path_factory.mktemp("reading"))
    play_shift(floor, TABLE, 0, DEALER, 4, 11)
    play_shift(floor, TABLE, 1, LOOKALIKE, 4, 12)
    dataset = floor.root / "ds"
    done = run_tablectl("export", floor.logs[TABLE], "--to", dataset, "--key", floor.public_key)
    assert done.code == 0, done.err
    return dataset


@pytest.fixture
def dataset(exported: Path, tmp_path: Path) -> Path:
    """A copy of the export that a test may change."""
    return Path(shutil.copytree(exported, tmp_path / "ds", symlinks=True))


def rounds_file(dataset: Path) -> Path:
    return min((dataset / "rounds" / f"table={TABLE}").glob("date=*/part-*.parquet"))


def read(command: str, dataset: Path) -> Done:
    """``tablectl query DATASET SELECT`` or ``tablectl floor DATASET``; a hang fails the test."""
    return run_tablectl(command, dataset, *([SELECT] if command == "query" else []), timeout=60)


def refused(done: Done, path: Path, *words: str) -> None:
    """Exit 3, nothing printed, one line naming *path* and saying *words*."""
    assert done.code == 3 and done.out == "", (done.code, done.err)
    assert done.err.count("\n") == 1 and "Traceback" not in done.err, done.err
    assert done.err.startswith(f"tablectl: integrity failure: {path}: "), done.err
    assert all(w in done.err for w in words), done.err


def reseal(dataset: Path, path: Path) -> None:
    """As an insider who rewrites the manifest too: record *path*'s new SHA-256 wherever the
    manifest records one for it."""
    rel = path.relative_to(dataset).as_posix()
    manifest_path = dataset / "_manifests" / f"{TABLE}.json"
    manifest = orjson.loads(manifest_path.read_bytes())
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    for export in manifest["exports"]:
        if rel in (export.get("digests") or {}):
            export["digests"][rel] = digest
    if rel in (manifest.get("open_digests") or {}):
        manifest["open_digests"][rel] = digest
    manifest_path.write_bytes(orjson.dumps(manifest))


# -- content ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["query", "floor"])
def test_a_file_rewritten_with_the_same_rows_and_columns_is_refused_naming_it(dataset: Path, command: str) -> None:
    path = rounds_file(dataset)
    table = pq.read_table(path)
    forged = table.set_column(table.schema.get_field_index("dealer"), table.schema.field("dealer"),
                              pa.array(["FORGED"] * table.num_rows, pa.string()))
    pq.write_table(forged, path, compression="zstd")
    refused(read(command, dataset), path, "SHA-256")


def test_the_manifest_records_the_sha256_of_each_file_it_lists(exported: Path) -> None:
    manifest = orjson.loads((exported / "_manifests" / f"{TABLE}.json").read_bytes())
    recorded = {**manifest["exports"][0]["digests"], **manifest["open_digests"]}
    listed = {**manifest["exports"][0]["parts"], **manifest["open_parts"]}
    assert recorded.keys() == listed.keys()
    assert all(hashlib.sha256((exported / rel).read_bytes()).hexdigest() == d for rel, d in recorded.items())


def test_a_manifest_without_digests_is_read_with_one_warning_that_its_bytes_are_not_checked(dataset: Path) -> None:
    path = dataset / "_manifests" / f"{TABLE}.json"
    manifest = orjson.loads(path.read_bytes())
    for export in manifest["exports"]:
        del export["digests"]
    del manifest["open_digests"]
    path.write_bytes(orjson.dumps(manifest))  # as an older tablectl wrote it
    done = read("query", dataset)
    assert done.code == 0, done.err
    assert done.err == (f"tablectl: warning: {dataset}: _manifests/{TABLE}.json: no SHA-256 of the files recorded "
                        "(written by an older tablectl): their bytes are not checked; re-export the logs into a new "
                        "dataset to have them checked\n")


# -- schema ----------------------------------------------------------------------------------------

def test_a_column_of_another_type_than_its_schema_is_refused_naming_file_and_column(dataset: Path) -> None:
    path = rounds_file(dataset)
    table = pq.read_table(path)
    i = table.schema.get_field_index("win")
    pq.write_table(table.set_column(i, pa.field("win", pa.string()), table.column(i).cast(pa.string())), path)
    reseal(dataset, path)
    refused(read("floor", dataset), path, "column win", "string", "int64")


# -- what is not a regular file --------------------------------------------------------------------

def fifo(path: Path) -> None:
    os.mkfifo(path)


def folder(path: Path) -> None:
    path.mkdir()


def link(path: Path) -> None:
    path.symlink_to(path.parents[4] / "elsewhere.parquet")  # the genuine file, outside the dataset


@pytest.mark.parametrize("command", ["query", "floor"])
@pytest.mark.parametrize("plant", [fifo, folder, link], ids=["fifo", "folder", "link"])
def test_a_listed_file_that_is_not_a_regular_file_is_refused_without_opening_it(dataset: Path, command: str,
                                                                                plant: Callable[[Path], None]) -> None:
    path = rounds_file(dataset)
    shutil.move(path, dataset.parent / "elsewhere.parquet")
    plant(path)
    refused(read(command, dataset), path, "not a regular file")


KEPT = {"_rules.json": "rules registry", "_math.json": "math cache", "approved.toml": "approved math"}


@pytest.mark.parametrize("command", ["query", "floor"])
@pytest.mark.parametrize("name", sorted(KEPT))
def test_a_fifo_in_place_of_a_file_the_dataset_keeps_is_refused_at_once_naming_it(dataset: Path, command: str,
                                                                                   name: str) -> None:
    path = dataset / "_manifests" / name
    path.unlink(missing_ok=True)
    fifo(path)
    done = read(command, dataset)
    assert done.code == 2 and done.out == "", (done.code, done.err)
    assert done.err.endswith(f"{path.name}: cannot read the {KEPT[name]}: a FIFO, not a regular file\n"), done.err
    assert done.err.count("\n") == 1 and "Traceback" not in done.err


def test_an_export_into_a_dataset_whose_manifest_is_a_fifo_is_refused_at_once(exported: Path, tmp_path: Path) -> None:
    dataset = Path(shutil.copytree(exported, tmp_path / "ds", symlinks=True))
    manifest = dataset / "_manifests" / f"{TABLE}.json"
    manifest.unlink()
    fifo(manifest)
    logs = next(p for p in exported.parent.rglob(f"tablectl-{TABLE}-*.jsonl")).parent
    done = run_tablectl("export", logs, "--to", dataset, "--key", exported.parent / "keys" / "table.pub", timeout=60)
    assert done.code == 2 and done.err.endswith("cannot read the export manifest: a FIFO, not a regular file\n"), done.err


# -- a table without its manifest -------------------------------------------------------------------

def test_files_of_a_table_whose_manifest_is_deleted_are_refused_naming_the_table(dataset: Path) -> None:
    (dataset / "_manifests" / f"{TABLE}.json").unlink()
    done = read("query", dataset)
    refused(done, dataset / "rounds" / f"table={TABLE}", f"table {TABLE}", f"_manifests/{TABLE}.json")


def test_each_table_with_files_and_no_manifest_is_one_line(dataset: Path) -> None:
    (dataset / "_manifests" / f"{TABLE}.json").unlink()
    for folder_ in dataset.glob(f"*/table={TABLE}"):
        shutil.copytree(folder_, folder_.with_name("table=ocp-8"))
    done = read("floor", dataset)
    assert done.code == 3 and done.out == "", done.err
    lines = done.err.splitlines()
    assert len(lines) == 2 and all(line.startswith("tablectl: integrity failure: ") for line in lines), done.err
    assert "table ocp-7 " in lines[0] and "table ocp-8 " in lines[1]


# -- look-alike ids --------------------------------------------------------------------------------

def test_dealer_ids_that_differ_by_a_cyrillic_letter_are_warned_about(exported: Path, tmp_path: Path) -> None:
    done = read("floor", Path(shutil.copytree(exported, tmp_path / "ds")))
    warnings = [line for line in done.err.splitlines() if "look alike" in line]
    assert len(warnings) == 1 and repr(DEALER) in warnings[0] and repr(LOOKALIKE) in warnings[0], done.err
