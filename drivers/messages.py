"""The tablectl v1 message catalogue: type codes and payload codecs (pure; no I/O).

Every device event and command in ``tablectl.drivers.events`` has one message type and one fixed
payload layout (little-endian). ``encode`` turns a typed object into ``(type, payload)``;
``decode`` does the reverse and raises ``MessageError`` naming the message type and byte offset
when a payload is malformed. docs/protocol.md is the normative description of these layouts.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

from tablectl.drivers import events as ev
from tablectl.text import printable  # noqa: F401  (re-exported: a device's strings are shown with it)

PROTOCOL_VERSION = 1
MISREAD = 0xFF

# link layer (handled by tablectl.drivers.link, never seen by drivers)
SYNC = 0x01
ACK = 0x02
NAK = 0x03
# session
HELLO = 0x08  # host -> device: protocol versions the host speaks
ERROR = 0x09  # device -> host: a request could not be served
# device -> host
IDENTIFY = 0x10
STATUS = 0x11
CARD_DRAWN = 0x20
CARD_RETURNED = 0x21
CUT_CARD = 0x22
SHOE_LOADED = 0x23
SHOE_EMPTY = 0x24
SHUFFLE_STARTED = 0x25
SHUFFLE_DONE = 0x26
PACKET_DELIVERED = 0x27
CARDS_DISCARDED = 0x28
BUTTON = 0x29
FAULT = 0x2A
# host -> device
REQ_IDENTIFY = 0x40
REQ_STATUS = 0x41
SHUFFLE = 0x42
DELIVER_PACKET = 0x43
DISCARD_REST = 0x44
RESET = 0x45
PERSISTED = 0x46
REPLAY_FROM = 0x47

# ERROR codes
ERR_VERSION = 1
ERR_UNKNOWN_COMMAND = 2
ERR_BAD_PAYLOAD = 3
ERR_NOT_NOW = 4
ERR_NOT_SUPPORTED = 5


class MessageError(ValueError):
    """A payload that does not match its message type's layout."""


class Hello:
    """Host -> device on connect: the range of protocol versions the host speaks."""

    __slots__ = ("min_version", "max_version")

    def __init__(self, min_version: int = PROTOCOL_VERSION, max_version: int = PROTOCOL_VERSION) -> None:
        self.min_version = min_version
        self.max_version = max_version

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hello) and (self.min_version, self.max_version) == (
            other.min_version,
            other.max_version,
        )

    def __repr__(self) -> str:
        return f"Hello({self.min_version}, {self.max_version})"


class DeviceError:
    """Device -> host: a request could not be served (``code`` is one of the ERR_* values)."""

    __slots__ = ("code", "detail")

    def __init__(self, code: int, detail: str = "") -> None:
        self.code = code
        self.detail = detail

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DeviceError) and (self.code, self.detail) == (other.code, other.detail)

    def __repr__(self) -> str:
        return f"DeviceError({self.code}, {self.detail!r})"


_U32 = struct.Struct("<I")
_CARD_EVENT = struct.Struct("<IB")
_SHOE_LOADED = struct.Struct("<IIBH")
_SHUFFLE_DONE_HEAD = struct.Struct("<IIBHH")
_FAULT_HEAD = struct.Struct("<IBB")
_IDENTIFY_HEAD = struct.Struct("<BHI")
_STATUS = struct.Struct("<BHBB")
_HELLO = struct.Struct("<HH")


def _card_byte(c: int | None) -> int:
    return MISREAD if c is None else c


def _card_of(b: int, msg_type: int, offset: int) -> int | None:
    if b == MISREAD:
        return None
    if b > 51:
        raise MessageError(f"message 0x{msg_type:02x}: card byte {b} at offset {offset} is not a card")
    return b


def _str(s: str) -> bytes:
    raw = s.encode()
    if len(raw) > 255:
        raise ValueError(f"string too long for the wire: {s[:20]!r}...")
    return bytes((len(raw),)) + raw


def _read_str(p: bytes, off: int, msg_type: int) -> tuple[str, int]:
    if off >= len(p):
        raise MessageError(f"message 0x{msg_type:02x}: string length missing at offset {off}")
    n = p[off]
    end = off + 1 + n
    if end > len(p):
        raise MessageError(f"message 0x{msg_type:02x}: string at offset {off} runs past the payload")
    try:
        return printable(p[off + 1 : end].decode()), end
    except UnicodeDecodeError:
        raise MessageError(f"message 0x{msg_type:02x}: string at offset {off} is not UTF-8") from None


