"""The continuous shuffler (CSM) driver: cards dispensed and returned, shuffles, jams, door."""

from __future__ import annotations

from tablectl.drivers.driver import DeviceDriver
from tablectl.drivers.events import DeviceKind, StartShuffle


class CsmDriver(DeviceDriver):
    """Driver for a continuous shuffling machine with card recognition out and in."""

    kind = DeviceKind.CSM

    def shuffle(self) -> None:
        """Reshuffle the machine's content (answered by ShuffleStarted / ShuffleDone events)."""
        self.send(StartShuffle())
