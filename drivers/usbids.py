"""USB identity of tablectl-protocol devices: the contract between the pyusb transport and the
simulated USB backend (and the udev rules in config/).

A device speaks the same framed byte stream as on a serial line, carried over one vendor-specific
interface (class 0xFF) with one bulk OUT and one bulk IN endpoint. The VID is pid.codes' open-source
vendor id; the PIDs are tablectl's. A maker's own device keeps its ids and is found by passing
them in the device address (``usb:VID:PID[:SERIAL]``).
"""

from __future__ import annotations

from tablectl.drivers.events import DeviceKind

VENDOR_ID = 0x1209
PRODUCT_IDS: dict[DeviceKind, int] = {
    DeviceKind.SHOE: 0x7AB1,
    DeviceKind.CSM: 0x7AB2,
    DeviceKind.SHUFFLER: 0x7AB3,
}
INTERFACE = 0
INTERFACE_CLASS = 0xFF
EP_OUT = 0x01
EP_IN = 0x81
MAX_PACKET = 64