def _counts(d: dict[int, int]) -> bytes:
    return bytes((len(d),)) + b"".join(bytes((c, n)) for c, n in sorted(d.items()))


def _read_counts(p: bytes, off: int, msg_type: int) -> tuple[dict[int, int], int]:
    if off >= len(p):
        raise MessageError(f"message 0x{msg_type:02x}: count list missing at offset {off}")
    n = p[off]
    end = off + 1 + 2 * n
    if end > len(p):
        raise MessageError(f"message 0x{msg_type:02x}: count list at offset {off} runs past the payload")
    out: dict[int, int] = {}
    for i in range(off + 1, end, 2):
        c = _card_of(p[i], msg_type, i)
        if c is None:
            raise MessageError(f"message 0x{msg_type:02x}: misread marker in a count list at offset {i}")
        out[c] = p[i + 1]
    return out, end


# --- encoders ------------------------------------------------------------------------------


def encode(msg: object) -> tuple[int, bytes]:
    """``(type, payload)`` for a device event, command, Identify, Status, Hello or DeviceError."""
    try:
        return _ENCODERS[type(msg)](msg)
    except KeyError:
        raise TypeError(f"no wire form for {type(msg).__name__}") from None


def _enc_identify(m: ev.Identify) -> tuple[int, bytes]:
    caps = ",".join(sorted(m.capabilities))
    return IDENTIFY, (
        _IDENTIFY_HEAD.pack(m.kind, m.protocol_version, m.last_event_no)
        + _str(m.model)
        + _str(m.serial)
        + _str(m.firmware)
        + _str(caps)
    )


def _enc_status(m: ev.Status) -> tuple[int, bytes]:
    bits = 0
    for f in m.faults:
        bits |= 1 << (f - 1)
    return STATUS, _STATUS.pack(m.state, m.cards_in_device, m.door_open, bits)


def _enc_shuffle_done(m: ev.ShuffleDone) -> tuple[int, bytes]:
    return SHUFFLE_DONE, (
        _SHUFFLE_DONE_HEAD.pack(m.event_no, m.shoe_id, m.decks, m.cards, m.foreign)
        + _counts(m.missing)
        + _counts(m.extra)
    )


def _enc_packet(m: ev.PacketDelivered) -> tuple[int, bytes]:
    return PACKET_DELIVERED, (
        _U32.pack(m.event_no) + bytes((m.packet, len(m.cards))) + bytes(_card_byte(c) for c in m.cards)
    )


def _enc_fault(m: ev.Fault) -> tuple[int, bytes]:
    return FAULT, _FAULT_HEAD.pack(m.event_no, m.kind, m.cleared) + _str(m.detail)


_ENCODERS: dict[type, Callable[[Any], tuple[int, bytes]]] = {
    ev.Identify: _enc_identify,
    ev.Status: _enc_status,
    ev.CardDrawn: lambda m: (CARD_DRAWN, _CARD_EVENT.pack(m.event_no, _card_byte(m.card))),
    ev.CardReturned: lambda m: (CARD_RETURNED, _CARD_EVENT.pack(m.event_no, _card_byte(m.card))),
    ev.CutCardReached: lambda m: (CUT_CARD, _U32.pack(m.event_no)),
    ev.ShoeLoaded: lambda m: (SHOE_LOADED, _SHOE_LOADED.pack(m.event_no, m.shoe_id, m.decks, m.cards)),
    ev.ShoeEmpty: lambda m: (SHOE_EMPTY, _U32.pack(m.event_no)),
    ev.ShuffleStarted: lambda m: (SHUFFLE_STARTED, _U32.pack(m.event_no) + _U32.pack(m.shoe_id)),
    ev.ShuffleDone: _enc_shuffle_done,
    ev.PacketDelivered: _enc_packet,
    ev.CardsDiscarded: lambda m: (CARDS_DISCARDED, _U32.pack(m.event_no) + struct.pack("<H", m.count)),
    ev.ButtonPressed: lambda m: (BUTTON, _U32.pack(m.event_no) + bytes((m.button,))),
    ev.Fault: _enc_fault,
    ev.RequestIdentify: lambda m: (REQ_IDENTIFY, b""),
    ev.RequestStatus: lambda m: (REQ_STATUS, b""),
    ev.StartShuffle: lambda m: (SHUFFLE, b""),
    ev.DeliverPacket: lambda m: (DELIVER_PACKET, bytes((m.count,))),
    ev.DiscardRest: lambda m: (DISCARD_REST, b""),
    ev.Reset: lambda m: (RESET, b""),
    ev.Persisted: lambda m: (PERSISTED, _U32.pack(m.event_no)),
    ev.ReplayFrom: lambda m: (REPLAY_FROM, _U32.pack(m.event_no)),
    Hello: lambda m: (HELLO, _HELLO.pack(m.min_version, m.max_version)),
    DeviceError: lambda m: (ERROR, bytes((m.code,)) + _str(m.detail)),
}


