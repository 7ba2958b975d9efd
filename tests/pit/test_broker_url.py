"""``tablectl pit URL`` refuses at the start a broker URL that cannot be valid, as every command
that takes a broker URL does, instead of retrying it for ever as an unreachable broker."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import isolated_env


@pytest.mark.parametrize(("url", "why"), [
    ("nats://127.0.0.1:99999", "not a broker URL"),
    ("nats://", "not a broker URL"),
])
def test_a_broker_url_that_cannot_be_valid_is_refused_in_one_line_with_exit_2(tmp_path: Path, url: str, why: str) -> None:
    r = subprocess.run([sys.executable, "-m", "tablectl", "pit", url, "--listen", "127.0.0.1:0"],
                       capture_output=True, text=True, timeout=60, env=isolated_env(tmp_path), check=False)
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and url in lines[0] and why in lines[0], lines
    assert "serving" not in r.stdout
