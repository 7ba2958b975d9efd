"""A numbered event whose bytes do not decode (card byte 200: no card) is what the device sent, as
its CRC vouches: the driver reports it at once as a bad event naming its type, number and bytes,
which the table logs and raises its alarm for, and the gap its number leaves is declared lost
saying that the event came undecodable, not that the device could not replay it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fakedevice import FakeDevice
from tablectl.drivers import events as ev
from tablectl.drivers.shoe import ShoeDriver
from tablectl.drivers.transport_serial import SerialTransport
from tablectl.simulators.serving.pty import PtyServer
from tablectl.simulators.serving.tcp import TcpServer

from tablectl.pytest_plugin import DeviceEvents

FAST = {"answer_timeout": 0.5, "reconnect_initial": 0.01, "reconnect_max": 0.1, "keepalive_after": 60.0}
BAD = (
    "CARD_DRAWN #4 undecodable, dropped: message 0x20: card byte 200 at offset 4 is not a card "
    "(payload 04 00 00 00 c8)"
)


def card(n: int) -> ev.CardDrawn:
    return ev.CardDrawn(n, n % 52)


def no_card(n: int) -> ev.CardDrawn:
    return ev.CardDrawn(n, 200)  # the device's firmware puts a byte on the wire that is no card


def faults(sink: DeviceEvents) -> list[tuple[ev.FaultKind, str]]:
    return [(f.kind, f.detail) for f in sink.of_type(ev.Fault)]


@pytest.fixture(params=[PtyServer, TcpServer], ids=["pty", "tcp"])
def dealt_three(request) -> Iterator[tuple[FakeDevice, DeviceEvents, ShoeDriver]]:
    """A shoe whose first three cards the driver delivered."""
    device = FakeDevice()
    sink = DeviceEvents()
    with request.param(device) as server:
        driver = ShoeDriver("shoe", SerialTransport(server.address), sink, **FAST)
        try:
            driver.start()
            for _ in range(3):
                device.add(card)
            sink.wait_for(lambda es: any(e.event_no == 3 for e in es))
            yield device, sink, driver
        finally:
            driver.stop()


def test_an_undecodable_card_event_is_reported_at_once_with_its_type_number_and_bytes(dealt_three) -> None:
    device, sink, driver = dealt_three
    device.add(no_card)
    sink.wait_for(lambda es: any(isinstance(e, ev.Fault) for e in es))
    assert faults(sink) == [(ev.FaultKind.BAD_EVENT, BAD)]
    assert [e.event_no for e in sink.numbered()] == [1, 2, 3]
    assert driver.stats.bad_events == 1


def test_the_gap_an_undecodable_event_leaves_is_lost_as_undecodable_not_as_not_replayed(dealt_three) -> None:
    device, sink, driver = dealt_three
    device.add(no_card)
    device.add(card)  # the next card: the device replays #4 to fill the gap, undecodable each time
    sink.wait_for(lambda es: any(e.event_no == 5 for e in es))
    assert faults(sink) == [
        (ev.FaultKind.BAD_EVENT, BAD),
        (ev.FaultKind.EVENTS_LOST, "events 4..4 lost: the device sent event 4 undecodable (reported as a bad event)"),
    ]
    assert [e.event_no for e in sink.numbered()] == [1, 2, 3, 5]
    assert driver.stats.replays_requested >= 2
