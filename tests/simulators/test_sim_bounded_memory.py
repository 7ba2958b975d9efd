"""A device's memory is finite: a host that never acknowledges cannot grow a simulator.

The host below says HELLO and REPLAY_FROM 1 and then never acknowledges a frame, never persists
an event, and keeps asking for the replay again; the dealer keeps pressing the button. Before
the bound the device queued every event (and every replay of them all) in its link, and its
store dropped the oldest events when full (lost: 391 MB after 10 s in
``bench/bench_sim_memory.py --replay``). Now the store is the only queue of events, the link
holds at most a window of them, a full store refuses new actions (the dealer's press is refused
with "event store full"), and nothing is dropped: a host that comes back gets every event.
"""

from __future__ import annotations

import time

import pytest

from tablectl.drivers import events as ev
from tablectl.drivers import messages as msg
from tablectl.drivers.link import Link
from tablectl.simulators.device import SimDevice
from tablectl.simulators.model import DeviceRefused
from tablectl.simulators.nvstore import NvStore
from tablectl.simulators.shoe import ShoeModel

CAPACITY = 500
PRESSES = 5_000


def silent_host(device: SimDevice) -> Link:
    """A host session that asks for everything and then acknowledges nothing."""
    device.connected(time.monotonic())
    host = Link(window=1 << 30)  # it never waits for the device's acknowledgements either
    host.open(time.monotonic())
    host.send(*msg.encode(msg.Hello(msg.PROTOCOL_VERSION, msg.PROTOCOL_VERSION)), time.monotonic())
    host.send(*msg.encode(ev.ReplayFrom(1)), time.monotonic())
    device.receive(host.outgoing(), time.monotonic())
    return host


def test_a_host_that_never_acknowledges_stops_the_device_without_growing_it() -> None:
    device = SimDevice(ShoeModel(seed=1, store=NvStore(CAPACITY)))
    host = silent_host(device)
    refused = 0
    peak_unacked = 0
    for i in range(PRESSES):
        try:
            device.press_button()
        except DeviceRefused as e:
            assert e.code == msg.ERR_NOT_NOW and "event store full" in e.detail
            refused += 1
        if i % 50 == 0:  # the host asks for the replay again, and acknowledges nothing
            host.send(*msg.encode(ev.ReplayFrom(1)), time.monotonic())
            device.receive(host.outgoing(), time.monotonic())
        device.poll(time.monotonic())
        device.outgoing()  # written to a line nobody acknowledges
        peak_unacked = max(peak_unacked, device.unacked)
    assert len(device.store) == CAPACITY
    assert refused == PRESSES - CAPACITY
    assert peak_unacked <= 2 * 256  # the link's window of events, plus a window of answers at most
    assert device.store.first_no == 1  # nothing dropped


def test_every_event_kept_while_full_reaches_a_host_that_acknowledges(connect) -> None:
    device = SimDevice(ShoeModel(seed=1, store=NvStore(CAPACITY)))
    silent_host(device)
    for _ in range(CAPACITY + 10):
        try:
            device.press_button()
        except DeviceRefused:
            pass
    device.disconnected()  # the silent host goes; one that works connects
    host = connect(device)
    host.hello()
    host.wait_type(ev.Identify)
    host.send(ev.ReplayFrom(1))
    events = host.collect(ev.ButtonPressed, CAPACITY, timeout=30)
    assert [e.event_no for e in events] == list(range(1, CAPACITY + 1))
    host.send(ev.Persisted(CAPACITY))
    host.pump()
    assert len(device.store) == 0
    assert device.press_button()[0].event_no == CAPACITY + 1  # room again: the device goes on


def test_a_power_up_is_recorded_even_when_the_store_is_full() -> None:
    device = SimDevice(ShoeModel(seed=1, store=NvStore(3)))
    for _ in range(3):
        device.press_button()
    with pytest.raises(DeviceRefused):
        device.press_button()
    [power_up] = device.restart()
    assert isinstance(power_up, ev.Fault) and power_up.kind is ev.FaultKind.POWER_UP
