"""``tablectl broker`` and ``tablectl collect`` as commands: one-line errors with exit 2 for bad
input, a prompt, clean stop on SIGTERM."""

from __future__ import annotations

import signal
import socket
from pathlib import Path

import pytest
from click.testing import CliRunner
from livehelpers import Proc, tablectl, wait_for

from tablectl.cli import main
from tablectl.live.broker import Broker, free_port


def _run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("args, says", [
    (["broker", "--store", "S", "--listen", "nowhere"], "--listen"),
    (["broker", "--store", "S", "--cluster-name", "x"], "--cluster-name"),
    (["collect", "http://x:1", "--to", "D"], "not a NATS URL"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, args, says):
    args = [str(tmp_path / a) if a in ("S", "D") else a for a in args]
    result = _run(*args)
    assert result.exit_code == 2 and says in result.output and len(result.output.strip().splitlines()) == 1


def test_collect_refuses_credentials_inside_its_copy_folder(tmp_path: Path):
    (tmp_path / "copies").mkdir()
    (tmp_path / "copies" / "c.creds").write_text("x")
    result = _run("collect", "nats://127.0.0.1:1", "--to", str(tmp_path / "copies"),
                  "--creds", str(tmp_path / "copies" / "c.creds"))
    assert result.exit_code == 2 and "inside the log folder" in result.output


def test_broker_check_has_nats_server_test_the_config(tmp_path: Path):
    result = _run("broker", "--store", str(tmp_path / "s"), "--listen", f"127.0.0.1:{free_port()}", "--check")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "s" / "nats-server.conf").exists()


def test_the_broker_command_serves_and_stops_nats_server_on_sigterm(tmp_path: Path):
    port = free_port()
    proc = Proc(tablectl("broker", "--store", str(tmp_path / "s"), "--listen", f"127.0.0.1:{port}",
                         "--monitor", f"127.0.0.1:{free_port()}"), tmp_path / "broker.out")
    wait_for(lambda: (tmp_path / "s" / "nats-server.pid").exists() and _listening(port), 20, "the broker")
    pid = int((tmp_path / "s" / "nats-server.pid").read_text())
    proc.signal(signal.SIGTERM)
    assert proc.wait(15) == 130, proc.output()
    wait_for(lambda: not _alive(pid), 10, "nats-server to exit")


def test_the_collector_stops_promptly_on_sigterm(tmp_path: Path, broker: Broker):
    proc = Proc(tablectl("collect", broker.url, "--to", str(tmp_path / "copies")), tmp_path / "collect.out")
    wait_for(lambda: "Ctrl-C stops" in proc.output(), 20, "the collector to start")
    proc.signal(signal.SIGTERM)
    assert proc.wait(10) == 130, proc.output()


def test_a_second_collector_in_the_same_folder_is_refused(tmp_path: Path, broker: Broker):
    proc = Proc(tablectl("collect", broker.url, "--to", str(tmp_path / "copies")), tmp_path / "collect.out")
    try:
        wait_for(lambda: "Ctrl-C stops" in proc.output(), 20, "the collector to start")
        result = _run("collect", broker.url, "--to", str(tmp_path / "copies"))
        assert result.exit_code == 2 and "another collector" in result.output
    finally:
        proc.signal(signal.SIGTERM)
        proc.wait(10)


def _listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False
