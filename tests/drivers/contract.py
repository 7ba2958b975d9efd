"""What every device family must do, as one abstract test class (python-can's contract tests).

Each ``test_contract_<family>.py`` subclasses ``DeviceContract``, marks it with its family and
says how to make the device issue numbered events (``stimulate``). The fixtures come from
``tablectl.pytest_plugin``: a simulator per test over pty, TCP and USB by default, or the real
device with ``--device-url``. The tests see the device only as the controller does (through its
driver) and act on it only through ``device_actuator`` (a rig's hands, a technician, or a
simulator's control channel), so they run unchanged on a rig.
"""

from __future__ import annotations

from typing import Any, ClassVar

from tablectl.drivers import events as ev
from tablectl.pytest_plugin import DeviceActuator, DeviceEvents

ALL_TRANSPORTS = ("pty", "tcp", "usb")
#: Seconds a device may take to come back after a power cycle or a replug.
COME_BACK = 30.0


def exactly_once_in_order(events: list[ev.DeviceEvent]) -> list[int]:
    numbers = [e.event_no for e in events if e.event_no]
    assert numbers == sorted(set(numbers)), f"duplicates or disorder: {numbers}"
    return numbers


def contiguous(numbers: list[int]) -> bool:
    return numbers == list(range(numbers[0], numbers[0] + len(numbers)))


class DeviceContract:
    """Inherited by one class per family; not collected itself (no ``Test`` prefix)."""

    kind: ClassVar[ev.DeviceKind]

    def stimulate(self, actuator: DeviceActuator, n: int) -> None:
        """Act ``n`` times on the device, each action issuing at least one numbered event."""
        raise NotImplementedError

    def issue(self, actuator: DeviceActuator, driver: Any, events: DeviceEvents, n: int) -> list[ev.DeviceEvent]:
        """``stimulate(n)`` and wait for what it caused; returns the numbered events delivered."""
        before = driver.last_event_no
        self.stimulate(actuator, n)
        events.wait_for(lambda es: sum(e.event_no > before for e in es) >= n)
        driver.request_status()  # answered after every event issued before it was delivered
        return [e for e in events.numbered() if e.event_no > before]

    def test_identifies_as_its_family_speaking_protocol_1(self, device_driver) -> None:
        ident = device_driver.identity
        assert ident.kind == self.kind
        assert ident.protocol_version == 1
        assert ident.serial

    def test_answers_a_status_request(self, device_driver) -> None:
        assert isinstance(device_driver.request_status(), ev.Status)

    def test_events_arrive_once_in_order_as_the_device_issued_them(
        self, device_driver, device_actuator, device_events
    ) -> None:
        issued = self.issue(device_actuator, device_driver, device_events, 5)
        numbers = exactly_once_in_order(device_events.events)
        assert len(issued) >= 5
        assert contiguous(numbers)

    def test_persisted_events_are_forgotten_by_the_device(
        self, device_driver, device_actuator, device_events, device_connect
    ) -> None:
        issued = self.issue(device_actuator, device_driver, device_events, 3)
        device_driver.persisted(issued[-1].event_no)
        device_driver.request_status()
        device_driver.request_status()  # asked after the PERSISTED went out: the device has it
        device_driver.stop()
        replayed = DeviceEvents()
        again = device_connect("again", replayed, resume_after=issued[0].event_no - 1)
        try:
            again.request_status()  # answered after whatever the device replays
            assert replayed.numbered() == []
        finally:
            again.stop()

    def test_a_device_restart_loses_nothing(self, device_driver, device_actuator, device_events) -> None:
        before = self.issue(device_actuator, device_driver, device_events, 2)
        device_actuator.power_cycle()
        device_events.wait_for(
            lambda es: any(isinstance(e, ev.Fault) and e.kind is ev.FaultKind.POWER_UP for e in es), COME_BACK
        )
        after = self.issue(device_actuator, device_driver, device_events, 2)
        numbers = exactly_once_in_order(device_events.events)
        assert numbers[0] == before[0].event_no and numbers[-1] == after[-1].event_no
        assert contiguous(numbers)

    def test_a_dropped_connection_loses_nothing(self, device_driver, device_actuator, device_events) -> None:
        first = self.issue(device_actuator, device_driver, device_events, 2)
        device_actuator.unplug()
        self.stimulate(device_actuator, 3)  # issued while the cable is out
        device_actuator.replug()
        device_events.wait_for(lambda es: sum(e.event_no > first[-1].event_no for e in es) >= 3, COME_BACK)
        numbers = exactly_once_in_order(device_events.events)
        assert numbers[0] == first[0].event_no
        assert contiguous(numbers)

    def test_a_new_driver_resuming_after_the_log_gets_only_what_came_later(
        self, device_driver, device_actuator, device_events, device_connect
    ) -> None:
        self.issue(device_actuator, device_driver, device_events, 2)
        logged = device_driver.last_event_no
        device_driver.stop()  # the controller goes down; the device deals on
        self.stimulate(device_actuator, 2)
        fresh = DeviceEvents()
        again = device_connect("again", fresh, resume_after=logged)
        try:
            fresh.wait_for(lambda es: len([e for e in es if e.event_no]) >= 2)
            again.request_status()
            numbers = [e.event_no for e in fresh.numbered()]
            assert numbers[0] == logged + 1 and contiguous(numbers)
        finally:
            again.stop()
