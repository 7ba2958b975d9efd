"""The card-reading shoe's contract, over pty, TCP and USB (or the real shoe at --device-url)."""

from __future__ import annotations

from typing import Any

import pytest
from contract import ALL_TRANSPORTS, DeviceContract

from tablectl.drivers import events as ev

pytestmark = pytest.mark.device("shoe", transports=ALL_TRANSPORTS)


class TestShoeContract(DeviceContract):
    kind = ev.DeviceKind.SHOE

    def stimulate(self, sim: Any, n: int) -> list[ev.DeviceEvent]:
        out: list[ev.DeviceEvent] = []
        while len(out) < n:
            out += sim.draw()
        return out

    def test_each_card_drawn_is_reported_as_read(self, device_driver, device_sim, device_events) -> None:
        drawn = [e for _ in range(4) for e in device_sim.draw() if isinstance(e, ev.CardDrawn)]
        got = device_events.wait_type(ev.CardDrawn, 4)
        assert [(e.event_no, e.card) for e in got] == [(e.event_no, e.card) for e in drawn]

    def test_a_misread_card_arrives_as_none(self, device_driver, device_sim, device_events) -> None:
        device_sim.inject("misread")
        device_sim.draw()
        assert device_events.wait_type(ev.CardDrawn)[0].card is None

    def test_a_jam_is_raised_then_cleared(self, device_driver, device_sim, device_events) -> None:
        device_sim.inject("jam")
        device_sim.clear_fault()
        faults = device_events.wait_type(ev.Fault, 2)
        assert [(f.kind, f.cleared) for f in faults] == [(ev.FaultKind.JAM, False), (ev.FaultKind.JAM, True)]
        assert all(f.event_no for f in faults)  # device faults are numbered events
