"""A device behind a real RFC 2217 server (pyserial's ``PortManager``, as a serial device server
runs it): ``rfc2217://`` addresses work end to end, from ``devices watch`` to the whole contract
suite, and a failure to open one is a one-line error."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tablectl.simulators.rfc2217_bridge import Rfc2217Bridge

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).parent))
from test_contract_rig import CONTRACT_TESTS, control, outcomes  # noqa: E402


def tablectl(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tablectl", *args], capture_output=True, text=True, timeout=timeout)


@pytest.fixture
def shoe_behind_rfc2217() -> Iterator[tuple[str, str]]:
    """(rfc2217 address, control channel) of a ``tablectl sim shoe --pty`` process behind an
    RFC 2217 server."""
    sim = subprocess.Popen(
        [sys.executable, "-m", "tablectl", "sim", "shoe", "--seed", "5", "--decks", "1", "--pty", "--control", "127.0.0.1:0"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    try:
        assert sim.stdout is not None
        pty_path, channel = sim.stdout.readline().strip(), sim.stdout.readline().strip()
        assert pty_path.startswith("/dev/"), "tablectl sim did not start"
        with Rfc2217Bridge(pty_path) as bridge:
            yield bridge.address, channel
    finally:
        sim.terminate()
        sim.wait(10)
        assert sim.stdout is not None
        sim.stdout.close()


def test_devices_watch_gets_fifty_cards_in_order_through_an_rfc2217_server(shoe_behind_rfc2217: tuple[str, str]) -> None:
    address, channel = shoe_behind_rfc2217
    assert control(channel, "draw 50").startswith("ok ")
    done = tablectl("devices", "watch", "shoe", address, "--count", "50", "--json")
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    cards = [e for e in events if e["type"] == "card_drawn"]
    assert len(cards) == 50 and all(len(e["card"]) == 2 for e in cards)
    assert [e["event_no"] for e in events] == list(range(1, len(events) + 1))


def test_the_shoe_contract_suite_passes_through_an_rfc2217_server(shoe_behind_rfc2217: tuple[str, str], tmp_path: Path) -> None:
    address, channel = shoe_behind_rfc2217
    junit = tmp_path / "shoe.xml"
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "tests/drivers/test_contract_shoe.py", "-p", "no:cacheprovider", "-q",
         f"--device-url={address}", "--device-kind", "shoe", "--device-actuator", f"control:{channel}", f"--junitxml={junit}"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    result = outcomes(junit)
    assert result["failed"] == [] and result["skipped"] == [], run.stdout
    assert len(result["passed"]) == CONTRACT_TESTS["shoe"], run.stdout


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
