"""The reliable link over a byte stream: sequence numbers, ACK/NAK, retransmit, duplicate drop.

Sans-IO: a ``Link`` is fed the bytes a transport read and the current time, and hands back the
messages delivered (in order, exactly once per session) and the bytes to write. The same class
runs in the driver (host end) and in the simulators (device end), so both ends of every test
speak one implementation of the rules in docs/protocol.md section "Link".

Sessions. The 32-bit SEQ field is ``epoch << 24 | counter``. Each end opens a session by sending
SYNC (counter 0, payload a random 32-bit nonce) as its first reliable frame; the receiver then
expects counter 1 of that epoch and drops frames of any other epoch, so stragglers from before a
reconnect or a restart can never be taken for new data (a straggling SYNC of a session already
left is dropped too: the receiver never goes back to an old session). A SYNC with a new (epoch,
nonce) is delivered upward as ``(SYNC, b"")`` so the driver knows the peer (re)started and can
resume by event number. Reliability across sessions is the application's: devices number their events and
replay from the last number the host persisted.

Receiving: the next counter is delivered; a lower one is a duplicate (dropped, re-acknowledged);
a higher one is held (up to ``window``) and answered with NAK(first missing). One cumulative ACK
answers every ``receive`` call that took data. A data frame of a session the receiver does not
know (it restarted and lost the sender's SYNC) is answered with NAK(that epoch, counter 0):
"resend your SYNC". A sender whose SYNC is already acknowledged takes that as "the peer lost my
session" and opens a new one, re-sending everything unacknowledged in it. Sending: at most
``window`` frames in flight; a frame unacknowledged after ``retransmit_after`` seconds is sent
again; a NAK resends at once.
"""

from __future__ import annotations

import os
from collections import deque

from tablectl.drivers.framer import Frame, Framer, encode
from tablectl.drivers.messages import ACK, NAK, SYNC

_COUNTER_BITS = 24
_COUNTER_MASK = (1 << _COUNTER_BITS) - 1


