"""``tablectl review`` into a pipe whose reader has gone (``review LOG | head``): one line and
exit 5 (the output could not be written), never exit 1, which for review means "anomalies"."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_review_into_a_closed_pipe_exits_5_in_one_line(clean_log: tuple[Path, Path]) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "tablectl", "review", str(clean_log[0]), "--key", str(clean_log[1])],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # before review writes anything
    err = proc.stderr.read()
    assert (proc.wait(timeout=120), err) == (5, "tablectl: cannot write the output: Broken pipe\n")
