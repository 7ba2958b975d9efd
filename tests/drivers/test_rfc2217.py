"""A device behind a real RFC 2217 server — pyserial's ``PortManager`` in the default suite, ser2net
itself under ``-m slow`` when it is installed: ``rfc2217://`` addresses work end to end, from
``devices watch`` to the whole contract suite, and a failure to open one is a one-line error."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from tablectl.simulators.serving.rfc2217 import Rfc2217Bridge

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).parent))
from test_contract_rig import CONTRACT_TESTS, control, outcomes  # noqa: E402


def tablectl(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tablectl", *args], capture_output=True, text=True, timeout=timeout)


@contextmanager
def simulated_shoe_on_a_pty() -> Iterator[tuple[str, str]]:
    """(pty path, control channel) of a ``tablectl sim shoe --pty`` process."""
    sim = subprocess.Popen(
        [sys.executable, "-m", "tablectl", "sim", "shoe", "--seed", "5", "--decks", "1", "--pty", "--control", "127.0.0.1:0"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    try:
        assert sim.stdout is not None
        pty_path, channel = sim.stdout.readline().strip(), sim.stdout.readline().strip()
        assert pty_path.startswith("/dev/"), "tablectl sim did not start"
        yield pty_path, channel
    finally:
        sim.terminate()
        sim.wait(10)
        assert sim.stdout is not None
        sim.stdout.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def ser2net(pty_path: str, tmp_path: Path) -> Iterator[str]:
    """The rfc2217 address of ser2net serving ``pty_path`` with the configuration
    docs/operations.md gives (``tcp(nodelay)``, ``chardelay: false``)."""
    port = _free_port()
    config = tmp_path / "ser2net.yaml"
    config.write_text(
        "connection: &shoe\n"
        f"    accepter: telnet(rfc2217),tcp(nodelay),127.0.0.1,{port}\n"
        f"    connector: serialdev,{pty_path},115200n81,local\n"
        "    options:\n      kickolduser: true\n      chardelay: false\n"
    )
    proc = subprocess.Popen(["ser2net", "-n", "-d", "-c", str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None, "ser2net did not start"
                time.sleep(0.05)
        yield f"rfc2217://127.0.0.1:{port}?ign_set_control"  # a pty has no modem lines
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture
def shoe_behind_rfc2217() -> Iterator[tuple[str, str]]:
    """(rfc2217 address, control channel) of a simulated shoe behind pyserial's RFC 2217 server."""
    with simulated_shoe_on_a_pty() as (pty_path, channel), Rfc2217Bridge(pty_path) as bridge:
        # the bridge answers from this test process's threads: on a loaded machine the option
        # negotiation can take longer than pyserial's 3 s default
        yield bridge.address + "?timeout=10", channel


@pytest.fixture
def shoe_behind_ser2net(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """(rfc2217 address, control channel) of a simulated shoe behind ser2net."""
    if shutil.which("ser2net") is None:
        pytest.skip("ser2net is not installed (Debian: apt install ser2net)")
    with simulated_shoe_on_a_pty() as (pty_path, channel), ser2net(pty_path, tmp_path) as address:
        yield address, channel


def watch_fifty_cards(address: str, channel: str) -> None:
    assert control(channel, "draw 50").startswith("ok ")
    done = tablectl("devices", "watch", "shoe", address, "--count", "50", "--json")
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    cards = [e for e in events if e["type"] == "card_drawn"]
    assert len(cards) == 50 and all(len(e["card"]) == 2 for e in cards)
    assert [e["event_no"] for e in events] == list(range(1, len(events) + 1))


def run_shoe_contract_suite(address: str, channel: str, tmp_path: Path) -> None:
    junit = tmp_path / "shoe.xml"
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "tests/drivers/test_contract_shoe.py", "-p", "no:cacheprovider", "-q",
         f"--device-url={address}", "--device-kind", "shoe", "--device-actuator", f"control:{channel}", f"--junitxml={junit}"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    result = outcomes(junit)
    assert result["failed"] == [] and result["skipped"] == [], run.stdout
    assert len(result["passed"]) == CONTRACT_TESTS["shoe"], run.stdout


def test_devices_watch_gets_fifty_cards_in_order_through_an_rfc2217_server(shoe_behind_rfc2217: tuple[str, str]) -> None:
    watch_fifty_cards(*shoe_behind_rfc2217)


def test_the_shoe_contract_suite_passes_through_an_rfc2217_server(shoe_behind_rfc2217: tuple[str, str], tmp_path: Path) -> None:
    run_shoe_contract_suite(*shoe_behind_rfc2217, tmp_path)


@pytest.mark.slow
def test_devices_watch_gets_fifty_cards_in_order_through_ser2net(shoe_behind_ser2net: tuple[str, str]) -> None:
    watch_fifty_cards(*shoe_behind_ser2net)


@pytest.mark.slow
def test_the_shoe_contract_suite_passes_through_ser2net(shoe_behind_ser2net: tuple[str, str], tmp_path: Path) -> None:
    run_shoe_contract_suite(*shoe_behind_ser2net, tmp_path)


def test_an_rfc2217_address_with_no_server_is_a_one_line_device_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nobody listens once it is closed
    done = tablectl("devices", "watch", "shoe", f"rfc2217://127.0.0.1:{port}", "--count", "1")
    assert done.returncode == 4
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(f"tablectl: rfc2217://127.0.0.1:{port}: ")
    assert "Traceback" not in done.stderr


def test_a_server_that_does_not_speak_rfc2217_is_a_one_line_device_error() -> None:
    with socket.create_server(("127.0.0.1", 0)) as plain:  # a raw TCP port (ser2net's "raw" mode)
        port = plain.getsockname()[1]
        done = tablectl("devices", "watch", "shoe", f"rfc2217://127.0.0.1:{port}", "--count", "1")
    assert done.returncode == 4
    assert done.stderr.count("\n") == 1 and "RFC2217" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow
def test_ser2net_on_a_pty_without_ign_set_control_is_a_one_line_error_saying_what_to_add(shoe_behind_ser2net: tuple[str, str]) -> None:
    address, _ = shoe_behind_ser2net
    done = tablectl("devices", "watch", "shoe", address.split("?")[0], "--count", "1")
    assert done.returncode == 4
    assert done.stderr.count("\n") == 1 and "?ign_set_control" in done.stderr


class _DropsTheFirstClientAtPurge(Rfc2217Bridge):
    """A device server that drops its first client part way through the option negotiation (at
    the purge, the last option pyserial waits for), as one still closing the last session can."""

    def write(self, data: bytes) -> None:
        purge_answer = b"\xff\xfa\x2c\x70"  # IAC SB COM-PORT-OPTION SERVER-PURGE-DATA
        if self.connections == 1 and purge_answer in data and self._client is not None:
            self._client.shutdown(socket.SHUT_RDWR)
            return
        super().write(data)


def test_a_device_server_that_drops_the_negotiation_once_is_tried_again() -> None:
    from tablectl.drivers.transport_serial import SerialTransport

    with simulated_shoe_on_a_pty() as (pty_path, _), _DropsTheFirstClientAtPurge(pty_path) as bridge:
        transport = SerialTransport(bridge.address + "?timeout=1")
        transport.open()
        try:
            assert bridge.connections == 2
        finally:
            transport.close()
