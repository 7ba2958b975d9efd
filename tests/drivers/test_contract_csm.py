"""The continuous shuffler's contract, over pty, TCP and USB (or the real CSM at --device-url)."""

from __future__ import annotations

import pytest
from contract import ALL_TRANSPORTS, DeviceContract

from tablectl.drivers import events as ev
from tablectl.pytest_plugin import DeviceActuator

pytestmark = pytest.mark.device("csm", transports=ALL_TRANSPORTS)


class TestCsmContract(DeviceContract):
    kind = ev.DeviceKind.CSM

    def stimulate(self, actuator: DeviceActuator, n: int) -> None:
        actuator.draw(n)

    def test_shuffle_reports_started_then_done_with_a_deck_check(self, device_driver, device_events) -> None:
        device_driver.shuffle()
        done = device_events.wait_type(ev.ShuffleDone)[0]
        started = device_events.of_type(ev.ShuffleStarted)[0]
        assert started.event_no < done.event_no
        assert done.shoe_id == started.shoe_id

    def test_cards_returned_are_reported_as_read(self, device_driver, device_actuator, device_events) -> None:
        device_actuator.draw(2)
        out = [e.card for e in device_events.wait_type(ev.CardDrawn, 2)]
        assert None not in out
        device_actuator.return_cards(out)
        returned = device_events.wait_type(ev.CardReturned, 2)
        assert [e.card for e in returned] == out

    def test_status_counts_the_cards_inside(self, device_driver, device_actuator, device_events) -> None:
        inside = device_driver.request_status().cards_in_device
        device_actuator.draw(1)
        card = device_events.wait_type(ev.CardDrawn)[0].card
        assert device_driver.request_status().cards_in_device == inside - 1
        device_actuator.return_cards([card])
        device_events.wait_type(ev.CardReturned)
        assert device_driver.request_status().cards_in_device == inside
