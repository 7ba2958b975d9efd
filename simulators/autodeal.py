"""The virtual dealer that deals by itself (``tablectl sim --autodraw RATE``).

A thread acting through the device's control API at ``rate`` cards per second until the device
is done: a shoe draws until empty; a CSM dispenses until empty; a batch shuffler shuffles when it
must and delivers packets of ``packet`` cards (at ``rate`` cards per second) until the deck is
used up. While a fault blocks the device it keeps trying (clearing the fault lets it go on).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from tablectl.drivers.events import DeviceEvent
from tablectl.simulators.device import SimDevice
from tablectl.simulators.model import DeviceRefused
from tablectl.simulators.shuffler import ShufflerModel


class AutoDealer:
    """``AutoDealer(device, rate).start()``; ``stop()``; ``finished`` is set when it is done."""

    def __init__(self, device: SimDevice, rate: float, *, packet: int = 3) -> None:
        if rate <= 0:
            raise ValueError("the autodraw rate must be positive (cards per second)")
        self.device = device
        self.rate = rate
        self.packet = packet
        self.finished = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sim-autodeal", daemon=True)
        self.dealt = 0

    def start(self) -> AutoDealer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def _run(self) -> None:
        model = self.device.model
        shuffler = model if isinstance(model, ShufflerModel) else None
        step = (self.packet if shuffler else 1) / self.rate
        while not self._stop.is_set():
            if model.done:
                break
            if shuffler is not None and not shuffler.shuffled_ready:
                self._try(self.device.start_shuffle)
            elif shuffler is not None:
                self._try(lambda: self.device.deliver_packet(self.packet))
            else:
                self._try(self.device.draw)
            self._stop.wait(step)
        self.finished.set()

    def _try(self, action: Callable[[], list[DeviceEvent]]) -> None:
        try:
            events = action()
            self.dealt += len(events)
        except DeviceRefused:
            pass
