"""The terminal goes away under the live display (an SSH session drops, a tmux session is
killed): the kernel hangs up the pty and sends SIGHUP. The table stops cleanly, as on SIGTERM:
exit 130, no traceback, the log closed with ``table_stopped`` naming SIGHUP and the shutdown
checkpoint. Nothing can restore a terminal that no longer exists, so the display does not try.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from atthekeys import Terminal, tablectl_command, wait_for

from tablectl.eventlog.verify import iter_events

REPO = Path(__file__).resolve().parents[2]
CONFIG = REPO / "config" / "tables" / "one-card-poker.toml"


def _exit_code(t: Terminal, timeout: float) -> int | None:
    """The command's exit code once it ends within ``timeout`` s, else None."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done, status = os.waitpid(t.pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.02)
    return None


def test_closing_the_terminal_stops_the_table_with_exit_130_no_traceback_and_the_log_closed(tmp_path: Path) -> None:
    stderr = tmp_path / "stderr"  # the terminal is gone: what the command says after it lands here
    log_dir = tmp_path / "logs"
    command = [tablectl_command(), "run", str(CONFIG), "--simulate", "--seed", "1", "--log-dir", str(log_dir)]
    t = Terminal(["/bin/sh", "-c", 'exec "$@" 2>"$0"', str(stderr), *command], rows=40, cols=120)
    code: int | None = None
    try:
        wait_for(t, lambda s: True)  # the display is up, its terminal in cbreak mode
        os.close(t.master)  # the terminal goes away: the kernel hangs it up and sends SIGHUP
        code = _exit_code(t, 30)
    finally:
        if code is None:
            os.killpg(t.pid, signal.SIGKILL)
            os.waitpid(t.pid, 0)
    said = stderr.read_text(encoding="utf-8", errors="replace")
    assert code == 130, said[-3000:]
    assert "Traceback" not in said, said[-3000:]
    last = list(iter_events(sorted(log_dir.glob("*.jsonl"))))[-3:]
    assert [e["event"] for e in last] == ["table_stopped", "state", "checkpoint"]
    assert (last[0]["reason"], last[0]["signal"], last[2]["reason"]) == ("signal", "SIGHUP", "shutdown")
