"""A simulated table run again into the same log directory carries on from it: the session key is
reused, the simulator's event counter continues from the log, round numbers go on, and the whole
log verifies under the one public key."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tablectl.eventlog import iter_events, keyring
from tablectl.eventlog.verify import verify

CONFIG = Path(__file__).resolve().parents[2] / "config" / "tables" / "one-card-poker.toml"


def _run(tmp_path: Path, rounds: int) -> subprocess.CompletedProcess[str]:
    """A simulated run into ``tmp_path/logs``, its key and keyring in ``tmp_path`` too."""
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state"), "TABLECTL_KEYRING": str(tmp_path / "keyring")}
    return subprocess.run(
        [sys.executable, "-m", "tablectl", "run", str(CONFIG), "--simulate", "--headless",
         "--autoplay", str(rounds), "--seed", "3", "--log-dir", str(tmp_path / "logs")],
        capture_output=True, text=True, timeout=120, env=env,
    )


def test_a_second_simulated_run_carries_on_the_same_log(tmp_path: Path) -> None:
    first, second = _run(tmp_path, 3), _run(tmp_path, 3)
    assert (first.returncode, second.returncode) == (0, 0), second.stderr
    assert "new session key" in first.stderr and "new session key" not in second.stderr

    records = list(iter_events([tmp_path / "logs"]))
    rounds = [r["round"] for r in records if r["event"] == "round_started"]
    assert rounds == [1, 2, 3, 4, 5, 6]
    numbers = [r["event_no"] for r in records if r.get("device") == "shoe" and r.get("event_no")]
    assert numbers == sorted(set(numbers))  # one counter across both runs: no number twice
    report = verify([tmp_path / "logs"], keyring.trust(tmp_path / "keyring", "ocp-1"))
    assert report.ok, [str(f) for f in report.findings]
