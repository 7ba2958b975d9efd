"""Links planted in a dataset are never written through: the lock file, a temporary name an export
would use, a folder of the dataset. Each is refused in one line naming it (``tablectl export``
run as a user runs it), or, for the temporary names now random, never touched; the victim a link
points at is left as it was."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from exporthelpers import Done, run_tablectl
from floorgen import Floor

from tablectl.cli import main

ANCHOR_LINE = b'{"anchor":2,"table":"ocp-1","seq":7,"head":"' + b"a" * 64 + b'","prev":"' + b"0" * 64 + b'"}\n'


def export(floor_: Floor, dataset: Path) -> Done:
    return run_tablectl("export", floor_.logs["ocp-1"], "--to", dataset, "--key", floor_.public_key)


def one_line_refusal(done: Done, path: Path) -> None:
    assert done.code == 2, done.out + done.err
    assert done.err.count("\n") == 1 and "Traceback" not in done.err, done.err
    assert done.err.startswith(f"tablectl: {path}: ") and "link" in done.err, done.err


@pytest.fixture
def anchor_file(tmp_path: Path) -> Path:
    """A victim: surveillance's anchor file, which the dataset's links point at."""
    path = tmp_path / "ANCHORS" / "floor.jsonl"
    path.parent.mkdir()
    path.write_bytes(ANCHOR_LINE * 3)
    return path


def test_a_lock_file_planted_as_a_link_to_the_anchor_file_is_refused_and_the_anchor_file_kept(
        small_floor: Floor, tmp_path: Path, anchor_file: Path) -> None:
    dataset = tmp_path / "ds"
    (dataset / "_manifests").mkdir(parents=True)
    (dataset / "_manifests" / ".lock").symlink_to(anchor_file)
    done = export(small_floor, dataset)
    one_line_refusal(done, dataset / "_manifests" / ".lock")
    assert anchor_file.read_bytes() == ANCHOR_LINE * 3


def test_links_planted_at_the_old_predictable_temporary_names_are_never_written_through(
        small_floor: Floor, tmp_path: Path, anchor_file: Path) -> None:
    """The export runs in this process (click's CliRunner), so its pid, which the old temporary
    names ``.<name>.<pid>.tmp`` carried, is known: a link waits at each such name of the manifest,
    the saved state and the rules registry."""
    dataset = tmp_path / "ds"
    manifests = dataset / "_manifests"
    (manifests / "_resume").mkdir(parents=True)
    pid = os.getpid()
    planted = [manifests / f".ocp-1.json.{pid}.tmp", manifests / "_resume" / f".ocp-1.json.{pid}.tmp",
               manifests / f"._rules.json.{pid}.tmp"]
    for link in planted:
        link.symlink_to(anchor_file)
    done = CliRunner().invoke(main, ["export", str(small_floor.logs["ocp-1"]), "--to", str(dataset),
                                     "--key", str(small_floor.public_key), "--workers", "1"])
    assert done.exit_code == 0, done.output
    assert anchor_file.read_bytes() == ANCHOR_LINE * 3
    assert not (manifests / "ocp-1.json").is_symlink() and (manifests / "ocp-1.json").stat().st_size > 0


def test_a_folder_of_the_dataset_planted_as_a_link_is_refused_and_nothing_written_or_deleted_there(
        small_floor: Floor, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "date=2026-11-02").mkdir(parents=True)
    (elsewhere / "date=2026-11-02" / ".keep").write_bytes(b"not the dataset's\n")
    before = sorted(p.relative_to(elsewhere).as_posix() for p in elsewhere.rglob("*"))
    dataset = tmp_path / "ds"
    (dataset / "rounds").mkdir(parents=True)
    (dataset / "rounds" / "table=ocp-1").symlink_to(elsewhere, target_is_directory=True)
    done = export(small_floor, dataset)
    one_line_refusal(done, dataset / "rounds" / "table=ocp-1")
    assert sorted(p.relative_to(elsewhere).as_posix() for p in elsewhere.rglob("*")) == before
