"""``tablectl sim`` as a separate process: the address first, a host connects, clean exit."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator

import pytest
import serial

from tablectl.drivers import events as ev
from tablectl.simulators.minihost import MiniHost, serial_io

SIM = [sys.executable, "-c", "from tablectl.cli import main; main()", "sim"]


@pytest.fixture
def sim() -> Iterator[Callable[..., tuple[subprocess.Popen[str], list[str]]]]:
    procs: list[subprocess.Popen[str]] = []

    def start(*args: str, lines: int = 1) -> tuple[subprocess.Popen[str], list[str]]:
        p = subprocess.Popen(SIM + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        procs.append(p)
        assert p.stdout is not None
        return p, [p.stdout.readline().strip() for _ in range(lines)]

    yield start
    for p in procs:
        if p.poll() is None:
            p.kill()
        p.wait(5)
        for f in (p.stdout, p.stderr):
            if f is not None:
                f.close()


def test_tcp_prints_the_address_first_and_serves_a_host(sim: Callable, shake: Callable) -> None:
    p, (address,) = sim("shoe", "--seed", "5", "--tcp", "127.0.0.1:0", "--serial", "CLI1")
    assert address.startswith("socket://127.0.0.1:")
    port = serial.serial_for_url(address, timeout=0.05)
    try:
        host = MiniHost(*serial_io(port))
        host.open()
        assert shake(host).serial == "CLI1"
        loaded = host.wait_type(ev.ShoeLoaded)
        assert (loaded.decks, loaded.cards) == (6, 312)
    finally:
        port.close()
    p.send_signal(signal.SIGTERM)
    assert p.wait(5) == 0


def test_pty_with_autodraw_and_a_control_channel(sim: Callable, shake: Callable) -> None:
    p, (path, control) = sim("shoe", "--decks", "1", "--seed", "1", "--pty", "--autodraw", "200",
                             "--control", "127.0.0.1:0", lines=2)
    assert path.startswith("/dev/")
    port = serial.serial_for_url(path, timeout=0.05)
    try:
        host = MiniHost(*serial_io(port))
        host.open()
        shake(host)
        drawn = [host.wait_type(ev.CardDrawn) for _ in range(52)]
        assert sorted(d.card for d in drawn) == list(range(52))
        host.wait_type(ev.ShoeEmpty)
        chost, cport = control.rsplit(":", 1)
        with socket.create_connection((chost, int(cport)), timeout=2) as s, s.makefile("rw") as f:
            f.write("load\ndraw\n")
            f.flush()
            assert f.readline().startswith("ok ShoeLoaded#")
            assert f.readline().startswith("ok CardDrawn#")
    finally:
        port.close()
    p.send_signal(signal.SIGINT)
    assert p.wait(5) == 0


def test_bad_fault_kind_is_a_usage_error() -> None:
    r = subprocess.run(SIM + ["shoe", "--pty", "--fault", "gremlins=0.1"], capture_output=True, text=True, timeout=20)
    assert r.returncode == 2
    assert r.stderr.startswith("tablectl: unknown fault kind 'gremlins'")
    assert r.stdout == ""


def test_port_in_use_is_a_device_error() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        r = subprocess.run(SIM + ["csm", "--tcp", f"127.0.0.1:{port}"], capture_output=True, text=True, timeout=20)
    assert r.returncode == 4
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("tablectl: cannot serve on 127.0.0.1:") and "in use" in last


def test_a_sim_that_will_deal_nothing_by_itself_says_how_to_make_it_deal(sim: Callable) -> None:
    p, (address,) = sim("shoe", "--seed", "5", "--pty")
    assert address.startswith("/dev/")
    assert p.stderr is not None
    assert "give --autodraw RATE" in p.stderr.readline()


def test_a_sim_that_deals_by_itself_does_not_warn(sim: Callable) -> None:
    p, _ = sim("shoe", "--seed", "5", "--pty", "--autodraw", "5")
    p.send_signal(signal.SIGTERM)
    _, err = p.communicate(timeout=10)
    assert "no card is dealt" not in err
