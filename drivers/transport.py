"""Transports: how bytes reach a device. No protocol knowledge lives here.

A device address is either ``usb:VID:PID[:SERIAL]`` (hex ids; the tablectl vendor interface over
pyusb) or anything pyserial's ``serial_for_url`` opens: ``/dev/ttyUSB0``, a pty path,
``socket://host:port``, ``rfc2217://host:port``. ``transport_for(address)`` builds the right
transport without opening it.

Contract for every transport (one owner thread calls everything but ``wakeup``):

- ``open()`` connects, or raises ``DeviceUnavailable`` with a one-line reason;
- ``read(max_bytes, timeout)`` returns what arrived (up to ``max_bytes``) as soon as anything
  arrives, or ``b""`` when ``timeout`` seconds pass with nothing; it raises ``DeviceUnavailable``
  when the connection is lost (EOF, read error, device gone);
- ``write(data)`` writes everything or raises ``DeviceUnavailable``;
- ``close()`` releases the port; it is idempotent and never raises;
- ``wakeup()`` may be called from any thread to make a blocked ``read`` return early (a transport
  whose reads are short anyway may make it a no-op).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from tablectl.drivers.usb_address import is_usb_address


@runtime_checkable
class Transport(Protocol):
    """A byte pipe to one device."""

    address: str

    def open(self) -> None: ...

    def read(self, max_bytes: int, timeout: float) -> bytes: ...

    def write(self, data: bytes) -> None: ...

    def close(self) -> None: ...

    def wakeup(self) -> None: ...


def transport_for(address: str, *, usb_backend: Any = None) -> Transport:
    """The (unopened) transport for an address. ``usb_backend`` is a pyusb ``IBackend`` to use
    instead of libusb (the simulated USB backend in tests)."""
    if is_usb_address(address):
        from tablectl.drivers.transport_usb import UsbTransport

        return UsbTransport(address, backend=usb_backend)
    from tablectl.drivers.transport_serial import SerialTransport

    return SerialTransport(address)
