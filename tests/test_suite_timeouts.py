"""A hung test ends with its name and every thread's stack, in a parallel run as in a serial one."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HANGS = '''
import threading, time, pytest

@pytest.mark.timeout(1)
def test_hangs():
    threading.Thread(target=time.sleep, args=(60,), name="helper-thread", daemon=True).start()
    time.sleep(60)
'''


@pytest.mark.parametrize("workers", ["0", "2"])
def test_a_hung_test_is_named_with_every_threads_stack(tmp_path: Path, workers: str) -> None:
    (tmp_path / "test_hangs.py").write_text(HANGS)
    shutil.copy(Path(__file__).with_name("conftest.py"), tmp_path / "conftest.py")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", workers,
                           "-o", "timeout_method=thread", "test_hangs.py"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    out = done.stdout + done.stderr
    assert done.returncode != 0
    assert "test_hangs" in out and "Timeout" in out
    assert "time.sleep" in out or "in test_hangs" in out  # the hung test's own frame
    assert out.count("File ") >= 2 and ("helper-thread" in out or "Thread 0x" in out)  # other threads too
