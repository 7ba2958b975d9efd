"""Helpers of the config tests (``from confighelpers import ...``): a valid production-shaped table
config, writing a config to a file, running ``tablectl`` as a process with a timeout, and reading
its one-line refusal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

#: a valid One Card Poker config of production shape (signing key, supervisors not required)
VALID = """\
allow_no_supervisors = true
table = "ocp-1"
game = "one-card-poker"
decks = 6
penetration_cap = 90
seats = 7
min_bet = 5
max_bet = 500

[devices.shoe]
driver = "shoe"
address = "/dev/ttyUSB0"

[log]
dir = "/var/lib/tablectl/ocp-1"
signing_key = "/etc/tablectl/ocp-1.key"
"""


def write(tmp_path: Path, text: str, name: str = "table.toml") -> Path:
    """``text`` written to ``tmp_path/name``; its path."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def tablectl_process(*args: str, timeout: float = 20) -> subprocess.CompletedProcess[str]:
    """``python -m tablectl ARGS`` of this interpreter, stdin closed; fails the test past ``timeout`` s
    (a refusal takes far less, a hang far more)."""
    return subprocess.run([sys.executable, "-m", "tablectl", *args], capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def one_line_refusal(proc: subprocess.CompletedProcess[str], prefix: str) -> str:
    """The single stderr line of an exit-2 refusal that starts with ``tablectl: <prefix>``
    (nothing on stdout, no traceback)."""
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stdout == "", proc.stdout
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"tablectl: {prefix}"), lines[0]
    return lines[0]
