"""An insider with file access but no private key, at the real front door: whatever sits beside the
log (a key file, a file name, an empty file) is theirs to change, and none of it makes a changed log
pass review or export."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from cryptography.hazmat.primitives import serialization
from forgery import LogCopy

from tablectl.eventlog import generate_key, save_keypair

REPO = Path(__file__).resolve().parents[2]
CONFIG = REPO / "config" / "tables" / "one-card-poker.toml"


def tablectl(*args: str | Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tablectl", *map(str, args)], capture_output=True, text=True,
                          timeout=180, env=env)


@pytest.fixture(scope="module")
def floor(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """(folder with ``logs/``, the environment with its own key folder and keyring): a simulated
    One Card Poker table that played two sessions."""
    root = tmp_path_factory.mktemp("insider")
    env = {**os.environ, "XDG_STATE_HOME": str(root / "state"), "TABLECTL_KEYRING": str(root / "keyring")}
    for seed in ("1", "2"):
        done = tablectl("run", CONFIG, "--simulate", "--headless", "--autoplay", "6", "--seed", seed,
                        "--log-dir", root / "logs", env=env)
        assert done.returncode == 0, done.stderr
    return root, env


def pem(key: object) -> bytes:
    return key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)  # type: ignore[attr-defined]


def test_the_simulated_tables_log_reviews_clean_with_the_keyring_alone(floor: tuple[Path, dict[str, str]]) -> None:
    root, env = floor
    done = tablectl("review", root / "logs", env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "clean" in done.stdout


@pytest.fixture
def forged(floor: tuple[Path, dict[str, str]], tmp_path: Path) -> Path:
    """The log with its last rounds dropped and a dealer renamed, re-signed with a fresh key whose
    public half is written beside it as ``session.pub``."""
    root, _ = floor
    log = LogCopy.read(root / "logs")
    last = log.files[-1]
    log.files[-1] = last[: len(last) // 2] + last[-2:]  # rounds dropped; the closing lines kept
    for fi, li in log.where():
        if log.record(fi, li).get("dealer") is not None:
            log.edit(fi, li, lambda r: r.__setitem__("dealer", "D-99"))
    log.renumber()
    key = generate_key()
    log.rekey(key)
    target = log.write(tmp_path / "forged")
    (target / "session.pub").write_bytes(pem(key.public_key()))
    return target


def test_a_resigned_forgery_with_its_key_beside_it_is_never_clean(forged: Path, floor: tuple[Path, dict[str, str]]) -> None:
    _, env = floor
    done = tablectl("review", forged, "--key", forged / "session.pub", env=env)
    assert done.returncode == 1 and "key_beside_log" in done.stdout, done.stdout
    assert "clean" not in done.stdout.splitlines()[-1]


def test_a_resigned_forgery_fails_review_against_the_keyring(forged: Path, floor: tuple[Path, dict[str, str]]) -> None:
    _, env = floor
    done = tablectl("review", forged, env=env)
    assert done.returncode == 3 and "wrong_key" in done.stdout, done.stdout


def test_export_refuses_a_key_beside_the_log_in_one_line(forged: Path, floor: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    _, env = floor
    done = tablectl("export", forged, "--to", tmp_path / "ds", "--key", forged / "session.pub", env=env)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "session.pub" in done.stderr, done.stderr
    assert not (tmp_path / "ds" / "_manifests").exists()


def test_export_refuses_a_resigned_forgery_against_the_keyring(forged: Path, floor: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    _, env = floor
    done = tablectl("export", forged, "--to", tmp_path / "ds", env=env)
    assert done.returncode == 3 and "not a key the keyring" in done.stderr, done.stderr


@pytest.fixture
def planted_keyring(forged: Path, floor: tuple[Path, dict[str, str]]) -> Path:
    """A keyring in the forged log's folder that enrols the forger's key for the table."""
    _, env = floor
    done = tablectl("keyring", "add", "ocp-1", forged / "session.pub", "--keyring", forged / "kr", env=env)
    assert done.returncode == 0, done.stderr
    return forged / "kr"


def test_a_keyring_planted_in_the_log_folder_vouches_for_nothing(forged: Path, planted_keyring: Path,
                                                                  floor: tuple[Path, dict[str, str]]) -> None:
    _, env = floor
    done = tablectl("review", forged, "--keyring", planted_keyring, env=env)
    assert done.returncode == 1 and "key_beside_log" in done.stdout and "ocp-1.toml" in done.stdout, done.stdout
    assert "clean" not in done.stdout.splitlines()[-1]


def test_export_refuses_a_keyring_planted_in_the_log_folder(forged: Path, planted_keyring: Path,
                                                            floor: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    _, env = floor
    done = tablectl("export", forged, "--to", tmp_path / "ds", "--keyring", planted_keyring, env=env)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "ocp-1.toml" in done.stderr, done.stderr
    assert not (tmp_path / "ds" / "_manifests").exists()


def test_files_renamed_for_another_table_are_refused_and_leave_that_table_alone(
    floor: tuple[Path, dict[str, str]], tmp_path: Path,
) -> None:
    root, env = floor
    renamed = tmp_path / "renamed"
    renamed.mkdir()
    for path in (root / "logs").glob("tablectl-ocp-1-*.jsonl"):
        shutil.copy(path, renamed / path.name.replace("ocp-1", "ocp-2"))
    review = tablectl("review", renamed, env=env)
    assert review.returncode == 3 and "table_mismatch" in review.stdout, review.stdout
    export = tablectl("export", renamed, "--to", tmp_path / "ds", env=env)
    assert export.returncode == 3, export.stderr
    assert not (tmp_path / "ds" / "_manifests" / "ocp-2.json").exists()


def test_a_stray_empty_log_file_is_not_a_chain_head(floor: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    root, env = floor
    logs = tmp_path / "logs"
    shutil.copytree(root / "logs", logs)
    numbers = sorted(int(p.name.split("-")[-1].split(".")[0]) for p in logs.glob("*.jsonl"))
    (logs / f"tablectl-ocp-1-{numbers[-1] + 1:06d}.jsonl").touch()  # a sync tool, a stray touch
    assert tablectl("export", logs, "--to", tmp_path / "ds", env=env).returncode == 0
    more = tablectl("run", CONFIG, "--simulate", "--headless", "--autoplay", "2", "--log-dir", logs, env=env)
    assert more.returncode == 0, more.stderr
    again = tablectl("export", logs, "--to", tmp_path / "ds", env=env)
    assert again.returncode == 0, again.stderr
    assert "round" in again.stdout


def test_a_session_signed_by_a_retired_key_fails_whatever_keys_are_given(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state"), "TABLECTL_KEYRING": str(tmp_path / "keyring")}
    old, new = save_keypair(tmp_path / "old"), save_keypair(tmp_path / "new")
    logs = tmp_path / "logs"

    def session(key: Path, previous: Path | None = None) -> None:
        config = CONFIG.read_text().replace("[log]", "[log]\nsigning_key = %s%s" % (
            orjson.dumps(str(key)).decode(), f"\nprevious_signing_key = {orjson.dumps(str(previous)).decode()}" if previous else ""))
        path = tmp_path / "table.toml"
        path.write_text(config)
        done = tablectl("run", path, "--simulate", "--headless", "--autoplay", "2", "--log-dir", logs, env=env)
        assert done.returncode == 0, done.stderr

    session(old.private)
    session(new.private, previous=old.private)
    assert tablectl("keyring", "add", "ocp-1", old.public, env=env).returncode == 0
    assert tablectl("review", logs, env=env).returncode == 0  # the hand-over is in the log
    session(old.private)  # someone who kept the old key signs a new session
    for args in ((), ("--key", old.public, "--key", new.public)):
        done = tablectl("review", logs, *args, env=env)
        assert done.returncode == 3 and "retired_key" in done.stdout, done.stdout


def test_a_moved_log_folder_keeps_its_key_and_still_reviews_clean(floor: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    root, env = floor
    moved = tmp_path / "moved"
    shutil.copytree(root / "logs", tmp_path / "a")
    (tmp_path / "a").rename(moved)
    done = tablectl("run", CONFIG, "--simulate", "--headless", "--autoplay", "2", "--log-dir", moved, env=env)
    assert done.returncode == 0 and "new session key" not in done.stderr, done.stderr
    assert tablectl("review", moved, env=env).returncode == 0


def test_a_text_report_to_a_full_disk_is_one_line_and_exit_5(floor: tuple[Path, dict[str, str]]) -> None:
    root, env = floor
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "tablectl", "review", str(root / "logs")], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=180, env=env)
    assert done.returncode == 5 and done.stderr.count("\n") == 1, done.stderr
    assert "No space left on device" in done.stderr


@pytest.fixture
def elsewhere(forged: Path, tmp_path: Path) -> Path:
    """The forged log's key, kept in a folder apart from the log: ``tmp/elsewhere/evil.pub``."""
    key = tmp_path / "elsewhere" / "evil.pub"
    key.parent.mkdir()
    key.write_bytes((forged / "session.pub").read_bytes())
    return key


