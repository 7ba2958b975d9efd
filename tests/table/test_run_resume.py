"""A simulated table run again into the same log directory carries on from it: the session key is
reused, the simulator's event counter continues from the log, round numbers go on, and the whole
log verifies under the one public key."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tablectl.eventlog import iter_events, load_public_key
from tablectl.eventlog.verify import verify

CONFIG = Path(__file__).resolve().parents[2] / "config" / "tables" / "one-card-poker.toml"


def _run(log_dir: Path, rounds: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tablectl", "run", str(CONFIG), "--simulate", "--headless",
         "--autoplay", str(rounds), "--seed", "3", "--log-dir", str(log_dir)],
        capture_output=True, text=True, timeout=120,
    )


def test_a_second_simulated_run_carries_on_the_same_log(tmp_path: Path) -> None:
    first, second = _run(tmp_path, 3), _run(tmp_path, 3)
    assert (first.returncode, second.returncode) == (0, 0), second.stderr
    assert "new session key" in first.stderr and "new session key" not in second.stderr

    records = list(iter_events([tmp_path]))
    rounds = [r["round"] for r in records if r["event"] == "round_started"]
    assert rounds == [1, 2, 3, 4, 5, 6]
    numbers = [r["event_no"] for r in records if r.get("device") == "shoe" and r.get("event_no")]
    assert numbers == sorted(set(numbers))  # one counter across both runs: no number twice
    report = verify([tmp_path], load_public_key(tmp_path / "session.pub"))
    assert report.ok, [str(f) for f in report.findings]