# --- decoders ------------------------------------------------------------------------------


def decode(msg_type: int, payload: bytes) -> object:
    """The typed object for a message; ``MessageError`` if the type is unknown or the payload bad."""
    try:
        decoder = _DECODERS[msg_type]
    except KeyError:
        raise MessageError(f"unknown message type 0x{msg_type:02x}") from None
    try:
        return decoder(payload)
    except struct.error:
        raise MessageError(
            f"message 0x{msg_type:02x}: payload of {len(payload)} bytes is too short"
        ) from None
    except ValueError as e:  # enum values out of range
        if isinstance(e, MessageError):
            raise
        raise MessageError(f"message 0x{msg_type:02x}: {e}") from None


def _exact(p: bytes, size: int, msg_type: int) -> None:
    if len(p) != size:
        raise MessageError(f"message 0x{msg_type:02x}: payload is {len(p)} bytes, expected {size}")


def _dec_card_event(cls: type, msg_type: int) -> Callable[[bytes], object]:
    def dec(p: bytes) -> object:
        _exact(p, 5, msg_type)
        no, b = _CARD_EVENT.unpack(p)
        return cls(no, _card_of(b, msg_type, 4))

    return dec


def _dec_u32_event(cls: type, msg_type: int) -> Callable[[bytes], object]:
    def dec(p: bytes) -> object:
        _exact(p, 4, msg_type)
        return cls(_U32.unpack(p)[0])

    return dec


def _dec_identify(p: bytes) -> ev.Identify:
    kind, version, last = _IDENTIFY_HEAD.unpack_from(p)
    off = _IDENTIFY_HEAD.size
    model, off = _read_str(p, off, IDENTIFY)
    serial, off = _read_str(p, off, IDENTIFY)
    firmware, off = _read_str(p, off, IDENTIFY)
    caps, off = _read_str(p, off, IDENTIFY)
    return ev.Identify(
        kind=ev.DeviceKind(kind),
        model=model,
        serial=serial,
        firmware=firmware,
        protocol_version=version,
        capabilities=frozenset(c for c in caps.split(",") if c),
        last_event_no=last,
    )


def _dec_status(p: bytes) -> ev.Status:
    _exact(p, _STATUS.size, STATUS)
    state, count, door, bits = _STATUS.unpack(p)
    faults = frozenset(k for k in ev.FaultKind if bits & (1 << (k - 1)))
    return ev.Status(ev.DeviceState(state), count, bool(door), faults)


def _dec_shoe_loaded(p: bytes) -> ev.ShoeLoaded:
    _exact(p, _SHOE_LOADED.size, SHOE_LOADED)
    return ev.ShoeLoaded(*_SHOE_LOADED.unpack(p))


def _dec_shuffle_started(p: bytes) -> ev.ShuffleStarted:
    _exact(p, 8, SHUFFLE_STARTED)
    no, shoe = struct.unpack("<II", p)
    return ev.ShuffleStarted(no, shoe)


def _dec_shuffle_done(p: bytes) -> ev.ShuffleDone:
    no, shoe, decks, count, foreign = _SHUFFLE_DONE_HEAD.unpack_from(p)
    missing, off = _read_counts(p, _SHUFFLE_DONE_HEAD.size, SHUFFLE_DONE)
    extra, off = _read_counts(p, off, SHUFFLE_DONE)
    return ev.ShuffleDone(no, shoe, decks, count, missing, extra, foreign)


def _dec_packet(p: bytes) -> ev.PacketDelivered:
    (no,) = _U32.unpack_from(p)
    if len(p) < 6:
        raise MessageError(f"message 0x{PACKET_DELIVERED:02x}: payload of {len(p)} bytes is too short")
    packet, n = p[4], p[5]
    _exact(p, 6 + n, PACKET_DELIVERED)
    return ev.PacketDelivered(no, packet, tuple(_card_of(p[6 + i], PACKET_DELIVERED, 6 + i) for i in range(n)))


