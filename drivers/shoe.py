"""The card-reading shoe driver: cards drawn (or misread), cut card, shoe loaded and empty, faults.

A shoe takes no commands beyond the shared ones (status, identify): it reports what the dealer does.
"""

from __future__ import annotations

from tablectl.drivers.driver import DeviceDriver
from tablectl.drivers.events import DeviceKind


class ShoeDriver(DeviceDriver):
    """Driver for a card-reading dealing shoe."""

    kind = DeviceKind.SHOE
