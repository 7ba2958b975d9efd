"""The driver over a real pty or TCP socket, against a device end that misbehaves on purpose
(``FakeDevice``) or the simulator (``SimDevice``) where it answers wrongly by design."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from fakedevice import FakeDevice
from tablectl.drivers import events as ev
from tablectl.drivers.driver import THREAD_PREFIX, DeviceDriver
from tablectl.drivers.errors import DeviceUnavailable, NoAnswer, VersionMismatch, WrongDevice
from tablectl.drivers.messages import Hello
from tablectl.drivers.shoe import ShoeDriver
from tablectl.drivers.transport_serial import SerialTransport
from tablectl.simulators.factory import build_device
from tablectl.simulators.serving.pty import PtyServer
from tablectl.simulators.serving.tcp import TcpServer

from tablectl.pytest_plugin import DeviceEvents

FAST = {"answer_timeout": 0.5, "reconnect_initial": 0.01, "reconnect_max": 0.1}


def card(n: int) -> ev.CardDrawn:
    return ev.CardDrawn(n, n % 52)


def numbers(sink: DeviceEvents) -> list[int]:
    return [e.event_no for e in sink.numbered()]


def until_event(sink: DeviceEvents, n: int) -> list[int]:
    sink.wait_for(lambda es: any(e.event_no >= n for e in es))
    return numbers(sink)


def eventually(predicate, timeout: float = 2.0) -> bool:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


@pytest.fixture
def device() -> FakeDevice:
    return FakeDevice()


@pytest.fixture(params=[PtyServer, TcpServer], ids=["pty", "tcp"])
def server(request, device) -> Iterator[PtyServer | TcpServer]:
    with request.param(device) as srv:
        yield srv


def make_driver(address: str, sink: DeviceEvents, cls: type[DeviceDriver] = ShoeDriver, **kw) -> DeviceDriver:
    return cls("dev", SerialTransport(address), sink, **(FAST | kw))


@pytest.fixture
def sink() -> DeviceEvents:
    return DeviceEvents()


@pytest.fixture
def driver(server, sink) -> Iterator[DeviceDriver]:
    d = make_driver(server.address, sink)
    yield d
    d.stop()


# --- handshake ----------------------------------------------------------------------------


def test_start_returns_the_devices_identify(driver) -> None:
    ident = driver.start()
    assert (ident.kind, ident.serial, ident.protocol_version) == (ev.DeviceKind.SHOE, "FAKE-1", 1)
    assert driver.identity == ident


def test_the_host_says_hello_with_its_version_range_then_asks_for_a_replay(device, driver) -> None:
    driver.start()
    assert eventually(lambda: len(device.received) >= 2)
    hello, replay = device.received[:2]
    assert (hello.min_version, hello.max_version) == (1, 1)
    assert replay == ev.ReplayFrom(1)


def test_a_device_of_another_protocol_version_is_refused_in_one_line(sink) -> None:
    with PtyServer(build_device("shoe", protocol_version=2)) as srv:
        d = make_driver(srv.address, sink)
        with pytest.raises(VersionMismatch) as e:
            d.start()
    assert "protocol version mismatch" in str(e.value) and "device speaks protocol 2" in str(e.value)
    assert srv.address in str(e.value) and "\n" not in str(e.value)
    assert not d.running


def test_a_device_that_never_answers_fails_after_the_answer_timeout(sink) -> None:
    with PtyServer(build_device("shoe", mute=True)) as srv:
        d = make_driver(srv.address, sink, answer_timeout=0.3)
        t0 = time.monotonic()
        with pytest.raises(NoAnswer, match="no answer within 0.3 s"):
            d.start()
        assert 0.3 <= time.monotonic() - t0 < 5.0


def test_a_device_of_another_family_is_refused(sink) -> None:
    with PtyServer(build_device("csm")) as srv:
        with pytest.raises(WrongDevice, match="is a csm .*not a shoe"):
            make_driver(srv.address, sink).start()


def test_a_device_whose_counter_is_behind_the_log_is_refused(device, server, sink) -> None:
    device.add(card)
    with pytest.raises(WrongDevice, match="behind event 5"):
        make_driver(server.address, sink, resume_after=5).start()


def test_an_address_that_does_not_exist_fails_before_any_thread_starts(sink) -> None:
    d = ShoeDriver("dev", SerialTransport("/dev/tablectl-no-such-port"), sink)
    with pytest.raises(DeviceUnavailable, match="/dev/tablectl-no-such-port: does not exist"):
        d.start()
    assert not d.running


# --- events: exactly once, in order -------------------------------------------------------


def test_stored_events_are_replayed_then_live_ones_follow(device, driver, sink) -> None:
    for _ in range(3):
        device.add(card)
    driver.start()
    device.add(card)
    assert until_event(sink, 4) == [1, 2, 3, 4]
    assert sink.events[0] == ev.CardDrawn(1, 1)


def test_events_up_to_resume_after_are_not_delivered_again(device, server, sink) -> None:
    for _ in range(5):
        device.add(card)
    d = make_driver(server.address, sink, resume_after=3)
    try:
        d.start()
        assert until_event(sink, 5) == [4, 5]
        assert d.last_event_no == 5
    finally:
        d.stop()


def test_a_duplicated_event_is_delivered_once(device, driver, sink) -> None:
    driver.start()
    device.add(card)
    device.add(card)
    device.resend_all()  # both are duplicates now
    device.add(card)
    assert until_event(sink, 3) == [1, 2, 3]
    assert eventually(lambda: driver.stats.duplicate_events == 2)


def test_a_gap_is_filled_by_a_replay_before_later_events_are_delivered(device, driver, sink) -> None:
    driver.start()
    device.add(card)
    until_event(sink, 1)  # the device streams live now
    device.add(card, send=False)  # event 2 never goes out live
    device.add(card)
    assert until_event(sink, 3) == [1, 2, 3]
    assert driver.stats.replays_requested >= 2  # the one after IDENTIFY and the gap's


def test_persisted_reaches_the_device_never_beyond_what_was_delivered(device, driver, sink) -> None:
    driver.start()
    device.add(card)
    until_event(sink, 1)
    driver.persisted(7)  # more than was delivered: only 1 may be forgotten yet
    assert eventually(lambda: device.persisted_upto == 1)
    device.add(card)
    until_event(sink, 2)
    assert eventually(lambda: device.persisted_upto == 2)


def test_persisted_calls_are_coalesced(device, driver, sink) -> None:
    driver.start()
    for _ in range(50):
        device.add(card)
    until_event(sink, 50)
    for n in range(1, 51):
        driver.persisted(n)
    assert eventually(lambda: device.persisted_upto == 50)
    assert len(device.of_type(ev.Persisted)) < 50


def test_a_restarted_host_confirms_what_it_resumes_after_without_waiting_for_a_new_event(server, device, sink) -> None:
    for _ in range(40):  # dealt while the host was down: the device holds them all in NV memory
        device.add(card, send=False)
    driver = make_driver(server.address, sink, resume_after=40)  # the log already has 1..40
    try:
        driver.start()
        assert eventually(lambda: device.persisted_upto == 40)
        assert numbers(sink) == []  # nothing delivered twice
    finally:
        driver.stop()


# --- reconnects and restarts --------------------------------------------------------------


def test_after_a_device_restart_the_driver_identifies_again_and_loses_nothing(device, driver, sink) -> None:
    driver.start()
    device.add(card)
    until_event(sink, 1)
    with device.lock:
        device.restart()
        device.add(card)  # issued while the device was booting: not streaming yet
    device.add(card)
    assert until_event(sink, 3) == [1, 2, 3]
    assert len(device.of_type(Hello)) == 2  # at start, and after the restart


def test_a_dropped_connection_is_reported_then_cleared_and_nothing_is_lost(sink) -> None:
    device = FakeDevice()
    with TcpServer(device, unplug_for=0.05) as srv:
        d = make_driver(srv.address, sink)
        try:
            d.start()
            device.add(card)
            until_event(sink, 1)
            srv.unplug()
            sink.wait_for(lambda es: any(isinstance(e, ev.Fault) for e in es))
            device.add(card)  # issued while the host is away
            sink.wait_for(lambda es: any(isinstance(e, ev.Fault) and e.cleared for e in es))
            device.add(card)
            assert until_event(sink, 3) == [1, 2, 3]
            faults = sink.of_type(ev.Fault)
            assert [(f.event_no, f.kind, f.cleared) for f in faults] == [
                (0, ev.FaultKind.DISCONNECTED, False),
                (0, ev.FaultKind.DISCONNECTED, True),
            ]
            assert d.stats.reconnects >= 1
        finally:
            d.stop()


def test_a_device_gone_silent_is_taken_for_a_dropped_link(device, sink) -> None:
    with PtyServer(device) as srv:
        d = make_driver(srv.address, sink, keepalive_after=0.1)
        try:
            d.start()
            device.deaf = True  # the line stays up, nothing comes back
            faults = sink.wait_type(ev.Fault, timeout=3)
            assert faults[0].kind is ev.FaultKind.DISCONNECTED and not faults[0].cleared
            assert "silent" in faults[0].detail
            device.deaf = False
            sink.wait_type(ev.Fault, 2, timeout=3)  # back, after a reconnect
            assert d.connected
        finally:
            d.stop()


# --- requests, commands, lifecycle --------------------------------------------------------


def test_request_status_returns_the_devices_status(driver) -> None:
    driver.start()
    assert driver.request_status() == ev.Status(ev.DeviceState.READY, 52)


def test_request_status_times_out_with_no_answer(device, driver) -> None:
    driver.start()
    device.silent = True
    with pytest.raises(NoAnswer, match="RequestStatus within 0.2 s"):
        driver.request_status(timeout=0.2)


def test_a_command_reaches_the_device(device, driver) -> None:
    driver.start()
    driver.send(ev.Reset())
    assert eventually(lambda: ev.Reset() in device.received)


def test_stop_ends_the_thread_and_closes_the_port(server, driver) -> None:
    driver.start()
    driver.stop()
    assert not any(t.name.startswith(THREAD_PREFIX) for t in threading.enumerate())
    if isinstance(server, PtyServer):
        again = SerialTransport(server.address)
        again.open()  # the exclusive lock is gone
        again.close()


def test_a_command_while_not_connected_is_refused(sink) -> None:
    d = ShoeDriver("dev", SerialTransport("/dev/null"), sink)
    with pytest.raises(DeviceUnavailable, match="not connected"):
        d.send(ev.Reset())


def test_a_gap_the_device_cannot_fill_is_reported_as_lost_then_skipped(device, server, sink) -> None:
    d = make_driver(server.address, sink, keepalive_after=60.0)
    try:
        d.start()
        device.add(card)
        until_event(sink, 1)
        with device.lock:
            device.add(card, send=False)
            device.store.pop()  # event 2 is gone from the device for good
        device.add(card)
        assert until_event(sink, 3) == [1, 3]
        lost = [f for f in sink.of_type(ev.Fault) if f.kind is ev.FaultKind.EVENTS_LOST]
        assert lost and lost[0].event_no == 0 and "events 2..2 lost" in lost[0].detail
        assert d.stats.events_lost == 1
    finally:
        d.stop()


def test_an_event_numbered_beyond_the_devices_counter_is_dropped_not_skipped_to(device, server, sink) -> None:
    d = make_driver(server.address, sink, keepalive_after=60.0)  # the gap timer would give up within 1.5 s
    try:
        d.start()
        for _ in range(3):
            device.add(card)
        until_event(sink, 3)
        with device.lock:
            device._send(ev.CardDrawn(1004, 7))  # a corrupted frame the CRC did not catch
        sink.wait_for(lambda es: any(isinstance(e, ev.Fault) for e in es))
        time.sleep(3.0)  # longer than the gap timer's three asks: nothing more may happen
        for _ in range(40):
            device.add(card)
        device.restart()  # and a reconnect is not refused over it
        device.add(card)
        assert until_event(sink, 44) == list(range(1, 45))  # every real event once, 1004 never
        faults = [(f.kind, f.detail) for f in sink.of_type(ev.Fault)]
        assert faults == [(ev.FaultKind.BAD_EVENT, "event 1004 beyond the device's own counter (3) dropped: a corrupted frame? (CardDrawn #1004 3C)")]
        assert d.stats.bad_events == 1 and d.stats.events_lost == 0
    finally:
        d.stop()
