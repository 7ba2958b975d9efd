"""``tablectl floor --html``'s page: 0640 whatever the umask (never group- or world-writable), and
written whole or not at all: on a full disk (a real one, a small tmpfs: root only, skipped
otherwise) the command says so in one line, exits 5, and the page from before is left as it was."""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

OLD_PAGE = b"<!doctype html><p>yesterday's floor report</p>\n"


def floor(dataset: Path, page: Path, umask: int = -1) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tablectl", "floor", str(dataset), "--html", str(page)],
                          capture_output=True, text=True, timeout=600, umask=umask)


@contextlib.contextmanager
def tiny_tmpfs(where: Path, size: str) -> Iterator[Path]:
    where.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                                           capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here (needs root)")
    try:
        yield where
    finally:
        subprocess.run(["umount", str(where)], check=False)


def fill(directory: Path) -> None:
    """Take every free byte of the filesystem of *directory*."""
    with contextlib.suppress(OSError), open(directory / "filler", "wb", buffering=0) as f:
        while True:
            f.write(b"\0" * 4096)


def test_the_floor_html_page_is_0640_under_umask_0(exported: Path, tmp_path: Path) -> None:
    page = tmp_path / "floor.html"
    done = floor(exported, page, umask=0)
    assert done.returncode == 1, done.stderr  # the small floor's planted dealer is flagged
    assert stat.S_IMODE(page.stat().st_mode) == 0o640


def test_the_floor_html_page_on_a_full_disk_leaves_the_old_page_and_says_so_in_one_line(
        exported: Path, tmp_path: Path) -> None:
    dataset = tmp_path / "ds"
    shutil.copytree(exported, dataset)  # with its game math cached: the dataset is not on the full disk
    with tiny_tmpfs(tmp_path / "disk", "64k") as disk:
        page = disk / "floor.html"
        page.write_bytes(OLD_PAGE)
        fill(disk)
        done = floor(dataset, page)
        assert done.returncode == 5, done.stderr
        assert done.stderr == f"tablectl: no space left on device: {page}: the HTML report is not written\n"
        assert page.read_bytes() == OLD_PAGE
        assert sorted(p.name for p in disk.iterdir()) == ["filler", "floor.html"]  # no temporary file left
