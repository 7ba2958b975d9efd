"""An anchor file that reaches its limit (16 MiB) is continued in the next file (``floor.jsonl`` ->
``floor.2.jsonl`` -> ...), whose first line links to the last line of the one before: ``tablectl
anchor`` and ``tablectl review --anchor`` given the first file follow the chain of files, so every
head it holds still counts and a file taken out of the middle breaks the chain. The real CLI, in
subprocesses, on a first file filled to just under the limit."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import orjson
import pytest
from anchorhelpers import filler_lines, write_log
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tablectl.eventlog import save_keypair
from tablectl.eventlog.logformat import digest
from tablectl.files import MAX_ANCHOR_BYTES

LINES = 2_000  # each table's log


def tablectl(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tablectl", *map(str, args)], capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)


@dataclass(frozen=True)
class Floor:
    """Two tables' logs, their public key, and an anchor file one line short of its limit."""

    logs: dict[str, Path]
    pub: Path
    anchor: Path
    full: bytes  # the anchor file's bytes: within 100 bytes of the limit, less than a line


@pytest.fixture(scope="module")
def floor_(tmp_path_factory: pytest.TempPathFactory) -> Floor:
    from tablectl.eventlog import generate_key

    root = tmp_path_factory.mktemp("rotation")
    key: Ed25519PrivateKey = generate_key()
    pub = save_keypair(root / "keys", key).public
    logs = {table: write_log(root / "logs" / table, table, key, LINES) for table in ("T1", "T2")}
    return Floor(logs, pub, root / "anchors" / "floor.jsonl", filler_lines(MAX_ANCHOR_BYTES - 100))


@pytest.fixture
def anchor(floor_: Floor, tmp_path: Path) -> Path:
    """A fresh copy of the full anchor file."""
    path = tmp_path / "floor.jsonl"
    path.write_bytes(floor_.full)
    return path


def test_an_anchor_past_the_limit_goes_to_the_next_file_linked_to_the_last_line_of_the_full_one(
        floor_: Floor, anchor: Path) -> None:
    done = tablectl("anchor", floor_.logs["T1"], "--key", floor_.pub, "--anchor", anchor)
    assert done.returncode == 0, done.stderr
    assert anchor.read_bytes() == floor_.full  # the full file is never written again
    lines = anchor.with_name("floor.2.jsonl").read_bytes().splitlines()
    assert len(lines) == 1
    record = orjson.loads(lines[0])
    assert record["table"] == "T1" and record["prev"] == digest(floor_.full.splitlines()[-1])


def test_review_checks_the_log_against_a_head_in_the_continued_file(floor_: Floor, anchor: Path) -> None:
    assert tablectl("anchor", floor_.logs["T1"], "--key", floor_.pub, "--anchor", anchor).returncode == 0
    done = tablectl("review", floor_.logs["T1"], "--key", floor_.pub, "--anchor", anchor)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_log_cut_short_is_caught_by_a_head_in_the_continued_file(floor_: Floor, anchor: Path, tmp_path: Path) -> None:
    assert tablectl("anchor", floor_.logs["T1"], "--key", floor_.pub, "--anchor", anchor).returncode == 0
    cut = tmp_path / "cut"
    cut.mkdir()
    for f in sorted(floor_.logs["T1"].glob("tablectl-*.jsonl"))[:-2]:
        (cut / f.name).write_bytes(f.read_bytes())
    done = tablectl("review", cut, "--key", floor_.pub, "--anchor", anchor)
    assert done.returncode == 3 and "anchor_missing" in done.stdout, done.stdout + done.stderr


def test_the_next_anchor_goes_on_in_the_continued_file_linked_to_its_last_line(floor_: Floor, anchor: Path) -> None:
    assert tablectl("anchor", floor_.logs["T1"], "--key", floor_.pub, "--anchor", anchor).returncode == 0
    done = tablectl("anchor", floor_.logs["T2"], "--key", floor_.pub, "--anchor", anchor)
    assert done.returncode == 0, done.stderr
    lines = anchor.with_name("floor.2.jsonl").read_bytes().splitlines()
    assert [orjson.loads(line)["table"] for line in lines] == ["T1", "T2"]
    assert orjson.loads(lines[1])["prev"] == digest(lines[0])
    assert tablectl("review", floor_.logs["T2"], "--key", floor_.pub, "--anchor", anchor).returncode == 0


def test_a_continued_file_taken_out_of_the_middle_breaks_the_chain(floor_: Floor, anchor: Path) -> None:
    assert tablectl("anchor", floor_.logs["T1"], "--key", floor_.pub, "--anchor", anchor).returncode == 0
    anchor.with_name("floor.2.jsonl").rename(anchor.with_name("floor.3.jsonl"))  # as if floor.2 were deleted
    done = tablectl("review", floor_.logs["T1"], "--key", floor_.pub, "--anchor", anchor)
    assert done.returncode == 3, done.stdout + done.stderr
    assert "anchor_chain" in done.stdout and "floor.3.jsonl" in done.stderr, done.stderr
