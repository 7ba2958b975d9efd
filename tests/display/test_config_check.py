"""``tablectl config check CONFIG``: exit 0 and a summary for a valid config; exit 2 and one line
(file, key, reason) for each kind of bad configuration, never a traceback."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from atthekeys import tablectl_command
from click.testing import CliRunner
from confighelpers import VALID, one_line_refusal, tablectl_process, write

from tablectl.cli import main
from tablectl.games import GAMES

REPO = Path(__file__).resolve().parents[2]
SHIPPED = sorted((REPO / "config" / "tables").glob("*.toml"))
PRODUCTION = REPO / "config" / "production.toml"

def check(path: Path, *options: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["config", "check", *options, str(path)])
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def assert_one_line_error(path: Path, key: str, reason: str) -> str:
    code, out, err = check(path)
    assert code == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"tablectl: {path}: {key}: "), lines[0]
    assert reason in lines[0]
    assert "Traceback" not in err
    return lines[0]


def test_a_valid_config_checks_ok_with_table_game_and_device_count(tmp_path: Path) -> None:
    code, out, err = check(write(tmp_path, VALID))
    assert (code, out, err) == (0, "ok: ocp-1 (one-card-poker, 1 device)\n", "")


def test_bad_toml_names_the_file_and_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, VALID.replace("decks = 6", "decks = = 6"))
    line = assert_one_line_error(path, "bad TOML", "")
    assert "line 4" in line


def test_unknown_game_names_the_game_key(tmp_path: Path) -> None:
    assert_one_line_error(write(tmp_path, VALID.replace('"one-card-poker"', '"blackjack"')), "game", "unknown game 'blackjack'")


def test_negative_decks_names_the_decks_key(tmp_path: Path) -> None:
    assert_one_line_error(write(tmp_path, VALID.replace("decks = 6", "decks = -6")), "decks", "at least 1")


def test_a_deck_count_the_game_is_not_dealt_with_is_refused(tmp_path: Path) -> None:
    assert_one_line_error(write(tmp_path, VALID.replace("decks = 6", "decks = 2")), "decks", "not 2")


def test_penetration_cap_above_100_percent_is_refused(tmp_path: Path) -> None:
    assert_one_line_error(write(tmp_path, VALID.replace("penetration_cap = 90", "penetration_cap = 120")), "penetration_cap", "at most 100")


def test_zero_penetration_cap_is_refused(tmp_path: Path) -> None:
    assert_one_line_error(write(tmp_path, VALID.replace("penetration_cap = 90", "penetration_cap = 0")), "penetration_cap", "above 0")


def test_a_penetration_cap_that_leaves_no_card_for_a_round_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, VALID.replace("penetration_cap = 90", "penetration_cap = 0.1"))
    assert_one_line_error(path, "penetration_cap", "0.1%: a cap of 0 of the 312 cards leaves no card to deal a round")


@pytest.mark.parametrize(
    ("address", "reason"),
    [
        ("ttyUSB0", "expected a serial device path"),
        ("socket://tablepc", "socket://host:port"),
        ("socket://tablepc:99999", "port"),
        ("ftp://tablepc:21", "unknown scheme 'ftp'"),
        ("usb:12G9:7AB1", "hexadecimal"),
        ("usb:1209", "usb:VID:PID"),
        ("", "empty address"),
    ],
)
def test_an_unparseable_device_address_names_the_address_key(tmp_path: Path, address: str, reason: str) -> None:
    path = write(tmp_path, VALID.replace('"/dev/ttyUSB0"', f'"{address}"'))
    assert_one_line_error(path, "devices.shoe.address", reason)


@pytest.mark.parametrize("address", ["socket://127.0.0.1:4001?foo=bar", "rfc2217://127.0.0.1:4001?timeout=abc", "loop://"])
def test_a_device_address_run_could_not_open_for_its_options_or_scheme_is_refused_with_exit_2(tmp_path: Path, address: str) -> None:
    path = write(tmp_path, VALID.replace('"/dev/ttyUSB0"', f'"{address}"'))
    assert_one_line_error(path, "devices.shoe.address", f"{address!r}: ")


def test_an_unknown_key_is_refused(tmp_path: Path) -> None:
    assert_one_line_error(write(tmp_path, VALID.replace("seats = 7", "seats = 7\nsaets = 7")), "saets", "unknown key")


def test_a_missing_file_is_a_one_line_error(tmp_path: Path) -> None:
    path = tmp_path / "nope.toml"
    assert_one_line_error(path, "cannot read", "No such file")


def test_the_installed_command_exits_2_with_one_line_and_no_traceback(tmp_path: Path) -> None:
    exe = tablectl_command()
    path = write(tmp_path, VALID.replace("decks = 6", "decks = -1"))
    proc = subprocess.run([exe, "config", "check", str(path)], capture_output=True, text=True, env={**os.environ, "COLUMNS": "200"})
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr == f"tablectl: {path}: decks: must be at least 1, not -1\n"


def test_there_is_a_shipped_table_config_for_every_game() -> None:
    import tomllib

    games = {tomllib.loads(p.read_text(encoding="utf-8")).get("game") for p in SHIPPED}
    assert set(GAMES) <= games, f"no config/tables/*.toml for {sorted(set(GAMES) - games)}"


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_shipped_table_config_checks_clean_for_a_simulated_run(path: Path) -> None:
    code, out, err = check(path, "--simulate")
    assert code == 0, err
    assert out.startswith("ok: ")


def test_the_production_config_wants_a_supervisor_before_it_checks_clean(tmp_path: Path) -> None:
    config = tmp_path / "ocp-1.toml"
    shutil.copy(PRODUCTION, config)
    code, _, err = check(config)
    assert code == 2 and "supervisors: none configured" in err and "tablectl supervisor add" in err
    added = CliRunner().invoke(main, ["supervisor", "add", str(config), "pit-anna"], input="Bluff-Harbor-42\n")
    assert added.exit_code == 0, added.output
    code, out, err = check(config)
    assert (code, err) == (0, "")
    assert out.startswith("ok: ")


def test_a_production_config_may_allow_running_without_supervisors_by_name(tmp_path: Path) -> None:
    config = tmp_path / "ocp-1.toml"
    config.write_text(PRODUCTION.read_text(encoding="utf-8").replace("allow_no_supervisors = false", "allow_no_supervisors = true"), encoding="utf-8")
    code, out, err = check(config)
    assert (code, err) == (0, "")


def test_run_refuses_a_bad_config_with_the_same_one_line_before_opening_a_device(tmp_path: Path) -> None:
    pytest.importorskip("tablectl.commands.run", reason="tablectl run is not there yet")
    # the address names no real port: had run opened it, it would fail with exit 4, not 2
    path = write(tmp_path, VALID.replace("decks = 6", "decks = -6").replace("/dev/ttyUSB0", "/dev/tablectl-test-no-such-port"))
    _, _, checked = check(path)
    result = CliRunner().invoke(main, ["run", str(path), "--headless"])
    assert result.exit_code == 2
    assert result.stderr == checked


def test_a_malformed_supervisor_credential_hash_names_the_supervisor(tmp_path: Path) -> None:
    text = VALID + '\n[supervisors]\npit-anna = "hunter2"\n'
    assert_one_line_error(write(tmp_path, text), "supervisors.pit-anna", "scrypt$N$r$p$salt$hash")


def test_a_supervisor_credential_hash_made_by_the_command_checks_clean(tmp_path: Path) -> None:
    made = CliRunner().invoke(main, ["config", "hash-credential"], input="Bluff-Harbor-42\n").stdout.strip()
    code, _, err = check(write(tmp_path, VALID + f'\n[supervisors]\npit-anna = "{made}"\n'))
    assert code == 0, err


def test_config_check_on_a_shipped_demo_config_says_in_one_line_to_add_simulate() -> None:
    demo = Path(__file__).resolve().parents[2] / "config" / "tables" / "three-card-poker.toml"
    line = one_line_refusal(tablectl_process("config", "check", str(demo)), f"{demo}: a demo config")
    assert "--simulate" in line
    assert tablectl_process("config", "check", "--simulate", str(demo)).returncode == 0
