"""The USB transport: the tablectl byte stream over one vendor interface's bulk endpoints.

The device is found with ``usb.core.find(idVendor=..., idProduct=..., custom_match=<serial
number>, backend=...)``. The backend is libusb (from the system, or the one ``libusb-package``
ships) unless one is injected: tests pass the simulated ``IBackend`` so the whole of pyusb's own
code path runs. Endpoint addresses and the interface number are ``tablectl.drivers.usbids``.
A bulk read that times out is not an error: it means nothing arrived.
"""

from __future__ import annotations

import errno
from typing import Any

from tablectl.drivers import usbids
from tablectl.drivers.errors import DeviceUnavailable
from tablectl.drivers.usb_address import parse_usb_address

_READ_SIZE = usbids.MAX_PACKET * 64  # whole packets: a short buffer overflows on real hardware
_WRITE_TIMEOUT_MS = 1000


def libusb_backend() -> Any:
    """The libusb-1.0 pyusb backend (the system's, else ``libusb-package``'s), or None."""
    import usb.backend.libusb1

    backend = usb.backend.libusb1.get_backend()
    if backend is None:
        try:
            import libusb_package

            backend = usb.backend.libusb1.get_backend(find_library=libusb_package.find_library)
        except Exception:  # noqa: BLE001 - no libusb anywhere is an answer, not a crash
            backend = None
    return backend


def _usb_reason(e: BaseException, default: str) -> str:
    code = getattr(e, "errno", None)
    if code == errno.EACCES or code == errno.EPERM:
        return "permission denied (install config/udev rules or run with access to the device)"
    if code == errno.EBUSY:
        return "port already in use (interface claimed by another program)"
    if code in (errno.ENODEV, errno.ENOENT, errno.EPIPE):
        return "connection lost (device gone)"
    text = str(e).strip() or type(e).__name__
    return f"{default} ({text})"


class UsbTransport:
    """A device on the tablectl USB vendor interface."""

    def __init__(self, address: str, *, backend: Any = None) -> None:
        self.address = address
        self.usb_address = parse_usb_address(address)
        self._backend = backend
        self._dev: Any = None

    def _find(self) -> Any:
        import usb.core

        backend = self._backend or libusb_backend()
        if backend is None:
            raise DeviceUnavailable(self.address, "no libusb available on this machine")
        wanted = self.usb_address.serial

        def serial_matches(dev: Any) -> bool:
            if wanted is None:
                return True
            try:
                return dev.serial_number == wanted
            except (ValueError, usb.core.USBError, NotImplementedError):
                return False

        try:
            return usb.core.find(
                idVendor=self.usb_address.vendor_id,
                idProduct=self.usb_address.product_id,
                custom_match=serial_matches,
                backend=backend,
            )
        except usb.core.USBError as e:
            raise DeviceUnavailable(self.address, _usb_reason(e, "cannot enumerate USB devices")) from None

    def open(self) -> None:
        import usb.core
        import usb.util

        dev = self._find()
        if dev is None:
            raise DeviceUnavailable(self.address, "does not exist (no such USB device)")
        try:
            try:
                if dev.is_kernel_driver_active(usbids.INTERFACE):
                    dev.detach_kernel_driver(usbids.INTERFACE)
            except (NotImplementedError, usb.core.USBError):
                pass
            try:
                dev.get_active_configuration()
            except usb.core.USBError:
                dev.set_configuration()
            usb.util.claim_interface(dev, usbids.INTERFACE)
        except usb.core.USBError as e:
            usb.util.dispose_resources(dev)
            raise DeviceUnavailable(self.address, _usb_reason(e, "cannot open")) from None
        self._dev = dev

    def read(self, max_bytes: int, timeout: float) -> bytes:
        import usb.core

        dev = self._dev
        if dev is None:
            raise DeviceUnavailable(self.address, "not open")
        size = min(_READ_SIZE, max(usbids.MAX_PACKET, -(-max_bytes // usbids.MAX_PACKET) * usbids.MAX_PACKET))
        try:
            # pyusb treats a timeout of 0 as "forever": never pass 0
            return bytes(dev.read(usbids.EP_IN, size, timeout=max(1, int(timeout * 1000))))
        except usb.core.USBTimeoutError:
            return b""
        except usb.core.USBError as e:
            if getattr(e, "errno", None) == errno.ETIMEDOUT:
                return b""
            raise DeviceUnavailable(self.address, _usb_reason(e, "connection lost")) from None

    def write(self, data: bytes) -> None:
        import usb.core

        dev = self._dev
        if dev is None:
            raise DeviceUnavailable(self.address, "not open")
        view = memoryview(data)
        try:
            while view:
                n = dev.write(usbids.EP_OUT, view, timeout=_WRITE_TIMEOUT_MS)
                view = view[n:]
        except usb.core.USBError as e:
            raise DeviceUnavailable(self.address, _usb_reason(e, "write failed")) from None

    def wakeup(self) -> None:
        """Reads are short (the driver's poll interval), so there is nothing to interrupt."""

    def close(self) -> None:
        import usb.util

        dev, self._dev = self._dev, None
        if dev is None:
            return
        try:
            usb.util.release_interface(dev, usbids.INTERFACE)
        except Exception:  # noqa: BLE001 - the device may already be gone
            pass
        try:
            usb.util.dispose_resources(dev)
        except Exception:  # noqa: BLE001
            pass

    def __repr__(self) -> str:
        return f"UsbTransport({self.address!r})"
