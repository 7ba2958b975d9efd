"""A simulated device behind a pyusb backend: pyusb's own find/read/write code paths run."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import usb.core
import usb.util
from tablectl.drivers import events as ev
from tablectl.drivers import messages as msg
from tablectl.drivers import usbids
from tablectl.simulators.factory import build_device
from tablectl.simulators.minihost import MiniHost, usb_io
from tablectl.simulators.serving.usb import SimUsbBackend


def test_find_by_ids_and_serial_with_the_right_descriptors() -> None:
    shoe = build_device("shoe", seed=1, serial="USB-SHOE")
    csm = build_device("csm", seed=1, serial="USB-CSM")
    backend = SimUsbBackend(shoe, csm)
    found = list(usb.core.find(find_all=True, idVendor=usbids.VENDOR_ID, backend=backend))
    assert sorted(d.idProduct for d in found) == sorted(usbids.PRODUCT_IDS[k] for k in (ev.DeviceKind.SHOE, ev.DeviceKind.CSM))
    dev = usb.core.find(
        idVendor=usbids.VENDOR_ID,
        idProduct=usbids.PRODUCT_IDS[ev.DeviceKind.CSM],
        custom_match=lambda d: d.serial_number == "USB-CSM",
        backend=backend,
    )
    assert dev is not None and dev.manufacturer == "tablectl"
    intf = dev.get_active_configuration()[(usbids.INTERFACE, 0)]
    assert intf.bInterfaceClass == usbids.INTERFACE_CLASS
    eps = {e.bEndpointAddress: e for e in intf}
    assert set(eps) == {usbids.EP_OUT, usbids.EP_IN}
    assert all(usb.util.endpoint_type(e.bmAttributes) == usb.util.ENDPOINT_TYPE_BULK for e in eps.values())
    assert all(e.wMaxPacketSize == usbids.MAX_PACKET for e in eps.values())
    usb.util.dispose_resources(dev)


def open_host(backend: SimUsbBackend, kind: ev.DeviceKind) -> tuple[usb.core.Device, MiniHost]:
    dev = usb.core.find(idVendor=usbids.VENDOR_ID, idProduct=usbids.PRODUCT_IDS[kind], backend=backend)
    assert dev is not None
    dev.set_configuration()
    usb.util.claim_interface(dev, usbids.INTERFACE)
    host = MiniHost(*usb_io(dev))
    host.open()
    return dev, host


def test_hello_identify_and_a_drawn_card_over_usb(shake: Callable) -> None:
    device = build_device("shoe", seed=2, serial="U2")
    dev, host = open_host(SimUsbBackend(device), ev.DeviceKind.SHOE)
    try:
        assert shake(host).serial == "U2"
        host.wait_type(ev.ShoeLoaded)
        (drawn,) = device.draw()
        assert host.wait_type(ev.CardDrawn) == drawn
    finally:
        usb.util.dispose_resources(dev)
    assert not device.online  # closing the handle is the transport going down


def test_version_mismatch_over_usb() -> None:
    device = build_device("shuffler", seed=3, protocol_version=9)
    dev, host = open_host(SimUsbBackend(device), ev.DeviceKind.SHUFFLER)
    try:
        host.hello()
        assert host.wait_type(msg.DeviceError).code == msg.ERR_VERSION
    finally:
        usb.util.dispose_resources(dev)


def test_read_timeout_is_a_usb_timeout_error() -> None:
    device = build_device("shoe", seed=4, mute=True)
    dev = usb.core.find(idVendor=usbids.VENDOR_ID, backend=SimUsbBackend(device))
    try:
        with pytest.raises(usb.core.USBTimeoutError):
            dev.read(usbids.EP_IN, 64, timeout=20)
    finally:
        usb.util.dispose_resources(dev)


def test_unplug_makes_the_device_vanish_then_come_back() -> None:
    device = build_device("shoe", seed=5)
    backend = SimUsbBackend(device)
    dev, _ = open_host(backend, ev.DeviceKind.SHOE)
    backend.unplug(device, 0.1)
    with pytest.raises(usb.core.USBError) as err:
        dev.read(usbids.EP_IN, 64, timeout=20)
    assert not isinstance(err.value, usb.core.USBTimeoutError)
    assert usb.core.find(idVendor=usbids.VENDOR_ID, backend=backend) is None
    usb.util.dispose_resources(dev)
    import time

    time.sleep(0.15)
    again, host = open_host(backend, ev.DeviceKind.SHOE)
    try:
        host.hello()
        assert host.wait_type(ev.Identify).last_event_no == 1
    finally:
        usb.util.dispose_resources(again)
