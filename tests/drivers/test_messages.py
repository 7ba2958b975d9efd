"""The message catalogue: every message survives the wire, and a bad payload is a MessageError."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tablectl.drivers import events as ev
from tablectl.drivers import messages as m

u32 = st.integers(0, 0xFFFFFFFF)
u16 = st.integers(0, 0xFFFF)
u8 = st.integers(0, 255)
card = st.integers(0, 51)
card_or_misread = st.one_of(card, st.none())
text = st.text(max_size=40).filter(str.isprintable)  # a device's other strings decode escaped (test_device_strings_are_printable)
counts = st.dictionaries(card, st.integers(1, 255), max_size=10)
capability = st.text(st.characters(min_codepoint=0x61, max_codepoint=0x7A) | st.just("-"), min_size=1, max_size=12)

MESSAGES = st.one_of(
    st.builds(
        ev.Identify,
        st.sampled_from(ev.DeviceKind),
        text,
        text,
        text,
        u16,
        st.frozensets(capability, max_size=5),
        u32,
    ),
    st.builds(ev.Status, st.sampled_from(ev.DeviceState), u16, st.booleans(), st.frozensets(st.sampled_from(ev.FaultKind))),
    st.builds(ev.CardDrawn, u32, card_or_misread),
    st.builds(ev.CardReturned, u32, card_or_misread),
    st.builds(ev.CutCardReached, u32),
    st.builds(ev.ShoeLoaded, u32, u32, u8, u16),
    st.builds(ev.ShoeEmpty, u32),
    st.builds(ev.ShuffleStarted, u32, u32),
    st.builds(ev.ShuffleDone, u32, u32, u8, u16, counts, counts, u16),
    st.builds(ev.PacketDelivered, u32, u8, st.lists(card_or_misread, max_size=255).map(tuple)),
    st.builds(ev.CardsDiscarded, u32, u16),
    st.builds(ev.ButtonPressed, u32, u8),
    st.builds(ev.Fault, u32, st.sampled_from(ev.FaultKind), st.booleans(), text),
    st.just(ev.RequestIdentify()),
    st.just(ev.RequestStatus()),
    st.just(ev.StartShuffle()),
    st.builds(ev.DeliverPacket, u8),
    st.just(ev.DiscardRest()),
    st.just(ev.Reset()),
    st.builds(ev.Persisted, u32),
    st.builds(ev.ReplayFrom, u32),
    st.builds(m.Hello, u16, u16),
    st.builds(m.DeviceError, u8, text),
)


@given(MESSAGES)
def test_every_message_decodes_to_what_was_encoded(obj: object) -> None:
    assert m.decode(*m.encode(obj)) == obj


ONE_OF_EACH = [
    ev.Identify(ev.DeviceKind.CSM, "M", "S1", "1.0", 1, frozenset({"deck-check", "replay"}), 9),
    ev.Status(ev.DeviceState.FAULT, 300, True, frozenset({ev.FaultKind.JAM, ev.FaultKind.DOOR_OPEN})),
    ev.CardDrawn(1, 51),
    ev.CardReturned(2, None),
    ev.CutCardReached(3),
    ev.ShoeLoaded(4, 7, 6, 312),
    ev.ShoeEmpty(5),
    ev.ShuffleStarted(6, 8),
    ev.ShuffleDone(7, 8, 1, 52, {3: 1}, {4: 2}, 1),
    ev.PacketDelivered(8, 2, (0, None, 51)),
    ev.CardsDiscarded(9, 30),
    ev.ButtonPressed(10, 1),
    ev.Fault(11, ev.FaultKind.JAM, True, "cleared"),
    ev.RequestIdentify(),
    ev.RequestStatus(),
    ev.StartShuffle(),
    ev.DeliverPacket(5),
    ev.DiscardRest(),
    ev.Reset(),
    ev.Persisted(12),
    ev.ReplayFrom(13),
    m.Hello(1, 2),
    m.DeviceError(m.ERR_VERSION, "v2 only"),
]


def test_the_catalogue_has_one_decoder_per_message_above() -> None:
    assert {m.encode(o)[0] for o in ONE_OF_EACH} == set(m._DECODERS)


@pytest.mark.parametrize("obj", ONE_OF_EACH, ids=lambda o: type(o).__name__)
def test_each_message_type_round_trips(obj: object) -> None:
    assert m.decode(*m.encode(obj)) == obj


@given(MESSAGES, st.data())
def test_a_truncated_payload_is_a_message_error(obj: object, data) -> None:
    msg_type, payload = m.encode(obj)
    if not payload:
        return
    cut = data.draw(st.integers(0, len(payload) - 1))
    with pytest.raises(m.MessageError):
        m.decode(msg_type, payload[:cut])


@given(st.sampled_from(sorted(m._DECODERS)), st.binary(max_size=80))
def test_any_payload_decodes_or_is_a_message_error(msg_type: int, payload: bytes) -> None:
    try:
        m.decode(msg_type, payload)
    except m.MessageError:
        pass


def test_an_unknown_type_is_a_message_error_naming_it() -> None:
    with pytest.raises(m.MessageError, match="0x7f"):
        m.decode(0x7F, b"")


def test_a_card_byte_beyond_the_deck_is_a_message_error() -> None:
    with pytest.raises(m.MessageError, match="not a card"):
        m.decode(m.CARD_DRAWN, b"\x01\x00\x00\x00\x34")


def test_0xff_is_a_misread() -> None:
    assert m.decode(m.CARD_DRAWN, b"\x01\x00\x00\x00\xff") == ev.CardDrawn(1, None)


def test_a_fixed_size_payload_with_extra_bytes_is_a_message_error() -> None:
    with pytest.raises(m.MessageError, match="expected 5"):
        m.decode(m.CARD_DRAWN, b"\x01\x00\x00\x00\x05\x00")


def test_an_unknown_enum_value_is_a_message_error() -> None:
    with pytest.raises(m.MessageError):
        m.decode(m.FAULT, b"\x01\x00\x00\x00\x63\x00\x00")


def test_an_object_without_a_wire_form_cannot_be_encoded() -> None:
    with pytest.raises(TypeError, match="no wire form"):
        m.encode(object())
