"""What every device family must do, as one abstract test class (python-can's contract tests).

Each ``test_contract_<family>.py`` subclasses ``DeviceContract``, marks it with its family and
says how the dealer makes the device issue numbered events (``stimulate``). The fixtures come from
``tablectl.pytest_plugin``: a simulator per test over pty, TCP and USB by default, or the real
device with ``--device-url`` (tests that must act as the dealer then skip).
"""

from __future__ import annotations

from typing import Any, ClassVar

from tablectl.drivers import events as ev
from tablectl.drivers.registry import open_device
from tablectl.pytest_plugin import DeviceEvents

ALL_TRANSPORTS = ("pty", "tcp", "usb")


def exactly_once_in_order(events: list[ev.DeviceEvent]) -> list[int]:
    numbers = [e.event_no for e in events if e.event_no]
    assert numbers == sorted(set(numbers)), f"duplicates or disorder: {numbers}"
    return numbers


class DeviceContract:
    """Inherited by one class per family; not collected itself (no ``Test`` prefix)."""

    kind: ClassVar[ev.DeviceKind]

    def stimulate(self, sim: Any, n: int) -> list[ev.DeviceEvent]:
        """Make the simulated device issue at least ``n`` numbered events; returns them."""
        raise NotImplementedError

    def test_identifies_as_its_family_speaking_protocol_1(self, device_driver) -> None:
        ident = device_driver.identity
        assert ident.kind == self.kind
        assert ident.protocol_version == 1
        assert ident.serial

    def test_answers_a_status_request(self, device_driver) -> None:
        assert isinstance(device_driver.request_status(), ev.Status)

    def test_events_arrive_once_in_order_as_the_device_issued_them(self, device_driver, device_sim, device_events):
        issued = self.stimulate(device_sim, 5)
        device_events.wait_for(lambda es: any(e.event_no == issued[-1].event_no for e in es))
        numbers = exactly_once_in_order(device_events.events)
        assert [e for e in device_events.numbered() if e.event_no >= issued[0].event_no] == issued
        assert numbers == list(range(numbers[0], numbers[-1] + 1))

    def test_persisted_events_are_forgotten_by_the_device(self, device_driver, device_sim, device_events):
        issued = self.stimulate(device_sim, 3)
        last = issued[-1].event_no
        device_events.wait_for(lambda es: any(e.event_no == last for e in es))
        device_driver.persisted(last)
        device_events.wait_for(lambda es: len(device_sim.store) == 0, timeout=2)
        assert device_sim.store.unpersisted == []

    def test_a_device_restart_loses_nothing(self, device_driver, device_sim, device_events) -> None:
        before = self.stimulate(device_sim, 2)
        device_sim.restart()
        after = self.stimulate(device_sim, 2)
        last = after[-1].event_no
        device_events.wait_for(lambda es: any(e.event_no == last for e in es))
        numbers = exactly_once_in_order(device_events.events)
        assert numbers[-1] == last and numbers == list(range(numbers[0], last + 1))
        assert before[0].event_no in numbers
        assert any(isinstance(e, ev.Fault) and e.kind is ev.FaultKind.POWER_UP for e in device_events.events)

    def test_a_dropped_connection_loses_nothing(self, device_driver, device_sim, device_events) -> None:
        first = self.stimulate(device_sim, 2)
        device_events.wait_for(lambda es: any(e.event_no == first[-1].event_no for e in es))
        device_sim.inject("disconnect")
        after = self.stimulate(device_sim, 3)  # issued while the cable is out
        last = after[-1].event_no
        device_events.wait_for(lambda es: any(e.event_no == last for e in es), timeout=10)
        numbers = exactly_once_in_order(device_events.events)
        assert numbers == list(range(numbers[0], last + 1))

    def test_a_new_driver_resuming_after_the_log_gets_only_what_came_later(
        self, device_driver, device_sim, device_address, _device_served
    ) -> None:
        logged = self.stimulate(device_sim, 2)[-1].event_no
        device_driver.stop()  # the controller goes down; the device deals on
        later = self.stimulate(device_sim, 2)
        fresh = DeviceEvents()
        again = open_device(
            self.kind.name.lower(), device_address, "again", fresh,
            resume_after=logged, usb_backend=_device_served.usb_backend,
        )
        try:
            fresh.wait_for(lambda es: any(e.event_no == later[-1].event_no for e in es))
            assert [e.event_no for e in fresh.numbered()] == list(range(logged + 1, later[-1].event_no + 1))
        finally:
            again.stop()
