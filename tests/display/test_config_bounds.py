"""``tablectl config check``: every configured number is bounded by what a table can mean, and a
production config is refused without a signing key or with ``fsync = false`` unless it says so.

The values below once passed ``config check`` and then wedged or crashed ``tablectl run``
(``shuffle_burns = 9223372036854775807``: MemoryError; ``1000000000``: 7.9 GB) or made ``config
check`` itself die with a traceback and exit 1 (``min_bet = inf``, ``"Infinity"``, ``"sNaN"``,
``"1e999999"``). Each is now one line naming the file and key, exit 2. The property test feeds
every key of a real config any TOML value and asks the same of all of them.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import tomllib
from datetime import date, datetime, time
from pathlib import Path
from typing import Any

import pytest
from atthekeys import tablectl_command
from click.testing import CliRunner
from confighelpers import one_line_refusal, write
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablectl.cli import main

REPO = Path(__file__).resolve().parents[2]
TABLES = REPO / "config" / "tables"
# the shipped example as a live table's config: without its demo mark
OCP = "\n".join(line for line in (TABLES / "one-card-poker.toml").read_text(encoding="utf-8").splitlines()
                if not line.startswith("demo = ")) + "\n"
EXE = tablectl_command()


def run_check(path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [EXE, "config", "check", *options, str(path)], capture_output=True, text=True, timeout=60, env={**os.environ, "COLUMNS": "200"}
    )


def assert_refused(proc: subprocess.CompletedProcess[str], path: Path, key: str, reason: str) -> None:
    line = one_line_refusal(proc, f"{path}: {key}: ")
    assert reason in line, line


@pytest.mark.parametrize(
    ("old", "new", "key", "reason"),
    [
        ("shuffle_burns = 1 ", "shuffle_burns = 9223372036854775807 ", "house_rules.shuffle_burns", "expected 0 to 10"),
        ("shuffle_burns = 1 ", "shuffle_burns = 1000000000 ", "house_rules.shuffle_burns", "expected 0 to 10"),
        ("war_burns = 3 ", "war_burns = 11 ", "house_rules.war_burns", "expected 0 to 10"),
        ("war_reserve = 3 ", "war_reserve = 1000000 ", "house_rules.war_reserve", "expected 0 to 10"),
        ("any_tie = 4", "any_tie = 100001", "pay_tables.tie_wager.any_tie", "expected 0 to 100,000"),
        ("min_bet = 5 ", "min_bet = inf ", "min_bet", "above 0 and at most 1,000,000"),
        ("min_bet = 5 ", "min_bet = nan ", "min_bet", "above 0 and at most 1,000,000"),
        ("min_bet = 5 ", 'min_bet = "Infinity" ', "min_bet", "above 0 and at most 1,000,000"),
        ("min_bet = 5 ", 'min_bet = "sNaN" ', "min_bet", "above 0 and at most 1,000,000"),
        ("min_bet = 5 ", 'min_bet = "1e999999" ', "min_bet", "above 0 and at most 1,000,000"),
        ("max_bet = 500", "max_bet = 1000001", "max_bet", "at most 1,000,000"),
        ("min_bet = 5 ", "min_bet = 5.50 ", "min_bet", "whole dollars"),
        ("decks = 6", "decks = 9223372036854775807", "decks", "at most 8"),
        ("penetration_cap = 90", "penetration_cap = nan", "penetration_cap", "above 0 and at most 100"),
        ('rotate = "shoe"', 'rotate = "shoe"\ncheckpoint_every = 1000000001', "log.checkpoint_every", "less than or equal to 1000000"),
        ('dir = "logs/ocp-1"', 'dir = "logs/\\u001b[2J"', "log.dir", "without control characters"),
    ],
    ids=lambda v: v if isinstance(v, str) and "\n" not in v and len(v) < 40 else None,
)
def test_an_absurd_value_is_one_line_naming_file_and_key_exit_2(tmp_path: Path, old: str, new: str, key: str, reason: str) -> None:
    assert old in OCP
    path = write(tmp_path, OCP.replace(old, new, 1))
    assert_refused(run_check(path, "--simulate"), path, key, reason)


def test_the_bounds_themselves_are_accepted(tmp_path: Path) -> None:
    text = (
        OCP.replace("shuffle_burns = 1 ", "shuffle_burns = 10 ")
        .replace("war_reserve = 3 ", "war_reserve = 10 ")
        .replace("any_tie = 4", "any_tie = 100000")
        .replace("max_bet = 500", "max_bet = 1000000")
        .replace("min_bet = 5 ", "min_bet = 1 ")
    )
    proc = run_check(write(tmp_path, text), "--simulate")
    assert (proc.returncode, proc.stderr) == (0, "")


def test_run_refuses_an_absurd_burn_count_at_once_with_exit_2(tmp_path: Path) -> None:
    path = write(tmp_path, OCP.replace("shuffle_burns = 1 ", "shuffle_burns = 9223372036854775807 "))
    proc = subprocess.run(
        [EXE, "run", str(path), "--simulate", "--headless", "--autoplay", "1", "--log-dir", str(tmp_path / "logs")],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr == f"tablectl: {path}: house_rules.shuffle_burns: 9223372036854775807: expected 0 to 10 (burns)\n"


# --- production ---------------------------------------------------------------------------------


SUPERVISED = "allow_no_supervisors = true  # the rules below are what these tests are about\n"


def test_a_production_config_without_a_signing_key_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, SUPERVISED + OCP)  # the example has no signing key
    assert_refused(run_check(path), path, "log.signing_key", "set log.allow_unsigned = true")


def test_a_production_config_with_fsync_off_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, SUPERVISED + OCP.replace('rotate = "shoe"', 'rotate = "shoe"\nsigning_key = "/etc/tablectl/t.key"\nfsync = false'))
    assert_refused(run_check(path), path, "log.fsync", "set log.allow_no_fsync = true")


def test_a_production_config_may_allow_either_by_name(tmp_path: Path) -> None:
    path = write(tmp_path, SUPERVISED + OCP.replace('rotate = "shoe"', 'rotate = "shoe"\nfsync = false\nallow_unsigned = true\nallow_no_fsync = true'))
    proc = run_check(path)
    assert (proc.returncode, proc.stderr) == (0, "")


def test_a_simulated_run_is_checked_without_the_production_rules(tmp_path: Path) -> None:
    path = write(tmp_path, OCP.replace('rotate = "shoe"', 'rotate = "shoe"\nfsync = false'))
    proc = run_check(path, "--simulate")
    assert (proc.returncode, proc.stderr) == (0, "")


# --- any value of any key -------------------------------------------------------------------------


def toml_value(value: Any) -> str:
    """``value`` as TOML (inline)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    if isinstance(value, (int, datetime, date, time)):
        return value.isoformat() if not isinstance(value, int) else str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"


