"""``tablectl run CONFIG --simulate --headless --autoplay N`` and ``tablectl diagram``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tablectl.cli import main
from tablectl.eventlog.verify import iter_events
from tablectl.table.lifecycle import mermaid
from tablectl.table.simulated.virtual_dealer import EXPECTED_VIOLATION

CONFIGS = Path(__file__).resolve().parents[2] / "config" / "tables"


def run(*args: str):
    return CliRunner().invoke(main, ["run", *args], catch_exceptions=False)


def test_autoplay_on_simulated_devices_exits_0(tmp_path):
    result = run(str(CONFIGS / "three-card-poker.toml"), "--simulate", "--headless", "--autoplay", "12", "--seed", "4", "--log-dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    records = list(iter_events([tmp_path]))
    assert len([r for r in records if r["event"] == "round_started"]) == 12
    assert not [r for r in records if r["event"] == "violation"]


def test_mistakes_are_written_to_the_mistakes_log_and_flagged(tmp_path):
    mistakes = tmp_path / "mistakes.jsonl"
    result = run(
        str(CONFIGS / "one-card-poker.toml"), "--simulate", "--headless", "--autoplay", "60", "--seed", "5",
        "--log-dir", str(tmp_path / "log"), "--mistakes", "0.3", "--mistakes-log", str(mistakes),
    )
    assert result.exit_code == 0, result.output
    made = [json.loads(line) for line in mistakes.read_text().splitlines()]
    flagged = {(r["round"], r["kind"]) for r in iter_events([tmp_path / "log"]) if r["event"] == "violation"}
    assert made and all((m["round"], EXPECTED_VIOLATION[m["kind"]]) in flagged for m in made)


def test_a_bad_config_is_one_line_and_exit_2(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text((CONFIGS / "one-card-poker.toml").read_text().replace("decks = 6", "decks = -1"))
    result = CliRunner().invoke(main, ["run", str(bad), "--simulate", "--headless", "--autoplay", "1"])
    assert result.exit_code == 2
    assert result.output.strip() == f"tablectl: {bad}: decks: must be at least 1, not -1"


@pytest.mark.parametrize(
    "args",
    [
        ["--headless", "--autoplay", "1"],  # the virtual dealer needs simulators
        ["--simulate", "--headless", "--autoplay", "1", "--mistakes", "0.1"],  # without --mistakes-log
    ],
)
def test_option_combinations_that_cannot_run_exit_2(args):
    result = CliRunner().invoke(main, ["run", str(CONFIGS / "one-card-poker.toml"), *args])
    assert result.exit_code == 2 and result.output.startswith("tablectl: ")


def test_the_command_runs_a_table_in_its_own_process(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", "from tablectl.cli import main; main()", "run", str(CONFIGS / "one-for-the-money-csm.toml"), "--simulate", "--headless",
         "--autoplay", "5", "--seed", "9", "--log-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "5 rounds" in done.stdout


def test_diagram_prints_the_machine_as_mermaid():
    result = CliRunner().invoke(main, ["diagram"])
    assert result.exit_code == 0 and result.output == mermaid()
