"""``tablectl devices``: watching a device, and one-line errors (exit 4) for bad devices."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
from click.testing import CliRunner
from fakedevice import FakeDevice
from tablectl.drivers import events as ev
from tablectl.drivers.shoe import ShoeDriver
from tablectl.drivers.transport_serial import SerialTransport
from tablectl.simulators.factory import build_device
from tablectl.simulators.serving.pty import PtyServer

from tablectl.cards import text
from tablectl.cli import main
from tablectl.pytest_plugin import DeviceEvents


def watch(*args: str):
    return CliRunner().invoke(main, ["devices", "watch", *args])


@pytest.fixture
def shoe() -> Iterator[tuple[str, object]]:
    sim = build_device("shoe", seed=11)
    with PtyServer(sim) as server:
        yield server.address, sim


def one_line_error(result, text: str) -> None:
    assert result.exit_code == 4, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tablectl: ") and text in lines[0], result.stderr
    assert "Traceback" not in result.output


def test_watch_prints_card_events_and_stops_after_count(shoe) -> None:
    address, sim = shoe
    drawn = [e for _ in range(3) for e in sim.draw()]
    result = watch("shoe", address, "--count", "3")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["#1 shoe_loaded shoe_id=1 decks=6 cards=312"] + [
        f"#{e.event_no} card_drawn {text(e.card)}" for e in drawn
    ]


def test_watch_json_gives_type_event_no_and_card_text(shoe) -> None:
    address, sim = shoe
    sim.inject("misread")
    sim.draw()
    sim.draw()
    result = watch("shoe", address, "--count", "2", "--json", "--resume-after", "1")
    assert result.exit_code == 0, result.output
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first == {"type": "card_drawn", "event_no": 2, "card": None}
    assert second["type"] == "card_drawn" and second["event_no"] == 3 and len(second["card"]) == 2


def test_watch_on_a_shoe_a_table_used_shows_its_next_card_and_no_events_lost() -> None:
    device = FakeDevice()
    with PtyServer(device) as server:
        dealt = DeviceEvents()
        table = ShoeDriver("shoe", SerialTransport(server.address), dealt, answer_timeout=0.5)
        try:
            table.start()
            for _ in range(4):
                device.add(lambda n: ev.CardDrawn(n, n))
            dealt.wait_for(lambda es: len(es) == 4)
            table.persisted(4)  # the table logged them: the device forgets them
            deadline = time.monotonic() + 5.0
            while device.persisted_upto < 4:
                assert time.monotonic() < deadline, "the device never heard PERSISTED(4)"
                time.sleep(0.01)
        finally:
            table.stop()
        device.add(lambda n: ev.CardDrawn(n, 51), send=False)  # drawn after the table stopped
        result = watch("shoe", server.address, "--count", "1", "--answer-timeout", "0.5")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["#5 card_drawn AC"]


def test_an_address_that_does_not_exist_is_exit_4() -> None:
    one_line_error(watch("shoe", "/dev/ttyTABLECTL-NONE"), "tablectl: /dev/ttyTABLECTL-NONE: does not exist")


def test_a_device_that_never_answers_is_exit_4() -> None:
    with PtyServer(build_device("shoe", mute=True)) as server:
        one_line_error(watch("shoe", server.address, "--answer-timeout", "0.3"), "no answer within 0.3 s")


def test_a_protocol_version_mismatch_is_exit_4() -> None:
    with PtyServer(build_device("shoe", protocol_version=2)) as server:
        one_line_error(watch("shoe", server.address), "protocol version mismatch")


def test_a_port_already_in_use_is_exit_4(shoe) -> None:
    address, _ = shoe
    holder = SerialTransport(address)
    holder.open()
    try:
        one_line_error(watch("shoe", address), f"tablectl: {address}: port already in use")
    finally:
        holder.close()


def test_a_device_of_another_family_is_exit_4(shoe) -> None:
    address, _ = shoe
    one_line_error(watch("csm", address), "is a shoe")


def test_an_unknown_driver_is_a_usage_error(shoe) -> None:
    address, _ = shoe
    result = watch("toaster", address)
    assert result.exit_code == 2
    assert "unknown driver 'toaster' (known: csm, shoe, shuffler)" in result.stderr


def test_the_installed_command_prints_one_line_and_exits_4() -> None:
    cmd = [sys.executable, "-c", "from tablectl.cli import main; main()", "devices", "watch", "shoe", "/dev/ttyNONE0"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
    assert (done.returncode, done.stderr, done.stdout) == (4, "tablectl: /dev/ttyNONE0: does not exist\n", "")


def test_list_exits_0() -> None:
    result = CliRunner().invoke(main, ["devices", "list", "--json"])
    assert result.exit_code == 0
    for line in result.stdout.splitlines():
        assert {"address", "vid", "pid", "serial_number", "description"} <= json.loads(line).keys()