def _dec_discarded(p: bytes) -> ev.CardsDiscarded:
    _exact(p, 6, CARDS_DISCARDED)
    no, count = struct.unpack("<IH", p)
    return ev.CardsDiscarded(no, count)


def _dec_button(p: bytes) -> ev.ButtonPressed:
    _exact(p, 5, BUTTON)
    return ev.ButtonPressed(_U32.unpack_from(p)[0], p[4])


def _dec_fault(p: bytes) -> ev.Fault:
    no, kind, cleared = _FAULT_HEAD.unpack_from(p)
    detail, off = _read_str(p, _FAULT_HEAD.size, FAULT)
    _exact(p, off, FAULT)
    return ev.Fault(no, ev.FaultKind(kind), bool(cleared), detail)


def _dec_empty(obj: object, msg_type: int) -> Callable[[bytes], object]:
    def dec(p: bytes) -> object:
        _exact(p, 0, msg_type)
        return obj

    return dec


def _dec_u32_command(cls: type, msg_type: int) -> Callable[[bytes], object]:
    def dec(p: bytes) -> object:
        _exact(p, 4, msg_type)
        return cls(_U32.unpack(p)[0])

    return dec


def _dec_deliver(p: bytes) -> ev.DeliverPacket:
    _exact(p, 1, DELIVER_PACKET)
    return ev.DeliverPacket(p[0])


def _dec_hello(p: bytes) -> Hello:
    _exact(p, 4, HELLO)
    return Hello(*_HELLO.unpack(p))


def _dec_error(p: bytes) -> DeviceError:
    if not p:
        raise MessageError(f"message 0x{ERROR:02x}: empty payload")
    detail, _ = _read_str(p, 1, ERROR)
    return DeviceError(p[0], detail)


_DECODERS: dict[int, Callable[[bytes], object]] = {
    IDENTIFY: _dec_identify,
    STATUS: _dec_status,
    CARD_DRAWN: _dec_card_event(ev.CardDrawn, CARD_DRAWN),
    CARD_RETURNED: _dec_card_event(ev.CardReturned, CARD_RETURNED),
    CUT_CARD: _dec_u32_event(ev.CutCardReached, CUT_CARD),
    SHOE_LOADED: _dec_shoe_loaded,
    SHOE_EMPTY: _dec_u32_event(ev.ShoeEmpty, SHOE_EMPTY),
    SHUFFLE_STARTED: _dec_shuffle_started,
    SHUFFLE_DONE: _dec_shuffle_done,
    PACKET_DELIVERED: _dec_packet,
    CARDS_DISCARDED: _dec_discarded,
    BUTTON: _dec_button,
    FAULT: _dec_fault,
    REQ_IDENTIFY: _dec_empty(ev.RequestIdentify(), REQ_IDENTIFY),
    REQ_STATUS: _dec_empty(ev.RequestStatus(), REQ_STATUS),
    SHUFFLE: _dec_empty(ev.StartShuffle(), SHUFFLE),
    DELIVER_PACKET: _dec_deliver,
    DISCARD_REST: _dec_empty(ev.DiscardRest(), DISCARD_REST),
    RESET: _dec_empty(ev.Reset(), RESET),
    PERSISTED: _dec_u32_command(ev.Persisted, PERSISTED),
    REPLAY_FROM: _dec_u32_command(ev.ReplayFrom, REPLAY_FROM),
    HELLO: _dec_hello,
    ERROR: _dec_error,
}

EVENT_NAMES: dict[int, str] = {
    CARD_DRAWN: "CARD_DRAWN", CARD_RETURNED: "CARD_RETURNED", CUT_CARD: "CUT_CARD", SHOE_LOADED: "SHOE_LOADED",
    SHOE_EMPTY: "SHOE_EMPTY", SHUFFLE_STARTED: "SHUFFLE_STARTED", SHUFFLE_DONE: "SHUFFLE_DONE",
    PACKET_DELIVERED: "PACKET_DELIVERED", CARDS_DISCARDED: "CARDS_DISCARDED", BUTTON: "BUTTON", FAULT: "FAULT",
}
"""The numbered events' type codes and their names in docs/protocol.md."""
NUMBERED_EVENTS = frozenset(EVENT_NAMES)
