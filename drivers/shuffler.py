"""The hand-forming batch shuffler driver: shuffle with deck check, packets, discard."""

from __future__ import annotations

from tablectl.drivers.driver import DeviceDriver
from tablectl.drivers.events import DeliverPacket, DeviceKind, DiscardRest, StartShuffle


class BatchShufflerDriver(DeviceDriver):
    """Driver for a hand-forming batch shuffler with deck check."""

    kind = DeviceKind.SHUFFLER

    def shuffle(self) -> None:
        """Shuffle the next batch (answered by ShuffleStarted, then ShuffleDone with the deck check)."""
        self.send(StartShuffle())

    def deliver_packet(self, count: int) -> None:
        """Deliver the next packet of ``count`` cards (answered by PacketDelivered)."""
        if not 1 <= count <= 255:
            raise ValueError(f"packet size must be 1..255 cards, got {count}")
        self.send(DeliverPacket(count))

    def discard_rest(self) -> None:
        """Discard what remains of the batch, unseen (answered by CardsDiscarded)."""
        self.send(DiscardRest())
