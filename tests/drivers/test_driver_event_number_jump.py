"""Event numbers near the top of the ``u32`` range (docs/protocol.md section 6, "Event numbers
near the top of the range"): a number, or a device counter, that jumps far past what the host
knows of the device is never believed, so the device's real events after it are never dropped as
duplicates. The driver over a real pty against ``FakeDevice``."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from fakedevice import FakeDevice
from tablectl.drivers import events as ev
from tablectl.drivers.driver import DeviceDriver
from tablectl.drivers.errors import WrongDevice
from tablectl.drivers.numbering import EVENT_NO_MAX
from tablectl.drivers.shoe import ShoeDriver
from tablectl.drivers.transport_serial import SerialTransport
from tablectl.simulators.serving.pty import PtyServer

from tablectl.pytest_plugin import DeviceEvents

# the gap timer asks 3 times in 1.5 s; no keepalive (an idle pause is not what these tests are about)
FAST = {"answer_timeout": 0.5, "keepalive_after": 60.0, "reconnect_initial": 0.01, "reconnect_max": 0.1}
GAP_TIMER_GIVES_UP = 3.0  # seconds: longer than the gap timer's three asks


def card(n: int) -> ev.CardDrawn:
    return ev.CardDrawn(n, n % 52)


@pytest.fixture
def device() -> FakeDevice:
    return FakeDevice()


@pytest.fixture
def sink() -> DeviceEvents:
    return DeviceEvents()


@pytest.fixture
def server(device: FakeDevice) -> Iterator[PtyServer]:
    with PtyServer(device) as srv:
        yield srv


def _driver(server: PtyServer, sink: DeviceEvents, **kw: object) -> DeviceDriver:
    return ShoeDriver("dev", SerialTransport(server.address), sink, **(FAST | kw))


def _started_with_three_cards(device: FakeDevice, server: PtyServer, sink: DeviceEvents) -> DeviceDriver:
    """A started driver that has taken the device's events 1..3."""
    d = _driver(server, sink)
    try:
        d.start()
        for _ in range(3):
            device.add(card)
        sink.wait_for(lambda es: len([e for e in es if e.event_no]) >= 3)
    except BaseException:
        d.stop()
        raise
    return d


def _numbers(sink: DeviceEvents) -> list[int]:
    return [e.event_no for e in sink.numbered()]


def _announce(device: FakeDevice) -> None:
    with device.lock:
        device._send(device.identify())
    device._wake()


def _faults(sink: DeviceEvents, kind: ev.FaultKind) -> list[str]:
    return [f.detail for f in sink.of_type(ev.Fault) if f.kind is kind and not f.cleared]


def test_an_event_numbered_2_32_minus_1_that_the_device_vouches_for_does_not_swallow_its_later_events(
    device: FakeDevice, server: PtyServer, sink: DeviceEvents
) -> None:
    d = _started_with_three_cards(device, server, sink)
    try:
        with device.lock:  # the device's counter reads 0xFFFFFFFF for a moment (an erased NV cell)
            device.next_no = EVENT_NO_MAX
        device.add(lambda n: ev.CardDrawn(n, 42))
        _announce(device)  # ... and its IDENTIFY says so, unasked or asked
        time.sleep(0.3)
        with device.lock:  # then it reads right again
            device.next_no = 4
        for _ in range(3):
            device.add(card)
        time.sleep(GAP_TIMER_GIVES_UP)
        for _ in range(3):
            device.add(card)
        sink.wait_for(lambda es: any(e.event_no == 9 for e in es))
        assert _numbers(sink) == list(range(1, 10))  # every real event, in order; 2^32-1 never
        bad = _faults(sink, ev.FaultKind.BAD_EVENT)  # once, though replayed after every reconnect
        assert len(bad) == 1 and bad[0].startswith("CardDrawn #4294967295 QD refused: event 4294967295 is 4294967292 past 3")
        assert _faults(sink, ev.FaultKind.EVENTS_LOST) == []
        assert d.last_event_no == 9
    finally:
        d.stop()


def test_an_identify_whose_counter_jumps_far_ahead_mid_session_refuses_the_device_until_it_is_believable(
    device: FakeDevice, server: PtyServer, sink: DeviceEvents
) -> None:
    d = _started_with_three_cards(device, server, sink)
    try:
        with device.lock:
            device.next_no = EVENT_NO_MAX + 1
        _announce(device)
        sink.wait_for(lambda es: any(isinstance(e, ev.Fault) for e in es))
        assert _faults(sink, ev.FaultKind.DISCONNECTED)[0].startswith(
            "refused: device event counter is at 4294967295, 4294967292 past 3"
        )
        with device.lock:  # the counter reads right again: the next reconnect takes it
            device.next_no = 4
        device.add(card)
        sink.wait_for(lambda es: any(e.event_no == 4 for e in es))
        assert _numbers(sink) == [1, 2, 3, 4]
        assert d.connected
    finally:
        d.stop()


def test_a_handshake_identify_whose_counter_is_far_past_the_log_is_refused_naming_why(
    device: FakeDevice, server: PtyServer, sink: DeviceEvents
) -> None:
    device.next_no = EVENT_NO_MAX + 1
    d = _driver(server, sink, resume_after=10)
    try:
        with pytest.raises(WrongDevice, match="device event counter is at 4294967295, 4294967285 past 10"):
            d.start()
    finally:
        d.stop()
    assert _numbers(sink) == []


def test_a_device_new_to_the_host_is_taken_at_its_counter_however_high(device: FakeDevice, server: PtyServer, sink: DeviceEvents) -> None:
    device.next_no = 5_000_001  # a shoe with years of use, at a table whose log is new
    d = _driver(server, sink)
    try:
        assert d.start().last_event_no == 5_000_000
        device.add(card)
        sink.wait_for(lambda es: any(e.event_no == 5_000_001 for e in es))
        assert _faults(sink, ev.FaultKind.BAD_EVENT) == []
    finally:
        d.stop()