class Link:
    """One end of a reliable link. Not thread-safe: one owner (a reader/writer loop) drives it."""

    def __init__(self, *, retransmit_after: float = 0.05, window: int = 256, framer: Framer | None = None) -> None:
        self.retransmit_after = retransmit_after
        self.window = window
        self.framer = framer or Framer()
        self._out = bytearray()
        # sending
        self._tx_epoch = -1
        self._tx_next = 0
        self._in_flight: dict[int, list] = {}  # counter -> [frame bytes, sent_at]
        self._waiting: deque[tuple[int, bytes]] = deque()  # not yet in flight (window full)
        # receiving
        self._rx_session: tuple[int, bytes] | None = None
        self._rx_past: deque[tuple[int, bytes]] = deque(maxlen=64)  # sessions left behind
        self._rx_expected = 1
        self._held: dict[int, tuple[int, bytes]] = {}
        # statistics
        self.retransmits = 0
        self.duplicates = 0
        self.out_of_order = 0
        self.stale = 0
        self.resyncs = 0
        self._unknown_epochs: set[int] = set()

    # --- sessions -----------------------------------------------------------------------

    def open(self, now: float) -> None:
        """Start a new sending session (on connect, reconnect or restart).

        Frames of the old session still unacknowledged are sent again in the new one. Bytes of a
        partial frame from the old connection are dropped.
        """
        self.framer.reset()
        self._new_session(now)

    def _new_session(self, now: float) -> None:
        pending = [(self._type_of(f), self._payload_of(f)) for _, (f, _) in sorted(self._in_flight.items())]
        pending = [p for p in pending if p[0] != SYNC]
        self._in_flight.clear()
        self._waiting = deque(pending + list(self._waiting))
        self._tx_epoch = (self._tx_epoch + 1 + int.from_bytes(os.urandom(1)) % 254) % 256
        self._tx_next = 0
        self._waiting.appendleft((SYNC, os.urandom(4)))
        self._pump(now)

    @property
    def is_open(self) -> bool:
        return self._tx_epoch >= 0

    @property
    def unacked(self) -> int:
        """Messages sent or queued and not yet acknowledged by the peer."""
        return len(self._in_flight) + len(self._waiting)

    # --- sending -----------------------------------------------------------------------

    def send(self, msg_type: int, payload: bytes, now: float) -> None:
        """Queue one message for reliable, in-order delivery."""
        if self._tx_epoch < 0:
            self.open(now)
        self._waiting.append((msg_type, payload))
        self._pump(now)

    def outgoing(self) -> bytes:
        """Take the bytes waiting to be written to the transport."""
        out = bytes(self._out)
        self._out.clear()
        return out

    def poll(self, now: float) -> None:
        """Retransmit what timed out."""
        deadline = now - self.retransmit_after
        for entry in self._in_flight.values():
            if entry[1] <= deadline:
                self._out += entry[0]
                entry[1] = now
                self.retransmits += 1

    def next_deadline(self) -> float | None:
        """When ``poll`` next has something to do (None if nothing is in flight)."""
        if not self._in_flight:
            return None
        return min(e[1] for e in self._in_flight.values()) + self.retransmit_after

    def _pump(self, now: float) -> None:
        while self._waiting and len(self._in_flight) < self.window:
            if self._tx_next > _COUNTER_MASK:
                self._new_session(now)
                return
            msg_type, payload = self._waiting.popleft()
            frame = encode(self._tx_epoch << _COUNTER_BITS | self._tx_next, msg_type, payload)
            self._in_flight[self._tx_next] = [frame, now]
            self._tx_next += 1
            self._out += frame

    @staticmethod
    def _type_of(frame: bytes) -> int:
        return frame[8]

    @staticmethod
    def _payload_of(frame: bytes) -> bytes:
        return frame[10:-2]

    # --- receiving ----------------------------------------------------------------------

    def receive(self, data: bytes, now: float) -> list[tuple[int, bytes]]:
        """Feed bytes read from the transport; returns the messages now deliverable, in order."""
        delivered: list[tuple[int, bytes]] = []
        took_data = False
        for frame in self.framer.feed(data):
            t = frame.type
            if t == ACK:
                self._on_ack(frame, now)
            elif t == NAK:
                self._on_nak(frame, now)
            else:
                took_data = True
                self._on_data(frame, delivered)
        if took_data and self._rx_session is not None:
            self._send_control(ACK, self._rx_session[0] << _COUNTER_BITS | (self._rx_expected - 1))
            if self._held:
                self._send_control(NAK, self._rx_session[0] << _COUNTER_BITS | self._rx_expected)
        if self._unknown_epochs:
            for epoch in self._unknown_epochs:
                if self._rx_session is None or epoch != self._rx_session[0]:
                    self._send_control(NAK, epoch << _COUNTER_BITS)
            self._unknown_epochs.clear()
        self._pump(now)
        return delivered

    def _send_control(self, msg_type: int, seq: int) -> None:
        self._out += encode(seq, msg_type)

    def _on_data(self, frame: Frame, delivered: list[tuple[int, bytes]]) -> None:
        epoch = frame.seq >> _COUNTER_BITS
        counter = frame.seq & _COUNTER_MASK
        if frame.type == SYNC:
            session = (epoch, frame.payload)
            if session in self._rx_past:
                self.stale += 1  # a straggling SYNC of a session already left: never go back
                return
            if session != self._rx_session:
                if self._rx_session is not None:
                    self._rx_past.append(self._rx_session)
                self._rx_session = session
                self._rx_expected = 1
                self._held.clear()
                delivered.append((SYNC, b""))
            return
        if self._rx_session is None or epoch != self._rx_session[0]:
            self.stale += 1
            self._unknown_epochs.add(epoch)
            return
        expected = self._rx_expected
        if counter == expected:
            delivered.append((frame.type, frame.payload))
            expected += 1
            held = self._held
            while expected in held:
                delivered.append(held.pop(expected))
                expected += 1
            self._rx_expected = expected
        elif counter < expected:
            self.duplicates += 1
        else:
            self.out_of_order += 1
            if counter - expected < self.window:
                self._held[counter] = (frame.type, frame.payload)

    def _on_ack(self, frame: Frame, now: float) -> None:
        if frame.seq >> _COUNTER_BITS != self._tx_epoch:
            return
        upto = frame.seq & _COUNTER_MASK
        in_flight = self._in_flight
        for counter in [c for c in in_flight if c <= upto]:
            del in_flight[counter]

    def _on_nak(self, frame: Frame, now: float) -> None:
        if frame.seq >> _COUNTER_BITS != self._tx_epoch:
            return
        missing = frame.seq & _COUNTER_MASK
        in_flight = self._in_flight
        if missing == 0 and 0 not in in_flight:
            self.resyncs += 1
            self._new_session(now)  # the peer lost our session (it restarted): start a new one
            return
        for counter in [c for c in in_flight if c < missing]:
            del in_flight[counter]
        entry = in_flight.get(missing)
        if entry is not None and entry[1] < now:
            self._out += entry[0]
            entry[1] = now
            self.retransmits += 1