def toml_document(data: dict[str, Any]) -> str:
    return "\n".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in data.items()) + "\n"


def keys_of(data: dict[str, Any], prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    out = []
    for k, v in data.items():
        out.append((*prefix, k))
        if isinstance(v, dict):
            out += keys_of(v, (*prefix, k))
    return out


SHIPPED = {p.stem: tomllib.loads(p.read_text(encoding="utf-8")) for p in sorted(TABLES.glob("*.toml"))}
PRODUCTION = tomllib.loads((REPO / "config" / "production.toml").read_text(encoding="utf-8"))
EDGE_STRINGS = ["Infinity", "-Infinity", "NaN", "sNaN", "1e999999", "-0", "0x10", "1_000", " 5", "5.", "", "\x1b[2J", "\u202e"]
EDGE_NUMBERS = [0, -1, 1, 2**31, 2**63 - 1, -(2**63), 10**18, 0.0, -0.0, 1e-320, 1e308, math.inf, -math.inf, math.nan, 0.5, 5.5, 5.005]
scalars = st.one_of(
    st.sampled_from(EDGE_NUMBERS),
    st.sampled_from(EDGE_STRINGS),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12),
    st.booleans(),
    st.dates(),
    st.datetimes(),
)
names = st.text(max_size=5) | st.sampled_from(["a\nb", "\x1b[2J", "shuffle_burns", "any_tie"])
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(names, inner, max_size=3), max_leaves=6)


def with_value(data: dict[str, Any], key: tuple[str, ...], value: Any) -> dict[str, Any]:
    data = json.loads(json.dumps(data, default=str))  # a deep copy (the configs hold no dates)
    node = data
    for k in key[:-1]:
        node = node[k]
    node[key[-1]] = value
    return data


CASES = [(name, key) for name, data in SHIPPED.items() for key in keys_of(data)] + [("production", key) for key in keys_of(PRODUCTION)]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=st.sampled_from(CASES + [(name, (*key[:-1], "a\nb")) for name, key in CASES[:40]]), value=values, simulate=st.booleans())
def test_no_value_of_any_key_makes_config_check_traceback(tmp_path: Path, case: tuple[str, tuple[str, ...]], value: Any, simulate: bool) -> None:
    name, key = case
    base = PRODUCTION if name == "production" else SHIPPED[name]
    path = write(tmp_path, toml_document(with_value(base, key, value)))
    result = CliRunner().invoke(main, ["config", "check", *(["--simulate"] if simulate else []), str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (0, 2), result.output
    if result.exit_code == 2:
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"tablectl: {path}: "), result.stderr
        assert lines[0].isprintable(), lines[0]


# --- command-line numbers -------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["inf", "nan", "1e999", "-inf", "61"])
def test_devices_watch_refuses_an_answer_timeout_that_is_not_a_finite_number_of_seconds(value: str) -> None:
    proc = subprocess.run(
        [EXE, "devices", "watch", "shoe", "/dev/tablectl-test-no-such-port", "--answer-timeout", value],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 2  # a usage error: the port was never opened (that would be exit 4)
    assert "--answer-timeout" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize(("option", "value"), [("--pace", "inf"), ("--pace", "nan"), ("--mistakes", "nan")])
def test_run_refuses_a_number_option_that_is_not_finite(tmp_path: Path, option: str, value: str) -> None:
    path = write(tmp_path, OCP)
    proc = subprocess.run([EXE, "run", str(path), "--simulate", "--headless", option, value], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and option in proc.stderr and "Traceback" not in proc.stderr