def test_a_key_kept_apart_from_the_log_folder_vouches_for_it(forged: Path, elsewhere: Path,
                                                             floor: tuple[Path, dict[str, str]]) -> None:
    _, env = floor
    done = tablectl("review", forged, "--key", elsewhere, env=env)
    assert done.returncode == 1 and "key_beside_log" not in done.stdout, done.stdout  # the forgery's round_open only
    assert done.stdout.splitlines()[-1].startswith("result: verified"), done.stdout


def test_a_link_in_the_log_folder_to_a_key_elsewhere_vouches_for_nothing(forged: Path, elsewhere: Path,
                                                                         floor: tuple[Path, dict[str, str]]) -> None:
    _, env = floor
    (forged / "link.pub").symlink_to(elsewhere)
    done = tablectl("review", forged, "--key", forged / "link.pub", env=env)
    assert done.returncode == 1 and "key_beside_log" in done.stdout, done.stdout


def test_export_refuses_a_link_in_the_log_folder_to_a_key_elsewhere(forged: Path, elsewhere: Path, tmp_path: Path,
                                                                    floor: tuple[Path, dict[str, str]]) -> None:
    _, env = floor
    (forged / "link.pub").symlink_to(elsewhere)
    done = tablectl("export", forged, "--to", tmp_path / "ds", "--key", forged / "link.pub", env=env)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "link.pub" in done.stderr, done.stderr
    assert not (tmp_path / "ds" / "_manifests").exists()


