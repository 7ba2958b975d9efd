"""``tablectl review --html FILE`` writes its page whole or not at all, and never through a link:
on a full disk (a small tmpfs: root only, skipped otherwise) one line, exit 5, the old page kept;
a link at FILE is refused in one line and what it points at is left alone."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tablectl.eventlog import save_keypair

OLD_PAGE = b"<!doctype html><p>last week's review</p>\n"


def review_html(log: Path, pub: Path, page: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tablectl", "review", str(log), "--key", str(pub), "--html", str(page)],
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)


@pytest.fixture
def pub(tmp_path: Path, key) -> Path:  # type: ignore[no-untyped-def]
    return save_keypair(tmp_path / "keys", key).public


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
        subprocess.run(["umount", str(where)], check=False)


def test_review_html_on_a_full_disk_leaves_the_old_page_and_says_so_in_one_line(
        signed_log: Path, pub: Path, small_fs: Path) -> None:
    page = small_fs / "review.html"
    page.write_bytes(OLD_PAGE)
    with contextlib.suppress(OSError), open(small_fs / "filler", "wb", buffering=0) as f:
        while True:
            f.write(b"\0" * 4096)
    done = review_html(signed_log, pub, page)
    assert done.returncode == 5, done.stderr
    assert done.stderr == f"tablectl: no space left on device: {page}: the HTML report is not written\n"
    assert page.read_bytes() == OLD_PAGE
    assert sorted(p.name for p in small_fs.iterdir()) == ["filler", "review.html"]


def test_review_html_refuses_a_link_in_place_of_the_page_and_leaves_its_target(
        signed_log: Path, pub: Path, tmp_path: Path) -> None:
    victim = tmp_path / "anchors.jsonl"
    victim.write_bytes(b"kept\n")
    page = tmp_path / "review.html"
    page.symlink_to(victim)
    done = review_html(signed_log, pub, page)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"tablectl: {page}: a symbolic link") and done.stderr.count("\n") == 1, done.stderr
    assert victim.read_bytes() == b"kept\n"
