"""The floor's shipped deployment files: the systemd units of the broker and the collector verify
with systemd's own checker and match the commands' exit codes; the permissions file is a config
nats-server takes."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tablectl import cli
from tablectl.live.broker import nats_server_binary

CONFIG = Path(__file__).resolve().parents[2] / "config"
UNITS = ["tablectl-broker.service", "tablectl-collect.service"]
TIMER = ["tablectl-export.service", "tablectl-export.timer"]


def _settings(unit: str) -> dict[str, str]:
    text = (CONFIG / "systemd" / unit).read_text().replace("\\\n", " ")
    return {k.strip(): v.strip() for k, _, v in (line.partition("=") for line in text.splitlines())
            if _ and not k.lstrip().startswith(("#", "["))}


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
@pytest.mark.parametrize("unit", UNITS + TIMER)
def test_the_unit_verifies_clean_with_systemd_analyze(tmp_path: Path, unit: str) -> None:
    tablectl = Path(sys.executable).with_name("tablectl")
    for name in UNITS + TIMER:
        text = (CONFIG / "systemd" / name).read_text().replace("/opt/tablectl/venv/bin/tablectl", str(tablectl))
        (tmp_path / name).write_text(text.replace("EnvironmentFile=", "EnvironmentFile=-"))
    done = subprocess.run(["systemd-analyze", "verify", str(tmp_path / unit)], capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stdout + done.stderr) == (0, "")


@pytest.mark.parametrize("unit", UNITS)
def test_a_clean_stop_is_success_and_bad_options_are_not_restarted(unit: str) -> None:
    s = _settings(unit)
    assert s["SuccessExitStatus"] == str(cli.EXIT_INTERRUPTED)
    assert s["RestartPreventExitStatus"] == str(cli.EXIT_USAGE)
    assert s["KillSignal"] == "SIGTERM"


def test_the_shipped_permissions_file_is_a_config_nats_server_takes(tmp_path: Path) -> None:
    rules = (CONFIG / "nats" / "floor-permissions.conf").read_text()
    env = {**os.environ, **{name: "x" for name in re.findall(r"\$([A-Z0-9_]+_PASSWORD)", rules)}}
    (tmp_path / "rules.conf").write_text(rules)
    (tmp_path / "server.conf").write_text('listen: "127.0.0.1:4222"\ninclude "rules.conf"\n')
    done = subprocess.run([str(nats_server_binary()), "-t", "-c", str(tmp_path / "server.conf")], capture_output=True,
                          text=True, env=env, timeout=30, check=False)
    assert done.returncode == 0, done.stderr
