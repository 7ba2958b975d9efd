"""The shipped systemd unit: it verifies clean with systemd's own checker, and its restart policy
matches tablectl's exit codes (``tablectl.cli``)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tablectl import cli

UNIT = Path(__file__).resolve().parents[2] / "config" / "systemd" / "tablectl@.service"


def settings() -> dict[str, list[str]]:
    """key -> every value it is given in the unit (a key may repeat: DeviceAllow=)."""
    out: dict[str, list[str]] = {}
    for line in UNIT.read_text(encoding="utf-8").splitlines():
        if "=" in line and not line.lstrip().startswith(("#", ";", "[")):
            key, value = line.split("=", 1)
            out.setdefault(key.strip(), []).append(value.strip())
    return out


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
def test_the_unit_verifies_clean_with_systemd_analyze(tmp_path: Path) -> None:
    # the unit names the installed program; point it at this checkout's so the check can find it
    tablectl = Path(sys.executable).with_name("tablectl")
    unit = tmp_path / "tablectl@ocp-1.service"
    unit.write_text(UNIT.read_text(encoding="utf-8").replace("/opt/tablectl/venv/bin/tablectl", str(tablectl)), encoding="utf-8")
    done = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout + done.stderr) == (0, "")


def test_configuration_and_integrity_failures_are_not_restarted() -> None:
    prevented = settings()["RestartPreventExitStatus"][0].split()
    assert sorted(map(int, prevented)) == [cli.EXIT_USAGE, cli.EXIT_INTEGRITY]


def test_device_and_storage_failures_are_restarted_without_a_start_limit() -> None:
    s = settings()
    assert s["Restart"] == ["on-failure"]
    assert s["StartLimitIntervalSec"] == ["0"]  # a full disk freed an hour later still brings the table back
    assert str(cli.EXIT_DEVICE) not in s["RestartPreventExitStatus"][0].split()
    assert str(cli.EXIT_STORAGE) not in s["RestartPreventExitStatus"][0].split()


def test_a_sigterm_stop_is_a_success() -> None:
    assert settings()["SuccessExitStatus"] == [str(cli.EXIT_INTERRUPTED)]


def test_usb_serial_drivers_are_loaded_before_the_device_classes_are_resolved() -> None:
    s = settings()
    assert any("modprobe" in v and "usbserial" in v and "cdc_acm" in v and v.startswith("-+") for v in s["ExecStartPre"])
    assert {"char-ttyUSB rw", "char-ttyACM rw"} <= set(s["DeviceAllow"])
