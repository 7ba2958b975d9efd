"""A native USB device's address, ``usb:VID:PID[:SERIAL]`` (hex ids), parsed (pure)."""

from __future__ import annotations

from dataclasses import dataclass

from tablectl.drivers.errors import DeviceUnavailable


@dataclass(frozen=True, slots=True)
class UsbAddress:
    """A parsed ``usb:VID:PID[:SERIAL]`` address."""

    vendor_id: int
    product_id: int
    serial: str | None = None


def parse_usb_address(address: str) -> UsbAddress:
    """Parse ``usb:1209:7ab1`` or ``usb:1209:7ab1:SN0042``; ``DeviceUnavailable`` if malformed."""
    parts = address.split(":", 3)
    if parts[0].lower() != "usb" or len(parts) < 3:
        raise DeviceUnavailable(address, "invalid USB address (expected usb:VID:PID[:SERIAL], ids in hex)")
    try:
        vid, pid = int(parts[1], 16), int(parts[2], 16)
    except ValueError:
        raise DeviceUnavailable(address, "invalid USB address (VID and PID must be hex)") from None
    if not (0 <= vid <= 0xFFFF and 0 <= pid <= 0xFFFF):
        raise DeviceUnavailable(address, "invalid USB address (VID and PID are 16-bit)")
    serial = parts[3] if len(parts) == 4 and parts[3] else None
    return UsbAddress(vid, pid, serial)


def is_usb_address(address: str) -> bool:
    return address.lower().startswith("usb:")
