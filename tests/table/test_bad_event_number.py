"""A frame whose corruption the CRC missed, carrying an event number far beyond the device's own
counter (1 frame in 65,536 on a noisy line): the whole stack, simulated shoe -> pty -> driver ->
controller -> signed log, across a restart of the controller.

The driver must not take the number for real: not declare the numbers up to it lost, not log it,
not confirm it to the device, and so not drop the device's real cards after it as duplicates.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tablectl.drivers import messages as msg
from tablectl.drivers.framer import Frame
from tablectl.simulators.factory import build_device
from tablehelpers import RecordingSim, RewrittenLine, SignedTable, cards_drawn, cards_logged

from tablectl.table import lifecycle as lc
from tablectl.table.simulated.virtual_dealer import DealerError, VirtualDealer

BOGUS = 1004


class CorruptingLine(RewrittenLine):
    """A line that corrupts one frame in a way its CRC does not catch: the CARD_DRAWN numbered
    ``victim`` reaches the host numbered ``bogus`` instead."""

    def __init__(self, sim: Any, victim: int, bogus: int) -> None:
        super().__init__(sim)
        self.victim = victim
        self.bogus = bogus
        self.corrupted = 0

    def active(self) -> bool:
        return not self.corrupted

    def rewrite(self, frame: Frame) -> bytes | None:
        if frame.type == msg.CARD_DRAWN and int.from_bytes(frame.payload[:4], "little") == self.victim:
            self.corrupted += 1
            return self.bogus.to_bytes(4, "little") + frame.payload[4:]
        return None


def test_an_event_number_beyond_the_devices_counter_is_alarmed_and_every_real_card_logged_once(tmp_path: Path) -> None:
    line = CorruptingLine(build_device("shoe", decks=6, seed=5, load=False), victim=5, bogus=BOGUS)
    shoe = RecordingSim(line)  # what the dealer drew, as the device numbered it
    table = SignedTable(tmp_path, sims={"shoe": line}, seed=None)

    runtime = table.runtime()
    try:
        controller = runtime.start()
        with pytest.raises(DealerError, match="held without a mistake of mine: bad_event"):
            VirtualDealer(controller, shoe, seed=5).play(3)
        assert line.corrupted == 1
        view = controller.snapshot(10)
        assert view.state == lc.HELD
        kinds = [a.kind for a in view.alarms]
        # the hold comes with the driver's answer to its REQ_IDENTIFY: a card the dealer drew before
        # it (a slow machine) reaches a held table (wrong_state), and is logged all the same
        assert kinds[0] == "bad_event" and set(kinds[1:]) <= {"wrong_state"}, kinds
        assert f"shoe: event {BOGUS} beyond the device's own counter" in view.alarms[0].detail
        controller.resolve("supervisor-1", note="line checked").result(10)
        VirtualDealer(controller, shoe, seed=6).play(2)
    finally:
        runtime.stop()
    runtime = table.runtime()  # a restart (before the fix: refused, "behind event 1004 already logged")
    try:
        VirtualDealer(runtime.start(), shoe, seed=7).play(2)
    finally:
        runtime.stop()

    records = table.records()
    device_cards, logged_cards = cards_drawn(shoe.events), cards_logged(records)
    assert len(device_cards) > 10
    assert logged_cards == device_cards  # every real card, exactly once
    assert all(r.get("event_no") != BOGUS for r in records)
    assert max(r.get("event_no") or 0 for r in records) == line.store.last_no  # the log stands where the device does
    faults = [(r["fault"], r["cleared"]) for r in records if r["event"] == "fault"]
    assert faults == [("bad_event", False)]  # and nothing declared lost
