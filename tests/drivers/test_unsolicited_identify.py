"""A device that identifies itself as another one in the middle of a session (an unsolicited
IDENTIFY with another serial number or model) is refused exactly as a device swapped on a
reconnect is; the same identity again changes nothing. The driver over a real pty."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator

import pytest
from fakedevice import FakeDevice
from tablectl.drivers import events as ev
from tablectl.drivers.driver import DeviceDriver
from tablectl.drivers.shoe import ShoeDriver
from tablectl.drivers.transport_serial import SerialTransport
from tablectl.simulators.serving.pty import PtyServer

from tablectl.pytest_plugin import DeviceEvents

FAST = {"answer_timeout": 0.5, "reconnect_initial": 0.01, "reconnect_max": 0.1}


def card(n: int) -> ev.CardDrawn:
    return ev.CardDrawn(n, n % 52)


@pytest.fixture
def device() -> FakeDevice:
    return FakeDevice(serial="FAKE-1")


@pytest.fixture
def sink() -> DeviceEvents:
    return DeviceEvents()


@pytest.fixture
def driver(device: FakeDevice, sink: DeviceEvents) -> Iterator[DeviceDriver]:
    with PtyServer(device) as server:
        d = ShoeDriver("dev", SerialTransport(server.address), sink, **FAST)
        d.start()
        yield d
        d.stop()


def _announce(device: FakeDevice) -> None:
    """The device sends its IDENTIFY unasked."""
    with device.lock:
        device._send(device.identify())
    device._wake()


def _refusals(sink: DeviceEvents) -> list[str]:
    return [f.detail for f in sink.of_type(ev.Fault) if f.kind is ev.FaultKind.DISCONNECTED and not f.cleared]


def test_an_unsolicited_identify_with_another_serial_is_refused_as_a_swapped_device(
    device: FakeDevice, driver: DeviceDriver, sink: DeviceEvents
) -> None:
    for _ in range(3):
        device.add(card)
    sink.wait_for(lambda es: sum(1 for e in es if e.event_no) >= 3)
    device.serial = "FAKE-2"
    _announce(device)
    sink.wait_for(lambda es: any(isinstance(e, ev.Fault) for e in es))
    assert _refusals(sink) == ["refused: a different device answered (serial 'FAKE-2', expected 'FAKE-1')"]
    assert not driver.connected
    assert driver.identity is not None and driver.identity.serial == "FAKE-1"  # the swap is not taken for it
    device.add(card)
    time.sleep(1.0)  # several reconnects: each one refused again
    assert [e.event_no for e in sink.numbered()] == [1, 2, 3]  # the other device's event is not taken
    assert _refusals(sink) == ["refused: a different device answered (serial 'FAKE-2', expected 'FAKE-1')"]


def test_an_unsolicited_identify_of_another_model_is_refused_as_a_swapped_device(
    device: FakeDevice, driver: DeviceDriver, sink: DeviceEvents, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = device.identify
    monkeypatch.setattr(device, "identify", lambda: dataclasses.replace(real(), model="Other"))
    _announce(device)
    sink.wait_for(lambda es: any(isinstance(e, ev.Fault) for e in es))
    assert _refusals(sink) == ["refused: a different device answered (model 'Other', serial 'FAKE-1', expected model 'Fake')"]
    assert not driver.connected


def test_the_same_identity_announced_again_changes_nothing(device: FakeDevice, driver: DeviceDriver, sink: DeviceEvents) -> None:
    device.add(card)
    _announce(device)
    _announce(device)
    device.add(card)
    sink.wait_for(lambda es: any(e.event_no == 2 for e in es))
    assert [e.event_no for e in sink.numbered()] == [1, 2]
    assert sink.of_type(ev.Fault) == [] and driver.connected
