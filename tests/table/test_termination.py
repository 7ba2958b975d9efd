"""A SIGTERM stops ``tablectl run`` with exit 130 wherever it lands in the main thread, also
inside code the interpreter runs from a string (``exec``, which ``dataclasses`` and ``namedtuple``
use to make a class): there a bare ``KeyboardInterrupt`` makes the interpreter kill itself with
SIGINT at exit, whatever exit code the program chose."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

_PROGRAM = '''
import os, signal, sys, threading
from tablectl.commands.run import _Termination

termination = _Termination()
try:
    termination.arm()
    threading.Timer(0.1, os.kill, (os.getpid(), signal.SIGTERM)).start()
    while True:
        exec("x = sum(range(5000))")
except KeyboardInterrupt:
    sys.exit(130)
'''


def test_a_sigterm_inside_code_run_from_a_string_still_exits_130(tmp_path: Path) -> None:
    (tmp_path / "stopped_in_exec.py").write_text(_PROGRAM)
    codes = [subprocess.run([sys.executable, "-m", "stopped_in_exec"], cwd=tmp_path, capture_output=True, timeout=60).returncode
             for _ in range(5)]
    assert codes == [130] * 5
