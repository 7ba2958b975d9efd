"""``tablectl math`` never computes in silence: a count that takes seconds the first time on a
machine (Three Card Poker's advantage-play figures) says on stderr that it counts, shows its
share done and ETA (``--progress``, as on a terminal), and how long it took; read back from the
cache, nothing is said."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest


def math(cache: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tablectl", "math", "three-card-poker", *args],
                          env={**os.environ, "XDG_CACHE_HOME": str(cache)}, capture_output=True, text=True,
                          check=False, timeout=600)


@pytest.fixture(scope="module")
def first(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """The first run on a machine: (its cache, the run)."""
    cache = tmp_path_factory.mktemp("cache")
    return cache, math(cache, "--progress")


def test_the_first_count_says_so_shows_its_progress_and_eta_and_how_long_it_took(
        first: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    done = first[1]
    assert done.returncode == 0, done.stderr
    first = done.stderr.lstrip("\n\x1b[K")  # a terminal's line wiped first (text mode reads its \r as \n)
    assert first.startswith("tablectl: counting three-card-poker's advantage-play figures")
    assert "%, " in done.stderr and ", ETA " in done.stderr
    assert re.search(r"\x1b\[Ktablectl: three-card-poker's advantage-play figures counted in \d+ s\n\Z", done.stderr)


def test_figures_read_from_the_cache_are_shown_without_a_word_on_stderr(
        first: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    done = math(first[0], "--progress")
    assert (done.returncode, done.stderr) == (0, "")
