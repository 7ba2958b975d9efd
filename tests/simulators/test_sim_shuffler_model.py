"""The batch shuffler model: deck check, packets, discard, riffle quality."""

from __future__ import annotations

import random

import pytest

from tablectl.drivers.events import (
    CardsDiscarded,
    Fault,
    FaultKind,
    PacketDelivered,
    ShuffleDone,
    ShuffleStarted,
)
from tablectl.simulators.faults import FaultPlan
from tablectl.simulators.model import DeviceRefused
from tablectl.simulators.shuffler import ShufflerModel
from tablectl.simulators.shuffling import ShuffleQuality, gsr_riffle


def test_shuffle_reports_a_clean_deck_check_and_packets_follow() -> None:
    s = ShufflerModel(seed=1)
    started, done = s.start_shuffle()
    assert started == ShuffleStarted(1, 1)
    assert isinstance(done, ShuffleDone) and done.deck_ok and done.cards == 52
    p0, p1 = s.deliver_packet(3), s.deliver_packet(3)
    assert [p.packet for p in p0 + p1] == [0, 1]
    assert len(p0[0].cards) == 3
    (discard,) = s.discard_rest()
    assert discard == CardsDiscarded(5, 46)
    with pytest.raises(DeviceRefused):
        s.deliver_packet(3)
    _, done2 = s.start_shuffle()
    assert done2.deck_ok and s.deliver_packet(1)[0].packet == 0


def test_no_packet_before_a_shuffle() -> None:
    with pytest.raises(DeviceRefused):
        ShufflerModel(seed=1).deliver_packet(3)


def test_packets_are_deterministic_and_use_each_card_once() -> None:
    def deal(seed: int) -> list[int | None]:
        s = ShufflerModel(seed=seed)
        s.start_shuffle()
        return [c for _ in range(17) for c in s.deliver_packet(3)[0].cards] + list(s.deliver_packet(3)[0].cards)

    a = deal(4)
    assert a == deal(4) and a != deal(5)
    assert sorted(a) == list(range(52))  # the last packet holds the one card left


@pytest.mark.parametrize(
    ("fault", "check"),
    [
        ("missing", lambda d: sum(d.missing.values()) == 1 and not d.extra and d.foreign == 0),
        ("extra", lambda d: sum(d.extra.values()) == 1 and not d.missing and d.foreign == 0),
        ("foreign", lambda d: d.foreign == 1 and not d.missing and not d.extra and d.cards == 53),
    ],
)
def test_deck_check_catches_deck_faults(fault: str, check: object) -> None:
    s = ShufflerModel(seed=2, faults=FaultPlan(at={fault: {1}}))
    _, done = s.start_shuffle()
    assert not done.deck_ok and check(done)  # type: ignore[operator]
    _, again = s.start_shuffle()
    assert again == ShuffleDone(again.event_no, 2, 1, again.cards, done.missing, done.extra, done.foreign)
    s.load()  # a fresh deck cures it
    assert s.start_shuffle()[1].deck_ok


def test_jam_mid_packet_reports_what_came_out_then_the_jam() -> None:
    s = ShufflerModel(seed=3, faults=FaultPlan(at={"jam": {3}}))
    s.start_shuffle()  # events 1, 2
    s.faults.at["jam"] = {3}
    events = s.deliver_packet(3)
    assert events == [Fault(3, FaultKind.JAM, False, "card jam")]
    with pytest.raises(DeviceRefused):
        s.deliver_packet(3)
    assert s.reset() == [Fault(4, FaultKind.JAM, True, "reset")]
    assert isinstance(s.deliver_packet(3)[0], PacketDelivered)


def test_gsr_riffle_is_a_permutation_that_keeps_two_rising_sequences() -> None:
    deck = list(range(52))
    out = gsr_riffle(deck, random.Random(1))
    assert sorted(out) == deck
    # one riffle of a sorted deck is at most two interleaved rising sequences
    descents = sum(1 for i in range(51) if out.index(i + 1) < out.index(i))
    assert descents <= 1


def test_poor_shuffle_leaves_the_previous_order_visible() -> None:
    def adjacency(quality: ShuffleQuality) -> float:
        s = ShufflerModel(seed=8, quality=quality)
        kept = 0
        s.start_shuffle()
        prev = [c for c in s.deliver_packet(52)[0].cards]
        for _ in range(20):
            s.start_shuffle()
            now = list(s.deliver_packet(52)[0].cards)
            pos = {c: i for i, c in enumerate(now)}
            kept += sum(1 for a, b in zip(prev, prev[1:]) if pos[b] == pos[a] + 1)
            prev = now
        return kept / 20

    assert adjacency(ShuffleQuality(riffles=2)) > 10
    assert adjacency(ShuffleQuality()) < 4
