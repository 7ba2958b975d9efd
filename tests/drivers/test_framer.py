"""The framer: pure bytes in, checked frames out, whatever the line does to the bytes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tablectl.drivers.framer import MAX_PAYLOAD, OVERHEAD, SOF, Frame, Framer, encode

frames_st = st.builds(
    Frame,
    seq=st.integers(0, 0xFFFFFFFF),
    type=st.integers(0, 255),
    payload=st.binary(max_size=300),
)
# garbage that often looks like the start of a frame
garbage_st = st.lists(st.one_of(st.binary(max_size=40), st.just(SOF), st.just(SOF[:1])), max_size=6).map(b"".join)


def split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts})
    bounds = [0, *points, len(data)]
    return [data[a:b] for a, b in zip(bounds, bounds[1:])]


def feed_all(framer: Framer, chunks: list[bytes]) -> list[Frame]:
    out: list[Frame] = []
    for c in chunks:
        out += framer.feed(c)
    return out


@given(frames_st)
def test_a_frame_decodes_to_itself(frame: Frame) -> None:
    assert Framer().feed(encode(*frame)) == [frame]


@given(st.binary(max_size=2000), st.lists(st.integers(0, 10_000), max_size=20))
def test_any_bytes_split_any_way_yield_only_frames_present_verbatim(data: bytes, cuts: list[int]) -> None:
    for frame in feed_all(Framer(), split(data, cuts)):
        # a yielded frame re-encodes to bytes that were really on the line: its checks passed
        assert encode(*frame) in data


@given(
    st.lists(st.tuples(garbage_st, frames_st), max_size=8),
    garbage_st,
    st.lists(st.integers(0, 100_000), max_size=30),
)
def test_frames_among_garbage_split_arbitrarily_all_arrive_in_order(pairs, tail, cuts) -> None:
    frames = [f for _, f in pairs]
    line = b"".join(g + encode(*f) for g, f in pairs) + tail
    # later line traffic (no SOF in it) settles any false start whose bogus length is still open
    line += bytes(MAX_PAYLOAD + OVERHEAD)
    assert feed_all(Framer(), split(line, cuts)) == frames


@given(frames_st, st.data())
def test_one_flipped_bit_loses_that_frame_only(frame: Frame, data) -> None:
    raw = bytearray(encode(*frame))
    bit = data.draw(st.integers(0, len(raw) * 8 - 1))
    raw[bit // 8] ^= 1 << (bit % 8)
    after = Frame(7, 0x20, b"next")
    out = Framer().feed(bytes(raw) + encode(*after) + bytes(MAX_PAYLOAD + OVERHEAD))
    assert out == [after]


def test_a_false_start_in_noise_does_not_hide_the_next_frame() -> None:
    f = Frame(1, 0x20, b"\x01\x00\x00\x00\x05")
    framer = Framer()
    assert framer.feed(SOF + b"\xff\xff\x00" + encode(*f)) == [f]
    assert framer.header_errors >= 1


def test_counters_account_for_skipped_bytes_and_bad_frames() -> None:
    framer = Framer()
    bad = bytearray(encode(1, 2, b"abc"))
    bad[-1] ^= 0xFF
    framer.feed(b"junk" + bytes(bad) + encode(2, 2, b"ok"))
    assert (framer.frames, framer.crc_errors) == (1, 1)
    assert framer.discarded >= 4


def test_a_partial_frame_is_held_until_the_rest_arrives() -> None:
    raw = encode(5, 0x21, b"xyz")
    framer = Framer()
    assert framer.feed(raw[:7]) == []
    assert framer.pending == 7
    assert framer.feed(raw[7:]) == [Frame(5, 0x21, b"xyz")]
    assert framer.pending == 0


def test_reset_drops_a_partial_frame() -> None:
    framer = Framer()
    framer.feed(encode(1, 1, b"abc")[:9])
    framer.reset()
    assert framer.pending == 0


def test_a_payload_over_the_limit_cannot_be_encoded() -> None:
    with pytest.raises(ValueError, match="exceeds"):
        encode(1, 1, bytes(MAX_PAYLOAD + 1))
