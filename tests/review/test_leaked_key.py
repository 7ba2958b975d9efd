"""A leaked retired key cannot fork the log: the keyring decides which key may take over, and from
which seq. At the real front door: real tables on simulated devices, the ``tablectl`` commands.

The table's real hand-over is K1 -> K2. Someone who kept K1 copies the log from before the
hand-over and runs a table with ``signing_key = K3`` (their own) and ``previous_signing_key = K1``:
K1 signs a ``key_rotation`` naming K3 at the very seq where the real one names K2, and K3 signs
forged sessions after it."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import orjson
import pytest
from forgery import copy_log

from tablectl.eventlog import key_id, load_public_key, save_keypair
from tablectl.eventlog.keys import KeyPairFiles
from tablectl.eventlog.verify import iter_events

REPO = Path(__file__).resolve().parents[2]
CONFIG = REPO / "config" / "tables" / "one-card-poker.toml"


def tablectl(*args: str | Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tablectl", *map(str, args)], capture_output=True, text=True,
                          timeout=180, env=env)


@dataclass(frozen=True)
class Fork:
    """The genuine log (K1, then K2 from ``handover + 1``), the fork (K1, then K3 from the same
    seq), the three key pairs and the environment (its own keyring and state folders)."""

    root: Path
    env: dict[str, str]
    genuine: Path
    forged: Path
    handover: int  # the seq of the key_rotation checkpoint, in both logs
    k1: KeyPairFiles
    k2: KeyPairFiles
    k3: KeyPairFiles

    def id(self, pair: KeyPairFiles) -> str:
        return key_id(load_public_key(pair.public))

    def keyring(self, name: str, *commands: tuple[str | Path, ...]) -> Path:
        """A keyring of its own, made with ``tablectl keyring`` *commands* (each without ``--keyring``)."""
        ring = self.root / f"ring-{name}"
        for command in commands:
            done = tablectl("keyring", *command, "--keyring", ring, env=self.env)
            assert done.returncode == 0, done.stderr
        return ring


def run_session(root: Path, logs: Path, env: dict[str, str], key: Path, previous: Path | None = None,
                seed: int = 1) -> None:
    """``tablectl run`` of two rounds into *logs*, signing with *key* (and *previous* to hand over from)."""
    lines = [f"signing_key = {orjson.dumps(str(key)).decode()}"]
    if previous is not None:
        lines.append(f"previous_signing_key = {orjson.dumps(str(previous)).decode()}")
    config = root / "table.toml"
    config.write_text(CONFIG.read_text().replace("[log]", "[log]\n" + "\n".join(lines)))
    done = tablectl("run", config, "--simulate", "--headless", "--autoplay", "2", "--seed", str(seed),
                    "--log-dir", logs, env=env)
    assert done.returncode == 0, done.stderr


def rotation_seq(logs: Path) -> int:
    return next(r["seq"] for r in iter_events([logs]) if r.get("reason") == "key_rotation")


@pytest.fixture(scope="module")
def fork(tmp_path_factory: pytest.TempPathFactory) -> Fork:
    root = tmp_path_factory.mktemp("leaked")
    env = {**os.environ, "XDG_STATE_HOME": str(root / "state"), "TABLECTL_KEYRING": str(root / "unused-ring")}
    k1, k2, k3 = (save_keypair(root / "keys" / name) for name in ("k1", "k2", "k3"))
    genuine, forged = root / "logs" / "genuine", root / "logs" / "forged"
    run_session(root, genuine, env, k1.private)
    copy_log(genuine, forged)  # the log from before the real hand-over
    run_session(root, genuine, env, k2.private, previous=k1.private, seed=2)
    run_session(root, forged, env, k3.private, previous=k1.private, seed=3)
    run_session(root, forged, env, k3.private, seed=4)
    handover = rotation_seq(genuine)
    assert rotation_seq(forged) == handover
    return Fork(root, env, genuine, forged, handover, k1, k2, k3)


@pytest.fixture(scope="module")
def successor_ring(fork: Fork) -> Path:
    """The keyring after the real hand-over: K1 from seq 1, K2 from the seq after it, K1 retired."""
    return fork.keyring("successor", ("add", "ocp-1", fork.k1.public),
                        ("add", "ocp-1", fork.k2.public, "--from-seq", str(fork.handover + 1)),
                        ("retire", "ocp-1", fork.id(fork.k1), "--after-seq", str(fork.handover)))


def test_the_genuine_hand_over_reviews_clean_against_the_keyring_that_enrols_the_successor(
    fork: Fork, successor_ring: Path,
) -> None:
    done = tablectl("review", fork.genuine, "--keyring", successor_ring, env=fork.env)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_fork_the_leaked_key_hands_to_another_key_is_an_integrity_failure(fork: Fork, successor_ring: Path) -> None:
    done = tablectl("review", fork.forged, "--keyring", successor_ring, env=fork.env)
    assert done.returncode == 3 and "bad_handover" in done.stdout, done.stdout
    assert done.stderr.count("\n") == 1 and fork.id(fork.k3) in done.stderr and fork.id(fork.k2) in done.stderr, done.stderr


def test_export_refuses_a_fork_the_leaked_key_hands_to_another_key(fork: Fork, successor_ring: Path,
                                                                   tmp_path: Path) -> None:
    done = tablectl("export", fork.forged, "--to", tmp_path / "ds", "--keyring", successor_ring, env=fork.env)
    assert done.returncode == 3 and "refused" in done.stderr, done.stderr
    assert not (tmp_path / "ds" / "_manifests" / "ocp-1.json").exists()


def test_anchor_refuses_a_fork_the_leaked_key_hands_to_another_key(fork: Fork, successor_ring: Path,
                                                                   tmp_path: Path) -> None:
    done = tablectl("anchor", fork.forged, "--anchor", tmp_path / "anchors.jsonl", "--keyring", successor_ring,
                    env=fork.env)
    assert done.returncode == 3, done.stderr
    assert not (tmp_path / "anchors.jsonl").exists()


def test_a_key_the_leaked_key_introduces_signs_nothing_after_the_keyring_retires_it(fork: Fork) -> None:
    ring = fork.keyring("retired", ("add", "ocp-1", fork.k1.public),
                        ("retire", "ocp-1", fork.id(fork.k1), "--after-seq", str(fork.handover)))
    done = tablectl("review", fork.forged, "--keyring", ring, env=fork.env)
    assert done.returncode == 3 and "retired_key" in done.stdout, done.stdout


def test_a_fork_fails_with_the_old_and_new_keys_given_by_hand(fork: Fork) -> None:
    done = tablectl("review", fork.forged, "--key", fork.k1.public, "--key", fork.k2.public, env=fork.env)
    assert done.returncode == 3 and "bad_handover" in done.stdout, done.stdout


def signatures_line(stdout: str) -> str:
    return next(line for line in stdout.splitlines() if line.startswith("signatures:"))


def test_the_signatures_line_names_each_key_with_the_lines_it_signed(fork: Fork, successor_ring: Path) -> None:
    done = tablectl("review", fork.genuine, "--keyring", successor_ring, env=fork.env)
    line = signatures_line(done.stdout)
    assert f"key {fork.id(fork.k1)} seq 1..{fork.handover}" in line, line
    assert f"key {fork.id(fork.k2)} seq {fork.handover + 1}.." in line, line


def test_the_signatures_line_names_a_key_the_log_handed_over_to(fork: Fork) -> None:
    ring = fork.keyring("first-only", ("add", "ocp-1", fork.k1.public))  # no successor named: the log hands on
    done = tablectl("review", fork.forged, "--keyring", ring, env=fork.env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"key {fork.id(fork.k3)} seq {fork.handover + 1}.." in signatures_line(done.stdout)
