"""``tablectl broker`` beside another server: a port in use is refused before nats-server runs,
readiness is its own server's, a server that keeps failing at its start is given up with the
reason, and nats-server ends with the command even when the command is killed with SIGKILL."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import threading
from pathlib import Path

import pytest
from livehelpers import ROOT, Proc, tablectl, wait_for

from tablectl.live import broker as broker_module
from tablectl.live.broker import Broker, BrokerConfig, BrokerError, free_port


def _broker_command(store: Path, listen: str, monitor: str, timeout: float = 10) -> subprocess.CompletedProcess[str]:
    return subprocess.run(tablectl("broker", "--store", str(store), "--listen", listen, "--monitor", monitor),
                          capture_output=True, text=True, cwd=ROOT, timeout=timeout, check=False)


def test_a_second_broker_on_the_ports_of_a_running_one_exits_2_naming_the_address(tmp_path: Path, broker: Broker):
    assert broker.config.monitor is not None
    out = _broker_command(tmp_path / "second", broker.config.listen, broker.config.monitor)
    assert out.returncode == 2, out.stderr
    said = f"tablectl: {broker.config.listen} (clients) is in use: another broker, or a nats-server left running, listens there"
    assert out.stderr.strip().splitlines() == [said]


def test_a_port_another_process_listens_on_is_refused_before_nats_server_runs(tmp_path: Path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        listen = f"127.0.0.1:{taken.getsockname()[1]}"
        out = _broker_command(tmp_path / "s", f"127.0.0.1:{free_port()}", listen)
    assert out.returncode == 2, out.stderr
    assert out.stderr.strip().splitlines() == [
        f"tablectl: {listen} (monitor) is in use: another broker, or a nats-server left running, listens there"]
    assert not (tmp_path / "s" / "nats-server.log").exists()


def test_a_broker_is_not_ready_on_another_servers_answers(tmp_path: Path, broker: Broker,
                                                           monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(broker_module, "address_in_use", lambda listen: False, raising=False)
    other = Broker(tmp_path / "other", config=BrokerConfig(listen=broker.config.listen, monitor=broker.config.monitor))
    with pytest.raises(BrokerError, match="address already in use"):
        other.start(timeout=5)
    assert not other.running


def test_a_server_that_keeps_failing_at_its_start_is_given_up_with_its_error(tmp_path: Path):
    b = Broker(tmp_path / "s", listen="127.0.0.1:0").start()
    said: list[str] = []
    failure: list[BaseException] = []
    watching = threading.Event()

    class Stop(threading.Event):
        def wait(self, timeout: float | None = None) -> bool:
            watching.set()  # supervise watches the running server
            return super().wait(timeout)

    def supervise() -> None:
        try:
            b.supervise(Stop(), restart_delay=0.05, on_exit=said.append)
        except BrokerError as e:
            failure.append(e)

    thread = threading.Thread(target=supervise, daemon=True)
    thread.start()
    wait_for(watching.is_set, 10, "supervise to watch the server")
    shutil.rmtree(tmp_path / "s" / "jetstream")
    (tmp_path / "s" / "jetstream").write_text("not a folder")  # nats-server cannot start JetStream here
    assert b.pid is not None
    os.kill(b.pid, signal.SIGKILL)
    thread.join(20)
    assert not thread.is_alive(), said
    assert said[0] == "nats-server was killed by SIGKILL"
    assert len(said) == 4 and all("[FTL]" in line and "JetStream" in line for line in said[1:]), said
    assert "[FTL]" in str(failure[0]) and "given up after 5 exits in a row" in str(failure[0])


def test_a_broker_killed_with_sigkill_leaves_no_nats_server_behind(tmp_path: Path):
    listen, monitor = f"127.0.0.1:{free_port()}", f"127.0.0.1:{free_port()}"
    args = tablectl("broker", "--store", str(tmp_path / "s"), "--listen", listen, "--monitor", monitor)
    first = Proc(args, tmp_path / "first.out")
    wait_for(lambda: "Ctrl-C stops" in first.output(), 20, "the broker to serve")
    pid = int((tmp_path / "s" / "nats-server.pid").read_text())
    first.kill9()
    wait_for(lambda: not _alive(pid), 10, f"nats-server {pid} to end with its broker")
    again = Proc(args, tmp_path / "again.out")
    try:
        wait_for(lambda: "Ctrl-C stops" in again.output() or not again.running, 20, "the broker started again")
        assert again.running, again.output()
    finally:
        again.signal(signal.SIGTERM)
        assert again.wait(15) == 130, again.output()


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False
