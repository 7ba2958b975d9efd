"""Links planted where tablectl makes or appends to a file are refused, never written through: the
anchor file given to ``tablectl anchor``, a log file or the log's lock file beside a table's log,
a key ``keygen`` would write. The victim a link points at is left as it was."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tablectl.eventlog import EventLog, save_keypair
from tablectl.files import LinkRefusedError

VICTIM = b'{"anchor":2,"table":"T9","seq":1}\n'


def tablectl(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tablectl", *map(str, args)], capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL)


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    path = tmp_path / "ANCHORS" / "floor.jsonl"
    path.parent.mkdir()
    path.write_bytes(VICTIM)
    return path


def test_anchor_refuses_an_anchor_file_that_is_a_link_and_leaves_its_target(
        tmp_path: Path, signed_log: Path, key: Ed25519PrivateKey, victim: Path) -> None:
    pub = save_keypair(tmp_path / "keys", key).public
    link = tmp_path / "anchors.jsonl"
    link.symlink_to(victim)
    done = tablectl("anchor", signed_log, "--key", pub, "--anchor", link)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"tablectl: {link}: a symbolic link") and done.stderr.count("\n") == 1, done.stderr
    assert victim.read_bytes() == VICTIM


@pytest.mark.parametrize("name", ["tablectl-T1-000001.jsonl", ".tablectl-T1.lock"])
def test_the_log_refuses_a_link_planted_beside_it_and_leaves_its_target(
        tmp_path: Path, key: Ed25519PrivateKey, victim: Path, name: str) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / name).symlink_to(victim)
    with pytest.raises(LinkRefusedError, match=f"^{logs / name}: a symbolic link"):
        EventLog(logs, "T1", signing_key=key).close()
    assert victim.read_bytes() == VICTIM


def test_a_torn_log_file_planted_as_a_link_is_not_cut_through_it(tmp_path: Path, key: Ed25519PrivateKey) -> None:
    """The writer cuts a torn last line off its last file: never off the file a link points at."""
    victim = tmp_path / "victim.jsonl"
    victim.write_bytes(VICTIM + b'{"torn')
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "tablectl-T1-000001.jsonl").symlink_to(victim)
    with pytest.raises(LinkRefusedError):
        EventLog(logs, "T1", signing_key=key).close()
    assert victim.read_bytes() == VICTIM + b'{"torn'


def test_keygen_refuses_a_link_planted_at_the_key_and_leaves_its_target(tmp_path: Path, victim: Path) -> None:
    keys = tmp_path / "keys"
    keys.mkdir()
    (keys / "table.key").symlink_to(victim)
    done = tablectl("keygen", keys)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"tablectl: {keys / 'table.key'}: a symbolic link") and done.stderr.count("\n") == 1
    assert victim.read_bytes() == VICTIM
