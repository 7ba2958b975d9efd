"""Anchors that only move forward, and the anchor file and ``review --json`` on a full disk, run as
surveillance would: ``tablectl anchor`` after each session, ``tablectl review --anchor``, the
real CLI in a subprocess. The full-disk cases mount a small tmpfs (root only; skipped otherwise)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import orjson
import pytest
from cryptography.hazmat.primitives import serialization

from tablectl.eventlog.keys import load_private_key

REPO = Path(__file__).resolve().parents[2]
CONFIG = REPO / "config" / "tables" / "one-card-poker.toml"
PAGE = 4096


def tablectl(*args: str, env: dict[str, str] | None = None, stdout: int | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tablectl", *args], stdout=stdout if stdout is not None else subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=120, env=env)


@dataclass(frozen=True)
class Sessions:
    """One table's log after each of three sessions (``after[0]``: one session), its public key,
    and the anchor line ``tablectl anchor`` appended after session 1 and after session 2."""

    after: tuple[Path, Path, Path]
    key: Path
    lines: tuple[bytes, bytes]


@pytest.fixture(scope="module")
def sessions(tmp_path_factory: pytest.TempPathFactory) -> Sessions:
    tmp = tmp_path_factory.mktemp("sessions")
    env = {**os.environ, "XDG_STATE_HOME": str(tmp / "state"), "TABLECTL_KEYRING": str(tmp / "keyring")}
    logs, anchor = tmp / "logs", tmp / "anchors.jsonl"
    run = ("run", str(CONFIG), "--simulate", "--headless", "--autoplay", "3", "--pace", "0", "--log-dir", str(logs))
    after = []
    for n in range(3):
        assert tablectl(*run, env=env).returncode == 0
        if n < 2:
            assert tablectl("anchor", str(logs), "--anchor", str(anchor), env=env).returncode == 0
        after.append(tmp / f"after{n + 1}")
        shutil.copytree(logs, after[-1])
    lines = anchor.read_bytes().splitlines()
    assert len(lines) == 2
    key = tmp / "keys" / "ocp-1.pub"  # the table's public key, kept apart from its log (not in a folder above it)
    key.parent.mkdir()
    private = load_private_key(tmp / "state" / "tablectl" / "session-keys" / "ocp-1.key")
    key.write_bytes(private.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    return Sessions((after[0], after[1], after[2]), key, (lines[0], lines[1]))


def unchained(line: bytes) -> bytes:
    """*line* as a format 1 anchor line (no ``prev``)."""
    rec = orjson.loads(line)
    rec.pop("prev", None)
    rec["anchor"] = 1
    return orjson.dumps(rec)


def review(logs: Path, s: Sessions, anchor: Path, *more: str, env: dict[str, str] | None = None,
           stdout: int | None = None) -> subprocess.CompletedProcess[str]:
    return tablectl("review", str(logs), "--key", str(s.key), "--anchor", str(anchor), *more, env=env, stdout=stdout)


@pytest.fixture
def small_fs(tmp_path: Path) -> Iterator[Path]:
    """A 64 KiB tmpfs, unmounted after the test."""
    where = tmp_path / "small"
    where.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(where)],
                                           capture_output=True).returncode != 0:
        pytest.skip("needs root to mount a small tmpfs")
    try:
        yield where
    finally:
        subprocess.run(["umount", str(where)], check=True)


def fill(directory: Path) -> None:
    """Take every free byte of the filesystem of *directory*."""
    fd = os.open(directory / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"\0" * PAGE)
    except OSError:
        pass
    finally:
        os.close(fd)


def one_line_error(done: subprocess.CompletedProcess[str], code: int) -> None:
    assert done.returncode == code, done.stderr
    assert done.stderr.startswith("tablectl: ") and done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stderr


def test_an_old_anchor_line_appended_again_is_an_integrity_failure_naming_the_line(sessions: Sessions, tmp_path: Path) -> None:
    anchor = tmp_path / "anchors.jsonl"
    anchor.write_bytes(b"\n".join([*sessions.lines, sessions.lines[0]]) + b"\n")
    done = review(sessions.after[1], sessions, anchor)
    assert done.returncode == 3, done.stdout
    assert f"{anchor}:3: " in done.stderr


def test_a_log_cut_back_to_an_old_anchor_appended_again_is_an_integrity_failure(sessions: Sessions, tmp_path: Path) -> None:
    anchor = tmp_path / "anchors.jsonl"
    anchor.write_bytes(b"\n".join([*sessions.lines, sessions.lines[0]]) + b"\n")
    assert review(sessions.after[0], sessions, anchor).returncode == 3


@pytest.mark.parametrize("damage", ["inserted", "reordered"])
def test_an_inserted_or_reordered_anchor_line_is_an_integrity_failure_naming_the_line(
    sessions: Sessions, tmp_path: Path, damage: str
) -> None:
    first, second = sessions.lines
    lines, bad = ([first, first, second], 2) if damage == "inserted" else ([second, first], 1)
    anchor = tmp_path / "anchors.jsonl"
    anchor.write_bytes(b"\n".join(lines) + b"\n")
    done = review(sessions.after[1], sessions, anchor)
    assert done.returncode == 3, done.stdout
    assert f"{anchor}:{bad}: " in done.stderr


def test_the_anchor_with_the_highest_seq_counts_not_the_last_line(sessions: Sessions, tmp_path: Path) -> None:
    anchor = tmp_path / "anchors.jsonl"
    anchor.write_bytes(unchained(sessions.lines[1]) + b"\n" + unchained(sessions.lines[0]) + b"\n")
    done = review(sessions.after[0], sessions, anchor)
    assert done.returncode == 3 and "anchor_missing" in done.stdout, done.stdout


def test_a_torn_last_anchor_line_is_set_aside_and_the_next_anchor_appends_a_verifiable_line(
    sessions: Sessions, tmp_path: Path
) -> None:
    logs, anchor = tmp_path / "logs", tmp_path / "anchors.jsonl"
    shutil.copytree(sessions.after[1], logs)
    anchor.write_bytes(sessions.lines[0] + b"\n" + sessions.lines[1][:50])
    done = review(logs, sessions, anchor)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{anchor}: byte {len(sessions.lines[0]) + 1}: a torn anchor line" in done.stderr

    shutil.rmtree(logs)
    shutil.copytree(sessions.after[2], logs)
    done = tablectl("anchor", str(logs), "--key", str(sessions.key), "--anchor", str(anchor))
    assert done.returncode == 0, done.stderr
    lines = anchor.read_bytes().split(b"\n")
    assert len(lines) == 4 and lines[1] == sessions.lines[1][:50] and lines[3] == b""
    assert orjson.loads(lines[2])["set_aside"] == [len(sessions.lines[0]) + 1]
    done = review(logs, sessions, anchor)
    assert done.returncode == 0 and done.stderr == "", done.stdout + done.stderr
    shutil.rmtree(logs)
    shutil.copytree(sessions.after[1], logs)
    assert review(logs, sessions, anchor).returncode == 3


def test_anchor_on_a_full_disk_is_a_one_line_storage_error(sessions: Sessions, small_fs: Path) -> None:
    anchor = small_fs / "anchors.jsonl"
    first = sessions.lines[0] + b"\n"
    anchor.write_bytes(first + b"\n" * (PAGE - 30 - len(first)))  # 30 bytes left in its page: the write is cut short
    fill(small_fs)
    done = tablectl("anchor", str(sessions.after[1]), "--key", str(sessions.key), "--anchor", str(anchor))
    one_line_error(done, 5)
    assert str(anchor) in done.stderr


def test_review_json_to_a_full_stdout_is_a_one_line_storage_error(sessions: Sessions, tmp_path: Path) -> None:
    anchor = tmp_path / "anchors.jsonl"
    anchor.write_bytes(b"\n".join(sessions.lines) + b"\n")
    with open("/dev/full", "wb") as full:
        done = review(sessions.after[1], sessions, anchor, "--json", stdout=full.fileno())
    one_line_error(done, 5)
    assert "stdout" in done.stderr


@pytest.mark.parametrize("room", ["none", "all but the last block"])
def test_review_json_with_a_full_tmpdir_is_a_one_line_storage_error_naming_it(
    sessions: Sessions, tmp_path: Path, small_fs: Path, room: str
) -> None:
    anchor = tmp_path / "anchors.jsonl"
    anchor.write_bytes(b"\n".join(sessions.lines) + b"\n")
    env = {**os.environ, "TMPDIR": str(small_fs)}
    fill(small_fs)
    if room != "none":
        whole = tablectl("review", str(sessions.after[2]), "--key", str(sessions.key), "--json").stdout.encode()
        spooled = whole.index(b'"timings"') - whole.index(b'"rounds": [')
        assert spooled > 2 * PAGE
        os.truncate(small_fs / "filler", os.stat(small_fs / "filler").st_size - (spooled - 1) // PAGE * PAGE)
    done = review(sessions.after[2], sessions, anchor, "--json", env=env)
    one_line_error(done, 5)
    assert str(small_fs) in done.stderr and done.stdout == ""
