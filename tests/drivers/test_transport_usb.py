"""The USB transport through pyusb's own code path, over the simulated USB backend."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from tablectl.drivers import messages as m
from tablectl.drivers import usbids
from tablectl.drivers.errors import DeviceUnavailable
from tablectl.drivers.framer import Framer
from tablectl.drivers.link import Link
from tablectl.drivers.transport_usb import UsbTransport
from tablectl.simulators.factory import build_device
from tablectl.simulators.serving.usb import SimUsbBackend

SHOE = f"usb:{usbids.VENDOR_ID:04x}:{usbids.PRODUCT_IDS[build_device('shoe').kind]:04x}"


@pytest.fixture
def sim():
    return build_device("shoe", seed=5, serial="SHOE-7")


@pytest.fixture
def backend(sim) -> SimUsbBackend:
    return SimUsbBackend(sim, unplug_for=0.2)


@pytest.fixture
def usb(backend) -> Iterator[UsbTransport]:
    t = UsbTransport(SHOE + ":SHOE-7", backend=backend)
    t.open()
    yield t
    t.close()


def read_frames(t: UsbTransport, timeout: float = 2.0) -> list:
    framer, frames = Framer(), []
    deadline = time.monotonic() + timeout
    while not frames and time.monotonic() < deadline:
        frames += framer.feed(t.read(4096, 0.05))
    return frames


def test_opening_brings_up_the_device_which_opens_a_session(usb) -> None:
    assert read_frames(usb)[0].type == m.SYNC


def test_bytes_written_reach_the_device_and_its_answer_comes_back(usb) -> None:
    link = Link()
    link.open(time.monotonic())
    link.send(*m.encode(m.Hello()), time.monotonic())
    usb.write(link.outgoing())
    framer, got = Framer(), []
    deadline = time.monotonic() + 2
    while not any(f.type == m.IDENTIFY for f in got) and time.monotonic() < deadline:
        got += framer.feed(usb.read(4096, 0.05))
    ident = m.decode(m.IDENTIFY, next(f for f in got if f.type == m.IDENTIFY).payload)
    assert ident.serial == "SHOE-7"


def test_a_read_with_nothing_to_read_times_out_empty() -> None:
    t = UsbTransport(SHOE, backend=SimUsbBackend(build_device("shoe", mute=True)))
    t.open()
    try:
        t0 = time.monotonic()
        assert t.read(4096, 0.1) == b""
        assert 0.09 <= time.monotonic() - t0 < 1.0
    finally:
        t.close()


def test_the_serial_number_selects_the_device(backend) -> None:
    with pytest.raises(DeviceUnavailable, match="does not exist"):
        UsbTransport(SHOE + ":OTHER", backend=backend).open()


def test_an_unplugged_device_is_a_lost_connection(usb, backend, sim) -> None:
    backend.unplug(sim)
    with pytest.raises(DeviceUnavailable, match="connection lost"):
        usb.read(4096, 0.05)
    with pytest.raises(DeviceUnavailable, match="does not exist"):
        UsbTransport(SHOE, backend=backend).open()  # gone from the bus while unplugged


def test_no_matching_device_on_the_bus_does_not_exist() -> None:
    with pytest.raises(DeviceUnavailable, match=r"^usb:1209:7ab3: does not exist"):
        UsbTransport("usb:1209:7ab3", backend=SimUsbBackend(build_device("shoe"))).open()
