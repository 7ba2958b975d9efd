"""Once a ``tablectl`` command has ended, its exit code stands: a SIGTERM or Ctrl-C that lands
while the interpreter exits (after it has put back the default action of the signals Python
handled) neither kills the process by the signal nor changes the code."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

# An object the interpreter destroys last, while it tears its modules down, sends the signal then.
_PROGRAM = """
import os, signal, sys, time
from tablectl.cli import entry

class SignalAtTeardown:
    def __del__(self):
        os.kill(os.getpid(), signal.{name})
        time.sleep(0.2)

keep = SignalAtTeardown()
sys.argv = ["tablectl", "--version"]
entry()
"""


@pytest.mark.parametrize("name", ["SIGTERM", "SIGINT"])
def test_a_signal_during_the_interpreters_exit_leaves_the_commands_exit_code(name: str) -> None:
    done = subprocess.run([sys.executable, "-c", _PROGRAM.format(name=name)], capture_output=True, text=True,
                          timeout=60, check=False)
    assert (done.returncode, done.stderr) == (0, ""), signal.Signals(-done.returncode).name if done.returncode < 0 else done
    assert "tablectl" in done.stdout
