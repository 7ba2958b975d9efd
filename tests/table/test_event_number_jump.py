"""A shoe whose event counter reads 0xFFFFFFFF for a moment (an NV cell read as erased): one card
frame goes out numbered 2^32-1 and the device's IDENTIFY vouches for that number. The whole stack,
simulated shoe -> pty -> driver -> controller -> signed log, across a restart of the controller.

The number is far past anything the host knows of the shoe (docs/protocol.md section 6, "Event
numbers near the top of the range"): the frame is refused and its card is in the log as a suspect
(the bad_event fault names it), the table holds, and every real card after it is logged exactly once
(before: the numbers up to 2^32-2 were declared lost and every later card dropped as a duplicate)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from tablectl.drivers import events as ev
from tablectl.drivers import messages as msg
from tablectl.drivers.framer import Frame
from tablectl.drivers.numbering import EVENT_NO_MAX
from tablectl.simulators.factory import build_device
from tablehelpers import RecordingSim, RewrittenLine, SignedTable, cards_drawn, cards_logged, until

from tablectl.cards import text
from tablectl.table import lifecycle as lc
from tablectl.table.inputs import InputRejected
from tablectl.table.simulated.virtual_dealer import DealerError, VirtualDealer

_IDENTIFY_COUNTER = slice(3, 7)  # u8 kind, u16 protocol_version, then u32 last_event_no


class CounterGlitch(RewrittenLine):
    """A simulated shoe whose counter reads ``EVENT_NO_MAX`` while ``glitch`` is on: the CARD_DRAWN
    numbered ``victim`` goes out numbered 2^32-1 (the device stores it under its real number, and
    replays it so), and every IDENTIFY says the counter is at 2^32-1."""

    def __init__(self, sim: Any, victim: int) -> None:
        super().__init__(sim)
        self.victim = victim
        self.glitch = False
        self.misnumbered = 0

    def active(self) -> bool:
        return self.glitch

    def rewrite(self, frame: Frame) -> bytes | None:
        payload = bytearray(frame.payload)
        if frame.type == msg.CARD_DRAWN and not self.misnumbered and int.from_bytes(payload[:4], "little") == self.victim:
            payload[:4] = EVENT_NO_MAX.to_bytes(4, "little")
            self.misnumbered += 1
        elif frame.type == msg.IDENTIFY:
            payload[_IDENTIFY_COUNTER] = EVENT_NO_MAX.to_bytes(4, "little")
        return bytes(payload)


def resolve_once_the_shoe_is_back(controller: Any, timeout: float = 20) -> None:
    """The supervisor's resolve of the hold, as a supervisor does it: again if the table was back
    in device fault when it arrived (the refused shoe's next handshake still to come)."""
    deadline = time.monotonic() + timeout
    while True:
        until(controller, lambda v: v.state == lc.HELD and all(a.violation for a in v.alarms), "the shoe never came back")
        try:
            controller.resolve("supervisor-1", note="shoe counter checked").result(10)
            return
        except InputRejected:
            if time.monotonic() > deadline:
                raise


def test_a_card_numbered_2_32_minus_1_is_logged_as_a_suspect_and_every_real_card_after_it_once(tmp_path: Path) -> None:
    line = CounterGlitch(build_device("shoe", decks=6, seed=5, load=False), victim=5)
    shoe = RecordingSim(line)  # what the dealer drew, as the device numbered it
    table = SignedTable(tmp_path, sims={"shoe": line}, seed=None)

    runtime = table.runtime()
    try:
        controller = runtime.start()
        controller.add_view_listener(lambda v: v.alarms and setattr(line, "glitch", False))  # then reads right
        line.glitch = True  # after the handshake: the table knows the shoe at its real counter
        with pytest.raises(DealerError, match="held without a mistake of mine: bad_event"):
            VirtualDealer(controller, shoe, seed=5).play(3)
        assert line.misnumbered == 1
        # an IDENTIFY the driver asked for while the counter still read 2^32-1 (a race) refuses the
        # shoe until the next handshake: wait for it to be back
        view = until(controller, lambda v: v.state == lc.HELD and all(a.violation for a in v.alarms), "the shoe never came back")
        assert view.alarms[0].kind == "bad_event", view.alarms
        victim = next(e for e in shoe.events if e.event_no == 5)
        assert isinstance(victim, ev.CardDrawn) and victim.card is not None
        suspect = f"shoe: CardDrawn #{EVENT_NO_MAX} {text(victim.card)} refused: event {EVENT_NO_MAX} is "
        assert view.alarms[0].detail.startswith(suspect)
        resolve_once_the_shoe_is_back(controller)
        VirtualDealer(controller, shoe, seed=6).play(2)
    finally:
        runtime.stop()
    runtime = table.runtime()  # a restart: the log does not stand at 2^32-1, so the shoe is not refused
    try:
        VirtualDealer(runtime.start(), shoe, seed=7).play(2)
    finally:
        runtime.stop()

    records = table.records()
    device_cards, logged_cards = cards_drawn(shoe.events), cards_logged(records)
    assert len(device_cards) > 10
    assert logged_cards == device_cards  # every real card, exactly once, the victim under its real number
    assert all(r.get("event_no") != EVENT_NO_MAX for r in records)
    assert max(r.get("event_no") or 0 for r in records) == line.store.last_no  # the log stands where the shoe does
    faults = [(r["fault"], r["cleared"], r["detail"]) for r in records if r["event"] == "fault"]
    assert faults[0][:2] == ("bad_event", False)
    assert faults[0][2].startswith(suspect.removeprefix("shoe: "))  # the frame's card, in the log as a suspect
    assert {f for f, _, _ in faults[1:]} <= {"disconnected"}  # nothing declared lost
