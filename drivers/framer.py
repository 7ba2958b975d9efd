"""The tablectl v1 frame: pure encoding and a hunting decoder (bytes in, frames out; no I/O).

Layout (all integers little-endian)::

    offset  size  field
    0       2     SOF      0xA5 0x5A
    2       2     LEN      payload length, 0..MAX_PAYLOAD
    4       4     SEQ      sequence number (link layer)
    8       1     TYPE     message type (tablectl.drivers.messages)
    9       1     HCHK     low byte of CRC-16/CCITT-FALSE over bytes 2..8
    10      LEN   PAYLOAD
    10+LEN  2     CRC      CRC-16/CCITT-FALSE over bytes 2..10+LEN (header, HCHK and payload)

The decoder hunts: it skips to the next SOF, checks the header before trusting LEN (so a false
SOF in line noise cannot stall a real frame behind a bogus length), waits for the whole frame,
and on any check failure resumes the hunt one byte after the false SOF, so a real frame buried in
what looked like a frame is still found. Reads may split or merge frames arbitrarily.
"""

from __future__ import annotations

from binascii import crc_hqx
from struct import Struct
from typing import NamedTuple

SOF = b"\xa5\x5a"
HEADER_SIZE = 10
OVERHEAD = HEADER_SIZE + 2
MAX_PAYLOAD = 1024
_CRC_INIT = 0xFFFF
_HEADER = Struct("<HIB")  # LEN, SEQ, TYPE
_HEADER_CHECKED = Struct("<HIBB")  # LEN, SEQ, TYPE, HCHK
_CRC = Struct("<H")


class Frame(NamedTuple):
    """One checked frame."""

    seq: int
    type: int
    payload: bytes


def encode(seq: int, msg_type: int, payload: bytes = b"") -> bytes:
    """The bytes of one frame."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"payload of {len(payload)} bytes exceeds {MAX_PAYLOAD}")
    header = _HEADER.pack(len(payload), seq & 0xFFFFFFFF, msg_type)
    body = header + bytes((crc_hqx(header, _CRC_INIT) & 0xFF,)) + payload
    return SOF + body + _CRC.pack(crc_hqx(body, _CRC_INIT))


class Framer:
    """Incremental decoder. ``feed`` takes whatever a read returned and gives the whole frames.

    Counters (for link statistics and fault reports): ``discarded`` bytes skipped while hunting,
    ``header_errors`` false starts rejected by HCHK or LEN, ``crc_errors`` frames whose CRC failed.
    """

    __slots__ = ("_buf", "max_payload", "discarded", "header_errors", "crc_errors", "frames")

    def __init__(self, max_payload: int = MAX_PAYLOAD) -> None:
        self._buf = bytearray()
        self.max_payload = max_payload
        self.discarded = 0
        self.header_errors = 0
        self.crc_errors = 0
        self.frames = 0

    @property
    def pending(self) -> int:
        """Bytes held while waiting for the rest of a frame."""
        return len(self._buf)

    def reset(self) -> None:
        """Drop any partial frame (after a reconnect)."""
        self._buf.clear()

    def feed(self, data: bytes) -> list[Frame]:
        buf = self._buf
        buf += data
        n = len(buf)
        out: list[Frame] = []
        pos = 0
        find = buf.find
        max_payload = self.max_payload
        while True:
            i = find(SOF, pos)
            if i < 0:
                keep = 1 if n > pos and buf[n - 1] == 0xA5 else 0
                self.discarded += n - pos - keep
                pos = n - keep
                break
            self.discarded += i - pos
            if n - i < HEADER_SIZE:
                pos = i
                break
            length, seq, msg_type, hchk = _HEADER_CHECKED.unpack_from(buf, i + 2)
            if length > max_payload or (crc_hqx(buf[i + 2 : i + 9], _CRC_INIT) & 0xFF) != hchk:
                self.header_errors += 1
                self.discarded += 1
                pos = i + 1
                continue
            end = i + OVERHEAD + length
            if n < end:
                pos = i
                break
            if crc_hqx(buf[i + 2 : end - 2], _CRC_INIT) != buf[end - 2] | (buf[end - 1] << 8):
                self.crc_errors += 1
                self.discarded += 1
                pos = i + 1
                continue
            out.append(Frame(seq, msg_type, bytes(buf[i + HEADER_SIZE : end - 2])))
            pos = end
        if pos:
            del buf[:pos]
        self.frames += len(out)
        return out
