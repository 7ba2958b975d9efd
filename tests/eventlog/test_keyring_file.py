"""What the keyring refuses to trust when it reads its files, at the front door (``tablectl keyring``,
``tablectl review``): a folder or file others may write, two keys of a table from one seq, a seq no
log line can carry. Each refusal is one line naming the path and what is wrong, exit 2."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tablectl.cli import main
from tablectl.eventlog import generate_key, key_id, save_keypair
from tablectl.eventlog import keyring as kr
from tablectl.eventlog.keys import public_bytes


def tablectl(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


def one_line(result: Result) -> str:
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1 and "Traceback" not in result.output, result.output
    return result.output


@pytest.fixture
def ring(tmp_path: Path) -> Path:
    """A keyring holding one key of table T1, as ``tablectl keyring add`` writes it."""
    directory = tmp_path / "ring"
    kr.enrol(directory, "T1", generate_key().public_key())
    return directory


def test_a_world_writable_keyring_folder_is_refused_naming_it_and_its_mode(ring: Path) -> None:
    os.chmod(ring, 0o777)
    line = one_line(tablectl("keyring", "list", "--keyring", ring))
    assert f"{ring}:" in line and "0777" in line


def test_a_group_writable_keyring_file_is_refused_naming_it_and_its_mode(ring: Path) -> None:
    os.chmod(ring / "T1.toml", 0o666)
    line = one_line(tablectl("keyring", "list", "--keyring", ring))
    assert f"{ring / 'T1.toml'}:" in line and "0666" in line


def test_review_refuses_a_keyring_others_may_write(ring: Path, signed_log: Path) -> None:
    os.chmod(ring / "T1.toml", 0o666)
    line = one_line(tablectl("review", signed_log, "--keyring", ring))
    assert "0666" in line


def test_enrolling_into_a_world_writable_keyring_folder_is_refused(ring: Path, tmp_path: Path) -> None:
    os.chmod(ring, 0o777)
    pub = save_keypair(tmp_path / "keys").public
    line = one_line(tablectl("keyring", "add", "T2", pub, "--keyring", ring))
    assert "0777" in line
    assert not (ring / "T2.toml").exists()


def hand_edited(directory: Path, table: str, *entries: tuple[str, int]) -> Path:
    """A keyring file written by hand: one ``[[keys]]`` table per (public hex, from_seq)."""
    directory.mkdir(mode=0o755, exist_ok=True)
    text = f'table = "{table}"\n'
    for public, from_seq in entries:
        text += f'\n[[keys]]\npublic = "{public}"\nfrom_seq = {from_seq}\n'
    path = directory / f"{table}.toml"
    path.write_text(text)
    os.chmod(path, 0o644)
    return path


def test_two_keys_of_a_table_from_the_same_seq_are_refused_naming_the_table_and_line(tmp_path: Path) -> None:
    one, two = (public_bytes(generate_key().public_key()).hex() for _ in range(2))
    path = hand_edited(tmp_path / "ring", "T1", (one, 1), (two, 1))
    line = one_line(tablectl("keyring", "list", "--keyring", tmp_path / "ring"))
    assert f"{path}:9:" in line and "table T1" in line and "seq 1" in line  # the second entry's from_seq


def test_a_hand_edited_seq_past_what_a_log_line_carries_is_refused(tmp_path: Path) -> None:
    path = hand_edited(tmp_path / "ring", "T1", (public_bytes(generate_key().public_key()).hex(), 2**70))
    line = one_line(tablectl("keyring", "list", "--keyring", tmp_path / "ring"))
    assert str(path) in line and "from_seq" in line


def test_a_misspelt_field_of_a_hand_edited_key_is_refused_not_ignored(tmp_path: Path) -> None:
    path = hand_edited(tmp_path / "ring", "T1", (public_bytes(generate_key().public_key()).hex(), 1))
    path.write_text(path.read_text() + "until_sq = 5\n")  # meant: until_seq, the key's retirement
    line = one_line(tablectl("keyring", "list", "--keyring", tmp_path / "ring"))
    assert str(path) in line and "until_sq" in line


def test_a_field_outside_the_keys_of_a_keyring_file_is_refused(tmp_path: Path) -> None:
    path = hand_edited(tmp_path / "ring", "T1", (public_bytes(generate_key().public_key()).hex(), 1))
    path.write_text("until_seq = 5\n" + path.read_text())  # above every [[keys]]: applies to none
    line = one_line(tablectl("keyring", "list", "--keyring", tmp_path / "ring"))
    assert str(path) in line and "until_seq" in line


@pytest.mark.parametrize("option", ["--from-seq", "--until-seq"])
def test_keyring_add_refuses_a_seq_past_64_bits_in_one_line(option: str, tmp_path: Path) -> None:
    pub = save_keypair(tmp_path / "keys").public
    line = one_line(tablectl("keyring", "add", "T1", pub, option, str(2**70), "--keyring", tmp_path / "ring"))
    assert option in line and str(2**70) in line
    assert not (tmp_path / "ring" / "T1.toml").exists()


def test_keyring_add_refuses_seq_0_in_one_line(tmp_path: Path) -> None:
    pub = save_keypair(tmp_path / "keys").public
    line = one_line(tablectl("keyring", "add", "T1", pub, "--from-seq", "0", "--keyring", tmp_path / "ring"))
    assert "--from-seq" in line


def test_keyring_retire_refuses_a_seq_past_64_bits_in_one_line(ring: Path) -> None:
    [enrolled] = kr.load(ring, "T1")
    line = one_line(tablectl("keyring", "retire", "T1", enrolled.key_id, "--after-seq", str(2**70), "--keyring", ring))
    assert "--after-seq" in line
    assert kr.load(ring, "T1")[0].until_seq is None


def test_a_keyring_as_tablectl_writes_it_is_read(ring: Path) -> None:
    result = tablectl("keyring", "list", "--keyring", ring)
    assert result.exit_code == 0 and key_id(kr.load(ring, "T1")[0].key) in result.output, result.output


def test_a_keyring_file_with_no_keys_left_reads_as_no_enrolment(tmp_path: Path) -> None:
    folder = tmp_path / "keyring"
    folder.mkdir(mode=0o700)
    (folder / "t1.toml").write_text('table = "t1"  # every key removed by hand\n')
    (folder / "t1.toml").chmod(0o600)
    assert kr.load(folder, "t1") == []


def test_a_link_planted_at_the_keyring_lock_is_refused_and_its_target_untouched(ring: Path, tmp_path: Path) -> None:
    victim = tmp_path / "anchors.jsonl"
    victim.write_text("history\n")
    (ring / ".lock").unlink(missing_ok=True)
    (ring / ".lock").symlink_to(victim)
    pub = save_keypair(tmp_path / "keys").public
    line = one_line(tablectl("keyring", "add", "T2", pub, "--keyring", ring))
    assert ".lock" in line and victim.read_text() == "history\n"
    assert not (ring / "T2.toml").exists()
