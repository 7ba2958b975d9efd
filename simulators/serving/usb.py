"""A pyusb backend (``usb.backend.IBackend``) presenting simulated devices, so a driver's pyusb code
path runs unchanged against a simulator::

    backend = SimUsbBackend(device)
    dev = usb.core.find(idVendor=0x1209, idProduct=0x7AB1, backend=backend)
    dev.write(0x01, frame_bytes); dev.read(0x81, 64, timeout=100)

Descriptors follow ``tablectl.drivers.usbids``: VID 0x1209, PID per device kind, one
configuration, vendor-class interface 0 with bulk OUT 0x01 and bulk IN 0x81 (64-byte packets);
strings 1 = manufacturer, 2 = product (the model name), 3 = serial number (the simulator's
serial), read through GET_DESCRIPTOR control transfers as ``usb.util.get_string`` does.

Opening the device is the transport coming up (the device starts a new link session); closing it
is the transport going down. ``bulk_read`` fills the buffer it is given and returns the count, or
raises ``usb.core.USBTimeoutError`` after ``timeout`` ms (0 = wait forever) as libusb1's backend
does. A ``disconnect`` fault (or ``unplug()``) makes the device vanish for ``unplug_for`` seconds:
transfers on the old handle raise ``USBError`` (ENODEV) and ``enumerate_devices`` hides it; the
host must find and open it again.
"""

from __future__ import annotations

import array
import errno
import struct
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import usb.backend
import usb.core

from tablectl.drivers import usbids
from tablectl.simulators.device import SimDevice

LIBUSB_ERROR_TIMEOUT = -7
LIBUSB_ERROR_NO_DEVICE = -4
LIBUSB_ERROR_PIPE = -9
LIBUSB_ERROR_NOT_FOUND = -5
LIBUSB_SPEED_FULL = 2
LANGID_EN_US = 0x0409
MANUFACTURER = "tablectl"
DESC_DEVICE, DESC_CONFIG, DESC_STRING, DESC_INTERFACE, DESC_ENDPOINT = 1, 2, 3, 4, 5
GET_DESCRIPTOR = 6
GET_STATUS = 0
GET_CONFIGURATION = 8


@dataclass
class _DeviceDescriptor:
    idVendor: int
    idProduct: int
    address: int
    bus: int = 1
    port_number: int = 1
    port_numbers: tuple[int, ...] = (1,)
    speed: int = LIBUSB_SPEED_FULL
    bLength: int = 18
    bDescriptorType: int = DESC_DEVICE
    bcdUSB: int = 0x0200
    bDeviceClass: int = 0
    bDeviceSubClass: int = 0
    bDeviceProtocol: int = 0
    bMaxPacketSize0: int = 64
    bcdDevice: int = 0x0100
    iManufacturer: int = 1
    iProduct: int = 2
    iSerialNumber: int = 3
    bNumConfigurations: int = 1

    def raw(self) -> bytes:
        return struct.pack(
            "<BBHBBBBHHHBBBB", self.bLength, self.bDescriptorType, self.bcdUSB, self.bDeviceClass,
            self.bDeviceSubClass, self.bDeviceProtocol, self.bMaxPacketSize0, self.idVendor,
            self.idProduct, self.bcdDevice, self.iManufacturer, self.iProduct, self.iSerialNumber,
            self.bNumConfigurations,
        )


@dataclass
class _ConfigDescriptor:
    bLength: int = 9
    bDescriptorType: int = DESC_CONFIG
    wTotalLength: int = 9 + 9 + 7 + 7
    bNumInterfaces: int = 1
    bConfigurationValue: int = 1
    iConfiguration: int = 0
    bmAttributes: int = 0x80
    bMaxPower: int = 50  # 100 mA
    extra_descriptors: list[int] = field(default_factory=list)
    interface: int = 0

    def raw(self) -> bytes:
        return struct.pack(
            "<BBHBBBBB", self.bLength, self.bDescriptorType, self.wTotalLength, self.bNumInterfaces,
            self.bConfigurationValue, self.iConfiguration, self.bmAttributes, self.bMaxPower,
        )


