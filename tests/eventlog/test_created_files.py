"""``tablectl.files``' primitives for making files: never through a link, lock files never
truncated, files written whole or not at all with their mode whatever the umask."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from tablectl import files
from tablectl.files import LinkRefusedError

KEPT = b"the victim's bytes\n"


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    path = tmp_path / "victim"
    path.write_bytes(KEPT)
    return path


@pytest.fixture
def umask_0() -> Iterator[None]:
    old = os.umask(0)
    try:
        yield
    finally:
        os.umask(old)


def planted(tmp_path: Path, victim: Path, name: str = "planted") -> Path:
    link = tmp_path / name
    link.symlink_to(victim)
    return link


def test_create_new_refuses_a_link_naming_it(tmp_path: Path, victim: Path) -> None:
    link = planted(tmp_path, victim)
    with pytest.raises(LinkRefusedError, match=f"^{link}: a symbolic link where tablectl writes its key"):
        files.create_new(link, 0o600, "key")
    assert victim.read_bytes() == KEPT


def test_create_new_refuses_a_dangling_link_without_making_its_target(tmp_path: Path) -> None:
    link = tmp_path / "planted"
    link.symlink_to(tmp_path / "made-through-the-link")
    with pytest.raises(LinkRefusedError):
        files.create_new(link, 0o600)
    assert not (tmp_path / "made-through-the-link").exists()


def test_open_for_append_refuses_an_existing_link(tmp_path: Path, victim: Path) -> None:
    with pytest.raises(LinkRefusedError):
        files.open_for_append_nofollow(planted(tmp_path, victim), 0o640)
    assert victim.read_bytes() == KEPT


def test_open_lock_refuses_a_link(tmp_path: Path, victim: Path) -> None:
    with pytest.raises(LinkRefusedError) as caught:
        files.open_lock(planted(tmp_path, victim, ".lock"), 0o644)
    assert caught.value.errno == errno.ELOOP and victim.read_bytes() == KEPT


def test_a_lock_file_with_more_than_a_pid_is_neither_truncated_nor_written(tmp_path: Path) -> None:
    lock = tmp_path / ".lock"
    lock.write_bytes(KEPT * 3)
    fd = files.open_lock(lock, 0o644)
    try:
        files.note_holder(fd)
    finally:
        os.close(fd)
    assert lock.read_bytes() == KEPT * 3


def test_a_lock_file_made_here_holds_the_pid(tmp_path: Path) -> None:
    fd = files.open_lock(tmp_path / ".lock", 0o644)
    try:
        files.note_holder(fd)
        assert files.read_holder(fd) == os.getpid()
    finally:
        os.close(fd)


def test_open_dir_refuses_a_link_below_the_users_folder_but_follows_the_users_own(tmp_path: Path) -> None:
    real = tmp_path / "real"
    (real / "inner").mkdir(parents=True)
    (tmp_path / "users-link").symlink_to(real)
    os.close(files.open_dir(tmp_path / "users-link" / "inner", within=tmp_path / "users-link"))
    (real / "planted").symlink_to(real / "inner")
    with pytest.raises(LinkRefusedError, match="planted: a symbolic link where tablectl writes its folder"):
        files.open_dir(real / "planted" / "more", within=real, mode=0o755)
    assert not (real / "inner" / "more").exists()


def test_open_dir_makes_missing_folders_with_their_mode_under_umask_0(tmp_path: Path, umask_0: None) -> None:
    os.close(files.open_dir(tmp_path / "a" / "b", within=tmp_path, mode=0o755))
    assert stat.S_IMODE((tmp_path / "a").stat().st_mode) == stat.S_IMODE((tmp_path / "a" / "b").stat().st_mode) == 0o755


def test_atomic_write_makes_the_file_with_its_mode_under_umask_0(tmp_path: Path, umask_0: None) -> None:
    files.atomic_write(tmp_path / "report.html", b"<p>", 0o640)
    assert stat.S_IMODE((tmp_path / "report.html").stat().st_mode) == 0o640


def test_atomic_write_never_makes_a_group_or_world_writable_file(tmp_path: Path, umask_0: None) -> None:
    files.atomic_write(tmp_path / "f", b"x", 0o666)
    assert stat.S_IMODE((tmp_path / "f").stat().st_mode) == 0o644


def test_atomic_write_refuses_a_link_at_the_name_and_leaves_no_temporary_file(tmp_path: Path, victim: Path) -> None:
    link = planted(tmp_path, victim, "report.html")
    with pytest.raises(LinkRefusedError):
        files.atomic_write(link, b"<p>", 0o640)
    assert victim.read_bytes() == KEPT and link.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.html", "victim"]


def test_a_new_file_discarded_leaves_nothing_and_the_old_file_whole(tmp_path: Path) -> None:
    (tmp_path / "page").write_bytes(KEPT)
    with files.NewFile(tmp_path, 0o640) as new:
        new.file.write(b"half a page")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["page"] and (tmp_path / "page").read_bytes() == KEPT


def test_new_files_get_unpredictable_names(tmp_path: Path) -> None:
    first, second = files.NewFile(tmp_path, 0o640), files.NewFile(tmp_path, 0o640)
    try:
        assert first.temp != second.temp and str(os.getpid()) not in first.temp
    finally:
        first.discard()
        second.discard()
