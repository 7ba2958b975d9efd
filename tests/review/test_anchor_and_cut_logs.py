"""What a signed log cannot prove by itself, and the anchor that proves it (issue 14 D5, D6), run
as surveillance would: ``tablectl anchor`` after each session, ``tablectl review --anchor``."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization

from tablectl.eventlog.keys import load_private_key

REPO = Path(__file__).resolve().parents[2]
CONFIG = REPO / "config" / "tables" / "one-card-poker.toml"


def tablectl(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tablectl", *args], capture_output=True, text=True, timeout=120, env=env)


@pytest.fixture
def two_sessions(tmp_path: Path) -> tuple[Path, Path, Path, Path]:
    """(log dir, the table's public key kept apart from it, anchor file, a copy of the log after
    its first session). The simulated table enrols its key in a keyring of this test."""
    import os

    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state"), "TABLECTL_KEYRING": str(tmp_path / "keyring")}
    logs, anchor = tmp_path / "logs", tmp_path / "anchors.jsonl"
    run = ("run", str(CONFIG), "--simulate", "--headless", "--autoplay", "3", "--pace", "0", "--log-dir", str(logs))
    assert tablectl(*run, env=env).returncode == 0
    assert tablectl("anchor", str(logs), "--anchor", str(anchor), env=env).returncode == 0
    older = tmp_path / "older"
    shutil.copytree(logs, older)
    assert tablectl(*run, env=env).returncode == 0
    assert tablectl("anchor", str(logs), "--anchor", str(anchor), env=env).returncode == 0
    key = tmp_path / "keys" / "ocp-1.pub"  # apart from the log: not in its folder, nor in a folder above it
    key.parent.mkdir()
    private = load_private_key(tmp_path / "state" / "tablectl" / "session-keys" / "ocp-1.key")
    key.write_bytes(private.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    return logs, key, anchor, older


def test_an_anchored_log_reviews_clean_and_says_it_was_checked(two_sessions: tuple[Path, Path, Path, Path]) -> None:
    logs, key, anchor, _ = two_sessions
    done = tablectl("review", str(logs), "--key", str(key), "--anchor", str(anchor))
    assert done.returncode == 0, done.stdout
    assert "anchor: checked" in done.stdout


def test_a_log_replaced_by_its_older_self_is_an_integrity_failure_with_the_anchor(two_sessions: tuple[Path, Path, Path, Path]) -> None:
    _, key, anchor, older = two_sessions
    done = tablectl("review", str(older), "--key", str(key), "--anchor", str(anchor))
    assert done.returncode == 3 and "anchor_missing" in done.stdout
    assert done.stderr.startswith("tablectl: integrity failure: ") and done.stderr.count("\n") == 1


def test_a_log_whose_last_session_files_were_deleted_is_an_integrity_failure_with_the_anchor(
    two_sessions: tuple[Path, Path, Path, Path],
) -> None:
    logs, key, anchor, older = two_sessions
    first_session = {p.name for p in older.glob("*.jsonl")}
    for path in logs.glob("*.jsonl"):
        if path.name not in first_session:
            path.unlink()
    done = tablectl("review", str(logs), "--key", str(key), "--anchor", str(anchor))
    assert done.returncode == 3, done.stdout


def test_without_an_anchor_review_says_what_it_cannot_detect(two_sessions: tuple[Path, Path, Path, Path]) -> None:
    _, key, _, older = two_sessions
    done = tablectl("review", str(older), "--key", str(key))
    assert "anchor: none given" in done.stdout and "cannot be detected" in done.stdout


def test_a_review_without_a_key_is_never_clean(two_sessions: tuple[Path, Path, Path, Path], tmp_path: Path) -> None:
    logs, _, _, _ = two_sessions
    done = tablectl("review", str(logs), "--keyring", str(tmp_path / "empty-keyring"))
    assert done.returncode == 1 and "not_authenticated" in done.stdout


@pytest.mark.parametrize("damage", ["cut inside the first line", "CR line endings"])
def test_a_log_cut_inside_its_first_line_or_with_cr_endings_is_an_integrity_failure(
    two_sessions: tuple[Path, Path, Path, Path], tmp_path: Path, damage: str
) -> None:
    logs, key, _, _ = two_sessions
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    files = sorted(logs.glob("*.jsonl"))
    if damage == "cut inside the first line":
        (damaged / files[0].name).write_bytes(files[0].read_bytes()[:40])
    else:
        for path in files:
            (damaged / path.name).write_bytes(path.read_bytes().replace(b"\n", b"\r"))
    done = tablectl("review", str(damaged), "--key", str(key))
    assert done.returncode == 3, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