def test_anchor_refuses_a_link_in_the_log_folder_to_a_key_elsewhere(forged: Path, elsewhere: Path, tmp_path: Path,
                                                                    floor: tuple[Path, dict[str, str]]) -> None:
    _, env = floor
    (forged / "link.pub").symlink_to(elsewhere)
    done = tablectl("anchor", forged, "--anchor", tmp_path / "anchors.jsonl", "--key", forged / "link.pub", env=env)
    assert done.returncode == 2 and "link.pub" in done.stderr, done.stderr
    assert not (tmp_path / "anchors.jsonl").exists()


def test_a_key_through_a_linked_folder_inside_the_log_folder_vouches_for_nothing(
    forged: Path, elsewhere: Path, floor: tuple[Path, dict[str, str]],
) -> None:
    _, env = floor
    (forged / "keys").symlink_to(elsewhere.parent)
    done = tablectl("review", forged, "--key", forged / "keys" / "evil.pub", env=env)
    assert done.returncode == 1 and "key_beside_log" in done.stdout, done.stdout


def test_a_key_in_the_log_folders_parent_vouches_for_nothing(forged: Path, elsewhere: Path,
                                                             floor: tuple[Path, dict[str, str]]) -> None:
    _, env = floor
    above = forged.parent / "evil.pub"
    above.write_bytes(elsewhere.read_bytes())
    done = tablectl("review", forged, "--key", above, env=env)
    assert done.returncode == 1 and "key_beside_log" in done.stdout, done.stdout


def test_export_refuses_a_key_in_the_log_folders_parent(forged: Path, elsewhere: Path, tmp_path: Path,
                                                        floor: tuple[Path, dict[str, str]]) -> None:
    _, env = floor
    above = forged.parent / "evil.pub"
    above.write_bytes(elsewhere.read_bytes())
    done = tablectl("export", forged, "--to", tmp_path / "ds", "--key", above, env=env)
    assert done.returncode == 2 and "evil.pub" in done.stderr, done.stderr


def test_a_link_elsewhere_to_a_key_in_the_log_folder_vouches_for_nothing(forged: Path, tmp_path: Path,
                                                                         floor: tuple[Path, dict[str, str]]) -> None:
    _, env = floor
    link = tmp_path / "keys" / "table.pub"
    link.parent.mkdir()
    link.symlink_to(forged / "session.pub")
    done = tablectl("review", forged, "--key", link, env=env)
    assert done.returncode == 1 and "key_beside_log" in done.stdout, done.stdout
