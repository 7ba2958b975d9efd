"""Why a device could not be used: one exception family, each a one-line ``<device>: <reason>``.

The CLI prints these as ``tablectl: <device>: <reason>`` with exit code 4; the table controller
shows them to the floor as they are. No traceback is ever needed to understand one.
"""

from __future__ import annotations


class DriverError(Exception):
    """Base of every device failure. ``device`` names the device (its address, or name and
    address); ``reason`` says what went wrong in a few words. ``str()`` is one line."""

    def __init__(self, device: str, reason: str) -> None:
        super().__init__(f"{device}: {reason}")
        self.device = device
        self.reason = reason


class DeviceUnavailable(DriverError):
    """The transport could not be opened, or it dropped: no such port, permission denied, port
    already in use, connection refused, connection lost."""


class NoAnswer(DriverError):
    """The device did not answer a request within the answer timeout."""


class VersionMismatch(DriverError):
    """The device speaks no protocol version the host speaks."""


class WrongDevice(DriverError):
    """The connected device is not of the driver's family (or not the device expected)."""


class DeviceRefused(DriverError):
    """The device answered a request with an ERROR message."""


class UnknownDriver(ValueError):
    """No driver of that name is registered (a usage error, not a device error)."""
