"""The dealers a simulated table signs in: ids of the table's own unless named (``--dealer``, the
config's ``[simulate] dealers``), so a floor of simulated tables never mixes two tables' dealers
in one dealer row."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson

from tablectl.eventlog.logformat import log_files

CONFIG = Path(__file__).resolve().parents[2] / "config" / "tables" / "one-card-poker.toml"


def _play(tmp_path: Path, config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tablectl", "run", str(config), "--simulate", "--headless",
                           "--autoplay", "40", "--seed", "5", "--log-dir", str(tmp_path / "logs"), *args],
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


def _dealers(tmp_path: Path) -> set[str]:
    lines = (orjson.loads(line) for files in log_files(tmp_path / "logs").values() for f in files
             for line in f.read_bytes().splitlines())
    return {e["dealer"] for e in lines if e.get("event") == "dealer_change"}


def test_a_simulated_table_signs_in_dealers_of_its_own_by_default(tmp_path: Path) -> None:
    assert _play(tmp_path, CONFIG).returncode == 0
    dealers = _dealers(tmp_path)
    assert dealers and all(d.startswith("ocp-1/") for d in dealers)


def test_the_dealers_named_with_dealer_take_their_turns(tmp_path: Path) -> None:
    assert _play(tmp_path, CONFIG, "--dealer", "D-07", "--dealer", "D-12").returncode == 0
    assert _dealers(tmp_path) <= {"D-07", "D-12"} and "D-07" in _dealers(tmp_path)


def test_the_configs_simulate_dealers_are_the_default(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text(CONFIG.read_text() + '\n[simulate]\ndealers = ["D-31"]\n')
    assert _play(tmp_path, config).returncode == 0
    assert _dealers(tmp_path) == {"D-31"}


def test_a_dealer_named_twice_is_refused_in_one_line(tmp_path: Path) -> None:
    done = _play(tmp_path, CONFIG, "--dealer", "D-07", "--dealer", "D-07")
    assert done.returncode == 2 and done.stderr.strip().splitlines() == ["tablectl: --dealer: a dealer id is listed twice"]