@dataclass
class _InterfaceDescriptor:
    bLength: int = 9
    bDescriptorType: int = DESC_INTERFACE
    bInterfaceNumber: int = usbids.INTERFACE
    bAlternateSetting: int = 0
    bNumEndpoints: int = 2
    bInterfaceClass: int = usbids.INTERFACE_CLASS
    bInterfaceSubClass: int = 0
    bInterfaceProtocol: int = 0
    iInterface: int = 0
    extra_descriptors: list[int] = field(default_factory=list)
    endpoint: int = 0

    def raw(self) -> bytes:
        return struct.pack(
            "<BBBBBBBBB", self.bLength, self.bDescriptorType, self.bInterfaceNumber, self.bAlternateSetting,
            self.bNumEndpoints, self.bInterfaceClass, self.bInterfaceSubClass, self.bInterfaceProtocol,
            self.iInterface,
        )


@dataclass
class _EndpointDescriptor:
    bEndpointAddress: int
    bLength: int = 7
    bDescriptorType: int = DESC_ENDPOINT
    bmAttributes: int = 0x02  # bulk
    wMaxPacketSize: int = usbids.MAX_PACKET
    bInterval: int = 0
    bRefresh: int = 0
    bSynchAddress: int = 0
    extra_descriptors: list[int] = field(default_factory=list)

    def raw(self) -> bytes:
        return struct.pack(
            "<BBBBHB", self.bLength, self.bDescriptorType, self.bEndpointAddress, self.bmAttributes,
            self.wMaxPacketSize, self.bInterval,
        )


class _SimUsbDevice:
    """One simulated device on the bus, with its I/O state."""

    def __init__(self, device: SimDevice, address: int, unplug_for: float) -> None:
        self.device = device
        self.unplug_for = unplug_for
        self.descriptor = _DeviceDescriptor(
            idVendor=usbids.VENDOR_ID,
            idProduct=usbids.PRODUCT_IDS[device.kind],
            address=address,
            port_number=address,
            port_numbers=(address,),
        )
        self.endpoints = (_EndpointDescriptor(usbids.EP_OUT), _EndpointDescriptor(usbids.EP_IN))
        self.cond = threading.Condition()
        self.pending = bytearray()  # device -> host bytes not yet read
        self.generation = 0  # bumped by every open and every unplug: stale handles fail
        self.open_handles = 0
        self.unplugged_until = 0.0
        self.configuration = 1  # Linux configures a device when it enumerates it
        device.add_waker(self._wake)

    def _wake(self) -> None:
        with self.cond:
            self.cond.notify_all()

    @property
    def present(self) -> bool:
        if self.unplugged_until and time.monotonic() >= self.unplugged_until:
            self.unplugged_until = 0.0
        return not self.unplugged_until

    def strings(self) -> dict[int, str]:
        return {1: MANUFACTURER, 2: self.device.model_name, 3: self.device.serial}

    def unplug(self, seconds: float | None = None) -> None:
        with self.cond:
            self.unplugged_until = time.monotonic() + (self.unplug_for if seconds is None else seconds)
            self.generation += 1
            self.pending.clear()
            self.open_handles = 0
            self.device.disconnected()
            self.cond.notify_all()

    def pump(self) -> None:
        """Move what the device has to say into ``pending`` (cond held)."""
        now = time.monotonic()
        self.device.poll(now)
        out = self.device.outgoing(now)
        if self.device.take_disconnect():
            self.unplug()
            return
        self.pending += out


@dataclass
class _Handle:
    dev: _SimUsbDevice
    generation: int
    claimed: set[int] = field(default_factory=set)


def _no_device() -> usb.core.USBError:
    return usb.core.USBError("No such device (it may have been disconnected)", LIBUSB_ERROR_NO_DEVICE, errno.ENODEV)


