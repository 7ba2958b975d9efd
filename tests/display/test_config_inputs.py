"""Bad input to ``tablectl config check`` and ``tablectl supervisor``: a one-line error naming the
file (and the key), exit 2; never a traceback, never a hang. Run as real processes, with timeouts,
so that a regression that hangs fails instead."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from confighelpers import VALID, one_line_refusal, write
from confighelpers import tablectl_process as tablectl

HASH = "scrypt$16384$8$1$3q2+7w3q2+7w3q2+7w3q2w==$Zm9vYmFyZm9vYmFyZm9vYmFyZm9vYmFyZm9vYmFyMTI="


def test_a_table_id_with_a_trailing_newline_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, VALID.replace('table = "ocp-1"', 'table = "ocp-1\\n"'))
    one_line_refusal(tablectl("config", "check", str(path)), f"{path}: table: ")


def test_a_device_name_with_a_trailing_newline_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, VALID.replace("[devices.shoe]", '[devices."shoe\\n"]'))
    line = one_line_refusal(tablectl("config", "check", str(path)), f"{path}: devices.shoe\\n: ")
    assert "\n" not in line


@pytest.mark.parametrize("who", [" pit-anna", "pit-anna ", "\tpit-anna", ""])
def test_a_supervisor_id_padded_with_spaces_or_empty_is_refused(tmp_path: Path, who: str) -> None:
    path = write(tmp_path, VALID + f'\n[supervisors]\n"{who}" = "{HASH}"\n'.replace("\t", "\\t"))
    line = one_line_refusal(tablectl("config", "check", str(path)), f"{path}: supervisors.")
    assert "supervisor id" in line or "control character" in line


def test_a_device_name_with_an_osc52_clipboard_write_is_refused_escaped(tmp_path: Path) -> None:
    osc52 = "\\u001b]52;c;ZWNobyBoaQ==\\u0007"
    path = write(tmp_path, VALID.replace("[devices.shoe]", f'[devices."shoe{osc52}"]'))
    proc = tablectl("config", "check", str(path))
    line = one_line_refusal(proc, f"{path}: devices.")
    assert "\x1b" not in proc.stderr and "\x07" not in proc.stderr
    assert "\\x1b]52" in line


def test_a_control_character_in_any_config_string_is_refused_naming_its_key(tmp_path: Path) -> None:
    path = write(tmp_path, VALID.replace('"/dev/ttyUSB0"', '"/dev/ttyUSB0\\u001b[2J"'))
    proc = tablectl("config", "check", str(path))
    line = one_line_refusal(proc, f"{path}: devices.shoe.address: ")
    assert "control character" in line and "\x1b" not in proc.stderr


def test_a_config_of_5000_nested_arrays_is_one_line_naming_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, VALID + "deep = " + "[" * 5000 + "]" * 5000 + "\n")
    one_line_refusal(tablectl("config", "check", str(path)), f"{path}: ")


def test_config_check_refuses_a_fifo_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "table.toml"
    os.mkfifo(fifo)
    line = one_line_refusal(tablectl("config", "check", str(fifo)), f"{fifo}: ")
    assert "FIFO" in line


def test_config_check_refuses_dev_zero_at_once() -> None:
    line = one_line_refusal(tablectl("config", "check", "/dev/zero"), "/dev/zero: ")
    assert "character device" in line


def test_config_check_refuses_a_config_over_the_size_limit(tmp_path: Path) -> None:
    path = write(tmp_path, VALID + "#" * (5 * 1024 * 1024) + "\n")
    line = one_line_refusal(tablectl("config", "check", str(path)), f"{path}: ")
    assert "larger than" in line


def test_supervisor_list_refuses_a_fifo_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "table.toml"
    os.mkfifo(fifo)
    line = one_line_refusal(tablectl("supervisor", "list", str(fifo)), f"{fifo}: ")
    assert "FIFO" in line


def test_supervisor_add_refuses_a_fifo_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "table.toml"
    os.mkfifo(fifo)
    line = one_line_refusal(tablectl("supervisor", "add", str(fifo), "pit-anna"), f"{fifo}: ")
    assert "FIFO" in line


def test_supervisor_list_refuses_dev_zero_at_once() -> None:
    one_line_refusal(tablectl("supervisor", "list", "/dev/zero"), "/dev/zero: ")
