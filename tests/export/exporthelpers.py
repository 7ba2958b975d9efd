"""Helpers of the surveillance tests (``from exporthelpers import ...``): ``tablectl`` run as a
user runs it, in a subprocess."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

THB_MAIN = Path(__file__).parent / "data" / "thb-main.json"  # the main game's stored analysis


@dataclass
class Done:
    """A finished ``tablectl`` run."""

    code: int
    out: str
    err: str


Tablectl = Callable[..., Done]


def run_tablectl(*args: str | Path, timeout: float = 600) -> Done:
    """``python -m tablectl ARGS`` of this interpreter; its exit code, stdout and stderr."""
    proc = subprocess.run([sys.executable, "-m", "tablectl", *map(str, args)], capture_output=True, text=True,
                          timeout=timeout)
    return Done(proc.returncode, proc.stdout, proc.stderr)
