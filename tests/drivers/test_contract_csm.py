"""The continuous shuffler's contract, over pty, TCP and USB (or the real CSM at --device-url)."""

from __future__ import annotations

from typing import Any

import pytest
from contract import ALL_TRANSPORTS, DeviceContract

from tablectl.drivers import events as ev

pytestmark = pytest.mark.device("csm", transports=ALL_TRANSPORTS)


class TestCsmContract(DeviceContract):
    kind = ev.DeviceKind.CSM

    def stimulate(self, sim: Any, n: int) -> list[ev.DeviceEvent]:
        out: list[ev.DeviceEvent] = []
        while len(out) < n:
            out += sim.draw()
        return out

    def test_shuffle_reports_started_then_done_with_a_deck_check(self, device_driver, device_events) -> None:
        device_driver.shuffle()
        done = device_events.wait_type(ev.ShuffleDone)[0]
        started = device_events.of_type(ev.ShuffleStarted)[0]
        assert started.event_no < done.event_no
        assert done.shoe_id == started.shoe_id

    def test_cards_returned_are_reported_as_read(self, device_driver, device_sim, device_events) -> None:
        out = [e.card for e in device_sim.draw() + device_sim.draw() if isinstance(e, ev.CardDrawn)]
        device_sim.return_cards(out)
        returned = device_events.wait_type(ev.CardReturned, 2)
        assert [e.card for e in returned] == out

    def test_status_counts_the_cards_inside(self, device_driver, device_sim) -> None:
        assert device_driver.request_status().cards_in_device == device_sim.model.cards_in_device
