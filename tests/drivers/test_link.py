"""The reliable link, end to end between two ``Link`` objects with a fake clock and a bad line."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tablectl.drivers import messages as m
from tablectl.drivers.framer import Framer, encode
from tablectl.drivers.link import Link
from tablectl.simulators.linefaults import split_frames

DATA = 0x20


class Wire:
    """Two links and a clock; ``mangle`` is applied to every frame in both directions."""

    def __init__(self, mangle=None, retransmit_after: float = 0.05, window: int = 256) -> None:
        self.now = 0.0
        self.a = Link(retransmit_after=retransmit_after, window=window)
        self.b = Link(retransmit_after=retransmit_after, window=window)
        self.mangle = mangle or (lambda frames: frames)
        self.got_a: list[tuple[int, bytes]] = []
        self.got_b: list[tuple[int, bytes]] = []
        self.a.open(self.now)
        self.b.open(self.now)

    def _carry(self, data: bytes) -> bytes:
        frames = [p for _, p in split_frames(bytearray(data))]
        return b"".join(self.mangle(frames))

    def run(self, steps: int = 50, dt: float = 0.02) -> None:
        for _ in range(steps):
            self.now += dt
            self.a.poll(self.now)
            self.b.poll(self.now)
            self.got_b += self.b.receive(self._carry(self.a.outgoing()), self.now)
            self.got_a += self.a.receive(self._carry(self.b.outgoing()), self.now)

    def data_b(self) -> list[bytes]:
        return [p for t, p in self.got_b if t == DATA]


def bad_line(seed: int, rate: float):
    rng = random.Random(seed)

    def mangle(frames: list[bytes]) -> list[bytes]:
        out: list[bytes] = []
        for f in frames:
            r = rng.random()
            if r < rate:
                continue  # drop
            if r < 2 * rate:
                out += [f, f]  # duplicate
            elif r < 3 * rate:
                b = bytearray(f)
                b[rng.randrange(len(b))] ^= 0x10
                out.append(bytes(b))  # corrupt
            elif r < 4 * rate and out:
                out.insert(len(out) - 1, f)  # reorder with the previous frame
            else:
                out.append(f)
            if rng.random() < rate:
                out.append(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 12))))  # noise
        return out

    return mangle


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.floats(0.0, 0.15), st.integers(1, 300))
def test_messages_arrive_once_and_in_order_over_a_bad_line(seed: int, rate: float, n: int) -> None:
    w = Wire(bad_line(seed, rate))
    sent = [i.to_bytes(4, "little") for i in range(n)]
    for p in sent:
        w.a.send(DATA, p, w.now)
    w.run(steps=400)
    assert w.data_b() == sent


def test_a_duplicated_frame_is_delivered_once_and_counted() -> None:
    w = Wire(lambda frames: [g for f in frames for g in (f, f)])
    w.a.send(DATA, b"x", w.now)
    w.run(5)
    assert w.data_b() == [b"x"]
    assert w.b.duplicates >= 1


def test_frames_out_of_order_are_held_and_delivered_in_order() -> None:
    w = Wire()
    w.run(3)
    for p in (b"1", b"2", b"3"):
        w.a.send(DATA, p, w.now)
    frames = [p for _, p in split_frames(bytearray(w.a.outgoing()))]
    got = w.b.receive(frames[2] + frames[1], w.now)
    assert got == []
    assert w.b.out_of_order == 2
    naks = [f for f in Framer().feed(w.b.outgoing()) if f.type == m.NAK]
    assert naks and naks[-1].seq & 0xFFFFFF == 1  # counter 1 is the one missing
    assert w.b.receive(frames[0], w.now) == [(DATA, b"1"), (DATA, b"2"), (DATA, b"3")]


def test_an_unacknowledged_frame_is_sent_again_after_the_retransmit_time() -> None:
    link = Link(retransmit_after=0.05)
    link.open(0.0)
    link.send(DATA, b"x", 0.0)
    first = link.outgoing()
    link.poll(0.04)
    assert link.outgoing() == b""
    link.poll(0.051)
    assert link.outgoing() == first  # SYNC and the data frame again, byte for byte
    assert link.retransmits == 2


def test_next_deadline_is_none_when_nothing_is_in_flight() -> None:
    w = Wire()
    w.run(3)
    assert w.a.next_deadline() is None
    w.a.send(DATA, b"x", w.now)
    assert w.a.next_deadline() == w.now + w.a.retransmit_after


def test_a_new_peer_session_is_delivered_once_as_sync() -> None:
    w = Wire(lambda frames: [g for f in frames for g in (f, f)])  # even when the SYNC arrives twice
    w.run(5)
    assert w.got_b.count((m.SYNC, b"")) == 1


def test_frames_of_an_old_session_are_dropped() -> None:
    w = Wire()
    w.a.send(DATA, b"old", w.now)
    old = w.a.outgoing()
    w.run(5)
    w.a.open(w.now)
    w.a.send(DATA, b"new", w.now)
    w.run(5)
    w.got_b += w.b.receive(old, w.now)  # a straggler from before the reconnect
    assert w.data_b() == [b"old", b"new"]
    assert w.b.stale >= 1


def test_after_the_peer_restarts_unacknowledged_frames_reach_it_in_a_new_session() -> None:
    w = Wire()
    w.run(5)
    w.b = Link()  # the peer lost its RAM: it no longer knows our session
    w.b.open(w.now)
    w.got_b = []
    w.a.send(DATA, b"after restart", w.now)
    w.run(10)
    assert w.data_b() == [b"after restart"]
    assert w.a.resyncs == 1


def test_at_most_window_frames_are_in_flight() -> None:
    link = Link(window=4)
    link.open(0.0)
    for i in range(10):
        link.send(DATA, bytes([i]), 0.0)
    assert len(Framer().feed(link.outgoing())) == 4  # SYNC + 3 data frames
    assert link.unacked == 11


def test_each_frame_carries_epoch_and_counter_in_seq() -> None:
    link = Link()
    link.open(0.0)
    link.send(DATA, b"x", 0.0)
    sync, data = Framer().feed(link.outgoing())
    assert sync.type == m.SYNC and len(sync.payload) == 4
    assert sync.seq >> 24 == data.seq >> 24
    assert (sync.seq & 0xFFFFFF, data.seq & 0xFFFFFF) == (0, 1)
    assert encode(data.seq, DATA, b"x") == encode(*data)
