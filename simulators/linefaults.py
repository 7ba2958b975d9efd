"""Link-level faults applied to the byte stream, one frame at a time.

Each direction is cut into frames (a frame is ``SOF .. CRC`` as ``tablectl.drivers.framer``
lays it out; bytes that are not part of a frame pass through untouched) and every frame is an
opportunity for the plan's line faults (``faults.LINE_FAULTS``):

- ``noise``: 1..16 garbage bytes (sometimes a false SOF among them) before the frame;
- ``crc``: one bit of the frame flipped (the receiver's framer rejects it);
- ``drop``: the frame is not sent; ``dup``: it is sent twice;
- ``reorder``: it is held back and sent after the next frame;
- ``disconnect`` (device -> host only): the frame is lost and the transport asks to be dropped
  for a moment (``disconnect_requested``; the server unplugs and replugs).

Rates apply in both directions unless ``both_ways`` is False; ``KIND@N`` and armed faults count
frames written by the device (``frames_out``). Each direction draws from its own RNG seeded from
the plan's seed, so a run is reproducible whatever the thread timing.
"""

from __future__ import annotations

import random
from binascii import crc_hqx
from collections.abc import Callable

from tablectl.drivers.framer import HEADER_SIZE, MAX_PAYLOAD, OVERHEAD, SOF
from tablectl.simulators.faults import LINE_FAULTS, FaultPlan

_BOTH_WAYS = ("noise", "crc", "drop", "dup", "reorder")


def _frame_end(buf: bytes | bytearray, i: int) -> int | None:
    """End of the frame whose SOF is at ``i``: -1 if the header is not a frame's, None if the
    buffer does not yet hold all of it."""
    if len(buf) - i < HEADER_SIZE:
        return None
    length = buf[i + 2] | buf[i + 3] << 8
    if length > MAX_PAYLOAD or (crc_hqx(bytes(buf[i + 2 : i + 9]), 0xFFFF) & 0xFF) != buf[i + 9]:
        return -1
    end = i + OVERHEAD + length
    return end if end <= len(buf) else None


def split_frames(buf: bytearray) -> list[tuple[bool, bytes]]:
    """Cut ``buf`` into ``(is_frame, bytes)`` pieces, leaving an incomplete frame in ``buf``."""
    pieces: list[tuple[bool, bytes]] = []
    pos = 0
    while True:
        i = buf.find(SOF, pos)
        if i < 0:
            keep = 1 if len(buf) > pos and buf[-1] == SOF[0] else 0
            if len(buf) - keep > pos:
                pieces.append((False, bytes(buf[pos : len(buf) - keep])))
            pos = len(buf) - keep
            break
        end = _frame_end(buf, i)
        if end is None:
            if i > pos:
                pieces.append((False, bytes(buf[pos:i])))
            pos = i
            break
        if end < 0:
            pieces.append((False, bytes(buf[pos : i + 1])))
            pos = i + 1
            continue
        if i > pos:
            pieces.append((False, bytes(buf[pos:i])))
        pieces.append((True, bytes(buf[i:end])))
        pos = end
    del buf[:pos]
    return pieces


class _Direction:
    """Fault application for one direction of the stream."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.buf = bytearray()
        self.held: bytes | None = None
        self.frames = 0
        self.applied: dict[str, int] = {}

    def apply(self, data: bytes, fired_for: Callable[[int], set[str]]) -> tuple[bytes, bool]:
        self.buf += data
        out = bytearray()
        disconnect = False
        for is_frame, piece in split_frames(self.buf):
            if not is_frame:
                out += piece
                continue
            self.frames += 1
            fired = fired_for(self.frames)
            for kind in fired:
                self.applied[kind] = self.applied.get(kind, 0) + 1
            if "disconnect" in fired:
                disconnect = True
                continue
            if "noise" in fired:
                out += self._garbage()
            frame = piece
            if "crc" in fired:
                b = bytearray(frame)
                b[self.rng.randrange(2, len(b))] ^= 1 << self.rng.randrange(8)
                frame = bytes(b)
            if "drop" in fired:
                continue
            copies = [frame, frame] if "dup" in fired else [frame]
            if "reorder" in fired and self.held is None:
                self.held = b"".join(copies)
                continue
            out += b"".join(copies)
            if self.held is not None:
                out += self.held
                self.held = None
        return bytes(out), disconnect

    def _garbage(self) -> bytes:
        n = self.rng.randint(1, 16)
        junk = bytearray(self.rng.getrandbits(8) for _ in range(n))
        if n >= 4 and self.rng.random() < 0.5:
            junk[0:2] = SOF
        return bytes(junk)

    def flush(self) -> bytes:
        """What is held back (a reordered frame with nothing after it yet)."""
        held, self.held = self.held or b"", None
        return held

    def reset(self) -> None:
        self.buf.clear()
        self.held = None


class LineFaults:
    """Applies a ``FaultPlan`` of line faults to the device's outgoing and incoming bytes."""

    def __init__(self, plan: FaultPlan | None = None, *, both_ways: bool = True) -> None:
        self.plan = plan if plan is not None else FaultPlan()
        self.both_ways = both_ways
        seed = self.plan.seed
        self._out = _Direction(random.Random(f"line-out:{seed}"))
        self._in = _Direction(random.Random(f"line-in:{seed}"))
        self._in_rng = random.Random(f"line-in-roll:{seed}")
        self.disconnect_requested = False

    @property
    def active(self) -> bool:
        return self.plan.active

    @property
    def frames_out(self) -> int:
        return self._out.frames

    @property
    def frames_in(self) -> int:
        return self._in.frames

    @property
    def applied(self) -> dict[str, int]:
        """How often each fault was applied, both directions together (for reports and tests)."""
        out = dict(self._out.applied)
        for k, v in self._in.applied.items():
            out[k] = out.get(k, 0) + v
        return out

    def outbound(self, data: bytes) -> bytes:
        """Device -> host bytes after the faults. Sets ``disconnect_requested`` when one fires."""
        if not self.plan.active and self._out.held is None and not self._out.buf:
            return data
        out, disconnect = self._out.apply(data, lambda n: self.plan.roll(n, LINE_FAULTS))
        if disconnect:
            self.disconnect_requested = True
        return out

    def inbound(self, data: bytes) -> bytes:
        """Host -> device bytes after the faults (rates only)."""
        rates = self.plan.rates
        if not self.both_ways or not any(rates.get(k, 0.0) > 0 for k in _BOTH_WAYS):
            if self._in.buf or self._in.held is not None:
                data = bytes(self._in.buf) + self._in.flush() + data
                self._in.buf.clear()
            return data
        rng = self._in_rng

        def fired(_: int) -> set[str]:
            return {k for k in _BOTH_WAYS if rates.get(k, 0.0) > 0 and rng.random() < rates[k]}

        out, _ = self._in.apply(data, fired)
        return out

    def take_disconnect(self) -> bool:
        """Whether a disconnect fired since the last call (and clear it)."""
        fired, self.disconnect_requested = self.disconnect_requested, False
        return fired

    def reset(self) -> None:
        """Forget partial frames and held frames (the transport went down)."""
        self._out.reset()
        self._in.reset()