class SimUsbBackend(usb.backend.IBackend):
    """A pyusb backend whose bus holds the given simulated devices (addresses 1, 2, ...)."""

    def __init__(self, *devices: SimDevice, unplug_for: float = 0.3) -> None:
        super().__init__()
        self._devices = [_SimUsbDevice(d, i + 1, unplug_for) for i, d in enumerate(devices)]

    def usb_device(self, device: SimDevice) -> _SimUsbDevice:
        for d in self._devices:
            if d.device is device:
                return d
        raise KeyError(device)

    def unplug(self, device: SimDevice, seconds: float | None = None) -> None:
        """Pull ``device``'s cable for ``seconds``."""
        self.usb_device(device).unplug(seconds)

    # --- enumeration and descriptors -------------------------------------------------------

    def enumerate_devices(self) -> list[_SimUsbDevice]:
        return [d for d in self._devices if d.present]

    def get_device_descriptor(self, dev: _SimUsbDevice) -> _DeviceDescriptor:
        return dev.descriptor

    def get_configuration_descriptor(self, dev: _SimUsbDevice, config: int) -> _ConfigDescriptor:
        if config != 0:
            raise IndexError("invalid configuration index " + str(config))
        return _ConfigDescriptor()

    def get_interface_descriptor(self, dev: _SimUsbDevice, intf: int, alt: int, config: int) -> _InterfaceDescriptor:
        if config != 0:
            raise IndexError("invalid configuration index " + str(config))
        if intf != 0:
            raise IndexError("invalid interface index " + str(intf))
        if alt != 0:
            raise IndexError("invalid alternate setting index " + str(alt))
        return _InterfaceDescriptor()

    def get_endpoint_descriptor(
        self, dev: _SimUsbDevice, ep: int, intf: int, alt: int, config: int
    ) -> _EndpointDescriptor:
        self.get_interface_descriptor(dev, intf, alt, config)
        if not 0 <= ep < len(dev.endpoints):
            raise IndexError("invalid endpoint index " + str(ep))
        return dev.endpoints[ep]

    def get_parent(self, dev: _SimUsbDevice) -> None:
        return None

    # --- handles -----------------------------------------------------------------------------

    def open_device(self, dev: _SimUsbDevice) -> _Handle:
        with dev.cond:
            if not dev.present:
                raise _no_device()
            dev.generation += 1
            dev.open_handles = 1
            dev.pending.clear()
            dev.device.connected(time.monotonic())
            return _Handle(dev, dev.generation)

    def close_device(self, dev_handle: _Handle) -> None:
        dev = dev_handle.dev
        with dev.cond:
            if dev_handle.generation == dev.generation and dev.open_handles:
                dev.open_handles = 0
                dev.pending.clear()
                dev.device.disconnected()

    def _check(self, handle: _Handle) -> _SimUsbDevice:
        dev = handle.dev
        if handle.generation != dev.generation or not dev.present or not dev.open_handles:
            raise _no_device()
        return dev

    def set_configuration(self, dev_handle: _Handle, config_value: int) -> None:
        dev = self._check(dev_handle)
        if config_value not in (0, 1):
            raise usb.core.USBError("Entity not found", LIBUSB_ERROR_NOT_FOUND, errno.ENOENT)
        dev.configuration = config_value

    def get_configuration(self, dev_handle: _Handle) -> int:
        return self._check(dev_handle).configuration

    def set_interface_altsetting(self, dev_handle: _Handle, intf: int, altsetting: int) -> None:
        self._check(dev_handle)
        if intf != 0 or altsetting != 0:
            raise usb.core.USBError("Entity not found", LIBUSB_ERROR_NOT_FOUND, errno.ENOENT)

    def claim_interface(self, dev_handle: _Handle, intf: int) -> None:
        self._check(dev_handle)
        if intf != usbids.INTERFACE:
            raise usb.core.USBError("Entity not found", LIBUSB_ERROR_NOT_FOUND, errno.ENOENT)
        dev_handle.claimed.add(intf)

    def release_interface(self, dev_handle: _Handle, intf: int) -> None:
        dev_handle.claimed.discard(intf)

    def is_kernel_driver_active(self, dev_handle: _Handle, intf: int) -> bool:
        return False

    def detach_kernel_driver(self, dev_handle: _Handle, intf: int) -> None:
        return None

    def attach_kernel_driver(self, dev_handle: _Handle, intf: int) -> None:
        return None

    def clear_halt(self, dev_handle: _Handle, ep: int) -> None:
        self._check(dev_handle)

    def reset_device(self, dev_handle: _Handle) -> None:
        """A USB reset: the transport goes down and comes back (a new link session)."""
        dev = self._check(dev_handle)
        with dev.cond:
            dev.pending.clear()
            dev.device.disconnected()
            dev.device.connected(time.monotonic())

    # --- transfers -----------------------------------------------------------------------------

    def bulk_write(self, dev_handle: _Handle, ep: int, intf: int, data: array.array, timeout: int) -> int:
        dev = self._check(dev_handle)
        if ep != usbids.EP_OUT:
            raise usb.core.USBError("Pipe error", LIBUSB_ERROR_PIPE, errno.EPIPE)
        payload = data.tobytes()
        with dev.cond:
            dev.device.receive(payload, time.monotonic())
            dev.pump()
            dev.cond.notify_all()
        return len(payload)

    def bulk_read(self, dev_handle: _Handle, ep: int, intf: int, buff: array.array, timeout: int) -> int:
        dev = self._check(dev_handle)
        if ep != usbids.EP_IN:
            raise usb.core.USBError("Pipe error", LIBUSB_ERROR_PIPE, errno.EPIPE)
        size = len(buff) * buff.itemsize
        deadline = None if timeout == 0 else time.monotonic() + timeout / 1000.0
        with dev.cond:
            while True:
                self._check(dev_handle)
                dev.pump()
                if dev.pending:
                    n = min(size, len(dev.pending))
                    view = memoryview(buff).cast("B")
                    view[:n] = dev.pending[:n]
                    del dev.pending[:n]
                    return n
                now = time.monotonic()
                if deadline is not None and now >= deadline:
                    raise usb.core.USBTimeoutError("Operation timed out", LIBUSB_ERROR_TIMEOUT, errno.ETIMEDOUT)
                wait = 0.2
                device_deadline = dev.device.next_deadline()
                if device_deadline is not None:
                    wait = min(wait, max(0.0, device_deadline - now))
                if deadline is not None:
                    wait = min(wait, deadline - now)
                dev.cond.wait(max(wait, 0.001))

    def intr_write(self, dev_handle: _Handle, ep: int, intf: int, data: array.array, timeout: int) -> int:
        raise usb.core.USBError("Pipe error", LIBUSB_ERROR_PIPE, errno.EPIPE)

    def intr_read(self, dev_handle: _Handle, ep: int, intf: int, buff: array.array, timeout: int) -> int:
        raise usb.core.USBError("Pipe error", LIBUSB_ERROR_PIPE, errno.EPIPE)

    def ctrl_transfer(
        self, dev_handle: _Handle, bmRequestType: int, bRequest: int, wValue: int, wIndex: int,
        data: array.array, timeout: int,
    ) -> Any:
        dev = self._check(dev_handle)
        device_to_host = bool(bmRequestType & 0x80)
        if not device_to_host:
            if bRequest == 9:  # SET_CONFIGURATION
                dev.configuration = wValue & 0xFF
                return 0
            raise usb.core.USBError("Pipe error", LIBUSB_ERROR_PIPE, errno.EPIPE)
        reply = self._control_in(dev, bmRequestType, bRequest, wValue, wIndex)
        size = len(data) * data.itemsize
        n = min(size, len(reply))
        memoryview(data).cast("B")[:n] = reply[:n]
        return n

    def _control_in(self, dev: _SimUsbDevice, rtype: int, request: int, value: int, index: int) -> bytes:
        if (rtype & 0x60) != 0:  # only standard requests
            raise usb.core.USBError("Pipe error", LIBUSB_ERROR_PIPE, errno.EPIPE)
        if request == GET_STATUS:
            return b"\x00\x00"
        if request == GET_CONFIGURATION:
            return bytes((dev.configuration,))
        if request != GET_DESCRIPTOR:
            raise usb.core.USBError("Pipe error", LIBUSB_ERROR_PIPE, errno.EPIPE)
        kind, number = value >> 8, value & 0xFF
        if kind == DESC_DEVICE:
            return dev.descriptor.raw()
        if kind == DESC_CONFIG and number == 0:
            return (
                _ConfigDescriptor().raw() + _InterfaceDescriptor().raw()
                + dev.endpoints[0].raw() + dev.endpoints[1].raw()
            )
        if kind == DESC_STRING:
            if number == 0:
                return bytes((4, DESC_STRING)) + struct.pack("<H", LANGID_EN_US)
            text = dev.strings().get(number)
            if text is not None:
                body = text.encode("utf-16-le")[:252]
                return bytes((2 + len(body), DESC_STRING)) + body
        raise usb.core.USBError("Pipe error", LIBUSB_ERROR_PIPE, errno.EPIPE)
