"""The review's state where a verified log ended, saved as plain values and restored, so a review
can go on from the next line without reading the lines before it again.

A log that verified ends at a signed clean-shutdown checkpoint (anything else is an integrity
failure), so little is carried from one controller run to the next: for verification the chain
head, the last seq and the key schedule (the key in force, keys introduced and retired); for the
reconstruction the sessions so far (numbering, and the spans of round numbers that make round
ids) and each device's event numbers (the next run's are checked against them) — what a session left open is the export's to carry (``tablectl.analytics.export.resume``).

:class:`ReviewState` is a msgspec Struct of plain values, decoded strictly (unknown fields, wrong
types: :class:`StateError`): the file it comes from is anyone's to edit, so nothing in it is
trusted beyond its types, and the export binds it to its manifest by digest. :func:`capture`
takes it from a finished review, :func:`chain_start` and :func:`restore` put it back into a
verifier and a reconstruction before the first new line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from tablectl.eventlog import logformat as fmt
from tablectl.review.model import DeviceNumbers, Session
from tablectl.review.reconstruct import Reconstructor

#: the version of :class:`ReviewState`'s layout; another one is not restored
FORMAT = 1


class StateError(ValueError):
    """Saved review state that cannot be restored (one line: what is wrong)."""


class KeyState(msgspec.Struct, forbid_unknown_fields=True):
    """``KeySchedule.state``: the key in force, keys introduced (hex, from seq, by), keys retired."""

    current: str | None
    introduced: dict[str, tuple[str, int, str]]
    retired: dict[str, tuple[int, str]]


class SessionState(msgspec.Struct, forbid_unknown_fields=True):
    """What a later session needs of an earlier one."""

    index: int
    start_seq: int
    start_ts: str
    opened_by: str
    end_seq: int | None
    end_ts: str | None
    ended_by: str
    game: str | None
    source_kind: str | None


class EventNo(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    """An event number as the device numbering records it, at its line."""

    event_no: int
    seq: int
    ts: str | None = None  # the line's time (a state written without it: None)


class NumberState(msgspec.Struct, forbid_unknown_fields=True):
    """A device's event numbers so far (``DeviceNumbers``): the next one is checked against them."""

    first: int
    last: int
    gaps: list[tuple[int, int]]
    duplicates: list[EventNo]
    out_of_order: list[EventNo]


class ReviewState(msgspec.Struct, forbid_unknown_fields=True):
    """Where a verified review ended: enough to verify and reconstruct from the next line on."""

    format: int
    table: str
    seq: int  # the last line reviewed
    head: str  # its BLAKE2b-256 (hex): the next line's prev
    keys: KeyState | None
    sessions: list[SessionState]
    number_spans: dict[int, tuple[int, int]]
    devices: dict[str, NumberState]  # per device, its event numbers so far
    base: dict[str, int]  # the counters the log started from (its first line's snapshot, adoptions)


def capture(report: Any, base: dict[str, int]) -> ReviewState | str:
    """The state a finished review (``ReviewReport``) ended in, or why a review cannot go on from
    it. *base*: the reconstruction's device counters at the start (``Reconstructor._base``)."""
    v = report.verification
    if not v.ok or v.table is None or v.last_seq is None:
        return "the log did not verify"
    if v.signatures_checked and v.signed_seq != v.last_seq:
        return f"the log's lines after seq {v.signed_seq} are not signed"
    recon = report.recon
    keys = msgspec.convert(v.key_state, KeyState) if v.key_state is not None else None
    sessions = [SessionState(s.index, s.start_seq, s.start_ts, s.opened_by, s.end_seq, s.end_ts, s.ended_by, s.game,
                             s.source_kind) for s in recon.sessions]
    spans = {k: (lo, hi) for k, (lo, hi) in recon.number_spans.items()}
    devices = {name: NumberState(n.first, n.last, [(a, b) for a, b in n.gaps],
                                 [EventNo(d["event_no"], d["seq"], d.get("ts")) for d in n.duplicates],
                                 [EventNo(d["event_no"], d["seq"], d.get("ts")) for d in n.out_of_order])
               for name, n in recon.devices.items()}
    return ReviewState(FORMAT, v.table, v.last_seq, v.last_digest, keys, sessions, spans, devices,
                       {str(k): int(n) for k, n in base.items()})


def encode(state: ReviewState) -> bytes:
    return msgspec.json.encode(state)


def decode(data: bytes | Any) -> ReviewState:
    """A :class:`ReviewState` from JSON bytes or already-decoded plain values; :class:`StateError`
    for anything else (another format, unknown fields, wrong types, values that do not hang together)."""
    try:
        state = (msgspec.json.decode(data, type=ReviewState) if isinstance(data, bytes)
                 else msgspec.convert(data, ReviewState))
    except msgspec.ValidationError as e:
        raise StateError(f"review state: {e}") from None
    except msgspec.DecodeError as e:
        raise StateError(f"review state: not JSON ({e})") from None
    if state.format != FORMAT:
        raise StateError(f"review state of format {state.format}, this tablectl reads format {FORMAT}")
    if state.seq < 1 or len(state.head) != len(fmt.GENESIS) or any(c not in "0123456789abcdef" for c in state.head):
        raise StateError("review state: seq or chain head out of range")
    if [s.index for s in state.sessions] != list(range(1, len(state.sessions) + 1)):
        raise StateError("review state: sessions not numbered 1..n")
    if any(s.start_seq > state.seq or (s.end_seq is not None and s.end_seq > state.seq) for s in state.sessions):
        raise StateError("review state: a session past the state's last line")
    return state


def chain_start(state: ReviewState) -> Callable[[Any], None]:
    """Sets a verifier (``tablectl.eventlog.verify._Verifier``) to go on after line ``state.seq``:
    the next line must carry ``seq + 1`` and link to ``head``; everything up to ``seq`` was covered
    by a signed clean-shutdown checkpoint."""

    def start(verifier: Any) -> None:
        verifier.resumed = True
        verifier.exp = state.seq + 1
        verifier.prev = state.head.encode("ascii")
        verifier.covered_seq = verifier.shutdown_seq = state.seq
        verifier.covered_reason = fmt.SHUTDOWN
        verifier.report.table = state.table
        verifier.report.first_seq = state.seq + 1
        if verifier.schedule is not None and state.keys is not None:
            try:
                verifier.schedule.restore(msgspec.to_builtins(state.keys))
            except ValueError as e:
                raise StateError(str(e)) from None

    return start


def restore(builder: Reconstructor, state: ReviewState) -> None:
    """Give a reconstruction, before its first line, the sessions of the lines before it: the new
    lines' sessions are numbered on from them, and round ids made as over the whole log."""
    out = builder.out
    out.table = state.table
    for s in state.sessions:
        session = Session(s.index, s.start_seq, s.start_ts, s.opened_by, game=s.game, source_kind=s.source_kind,
                          end_seq=s.end_seq, end_ts=s.end_ts, ended_by=s.ended_by)
        out.sessions.append(session)
    out.number_spans.update({k: [lo, hi] for k, (lo, hi) in state.number_spans.items()})
    builder._base = dict(state.base)
    for name, n in state.devices.items():
        builder._last[name] = n.last
        builder._numbers[name] = DeviceNumbers(
            name, n.first, n.last, 0, [[a, b] for a, b in n.gaps],
            [{"event_no": d.event_no, "seq": d.seq, "ts": d.ts} for d in n.duplicates],
            [{"event_no": d.event_no, "seq": d.seq, "ts": d.ts} for d in n.out_of_order])
