"""Every card exactly once, in order, through every line fault at 5% each and a controller crash.

Line faults (noise, crc, drop, dup, reorder, disconnect) are applied by the simulator to every
frame, 5% each, in both directions (disconnect: device to host); the transport is a real TCP
socket (a disconnect closes it) or a real pty (a disconnect is a silent, flushed line). Halfway
through, the controller "crashes": its driver stops, only what it persisted survives, and a new
driver resumes after the last persisted event. The log must equal a fault-free run of the same
seed, event for event.
"""

from __future__ import annotations

import pytest
from campaign import reference, run

SEED = 20240607


def key(events):
    return [(e.event_no, type(e).__name__, getattr(e, "card", None)) for e in events]


def check(cards: int, transport: str) -> None:
    result = run(SEED, cards, rate=0.05, transport=transport, restart_receiver_at=cards // 2)
    print(f"\n{transport}: {result.summary()}")
    assert result.restarts_of_receiver == 1
    assert all(result.faults_applied.get(k, 0) > 0 for k in ("noise", "crc", "drop", "dup", "reorder", "disconnect"))
    assert result.card_events >= cards
    assert key(result.log) == key(reference(SEED, cards))


def test_two_thousand_cards_through_every_fault_arrive_exactly_once_in_order() -> None:
    check(2_000, "tcp")


@pytest.mark.slow
@pytest.mark.parametrize("transport", ["tcp", "pty"])
def test_twenty_thousand_cards_through_every_fault_arrive_exactly_once_in_order(transport: str) -> None:
    check(20_000, transport)
