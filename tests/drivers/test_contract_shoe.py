"""The card-reading shoe's contract, over pty, TCP and USB (or the real shoe at --device-url)."""

from __future__ import annotations

import pytest
from contract import ALL_TRANSPORTS, DeviceContract

from tablectl.drivers import events as ev
from tablectl.pytest_plugin import DeviceActuator

pytestmark = pytest.mark.device("shoe", transports=ALL_TRANSPORTS)


class TestShoeContract(DeviceContract):
    kind = ev.DeviceKind.SHOE

    def stimulate(self, actuator: DeviceActuator, n: int) -> None:
        actuator.draw(n)

    def test_each_card_drawn_is_reported_as_read(self, device_driver, device_actuator, device_events) -> None:
        seen = device_actuator.draw(4)
        got = device_events.wait_type(ev.CardDrawn, 4)
        assert None not in [e.card for e in got]
        if seen is not None:  # the rig saw the cards: the shoe read the same ones
            assert [e.card for e in got] == seen

    def test_a_misread_card_arrives_as_none(self, device_driver, device_actuator, device_events) -> None:
        device_actuator.cause("misread")
        device_actuator.draw(1)
        assert device_events.wait_type(ev.CardDrawn)[0].card is None

    def test_a_jam_is_raised_then_cleared(self, device_driver, device_actuator, device_events) -> None:
        device_actuator.cause("jam")
        device_actuator.clear_faults()
        faults = device_events.wait_type(ev.Fault, 2)
        assert [(f.kind, f.cleared) for f in faults] == [(ev.FaultKind.JAM, False), (ev.FaultKind.JAM, True)]
        assert all(f.event_no for f in faults)  # device faults are numbered events
