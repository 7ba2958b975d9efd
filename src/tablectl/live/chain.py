"""The collector's decision for one table, line by line: hold, drop as a repeat, refuse, or write
(pure: bytes in, decisions out; the verification is ``tablectl.eventlog.verify.LineVerifier``).

The broker is not trusted: anyone who can publish to it can inject, change, replay, reorder or
drop messages. So a line reaches the copy only once a checkpoint that verifies under the table's
trusted keys signs it, and only in the order the chain gives:

- a line arriving is *held* (by the caller, in its journal) when it could belong to the log: it
  carries the layout, the table's name and a seq after the copy's last line; one whose seq the
  copy already has is a *repeat* (the same bytes: dropped; a message sent anew with them is
  ``replayed``) or a ``fork`` (other bytes); one that does not link to the copy's last line is
  ``altered``; one the stream stored before the line before it is held and reported
  ``reordered``, and a seq still missing after a while, the lines after it held, is a ``gap``;
  a held line the lines before it have not reached for a while, though they kept coming, is
  ``ahead`` (a line far beyond the table's log);
- a repeat is a *redelivery* (dropped quietly) when the stream delivers the same message again:
  it says so, or the message's stream sequence number is the one the line was taken from (or, for
  a line older than those remembered, not after the last one taken: a message sent anew is stored
  after every message before it); the same line in a new message is ``replayed``;
- :meth:`TableChain.settle` looks for a held checkpoint it can reach from the copy's last line
  through held lines, each one's ``prev`` the digest of the one before and each in the file the
  chain puts it in, and hands that run to the verifier; a run that verifies (chain, seq,
  signature under the keyring's keys, the log's own events) is written, and every other held line
  it passes over is refused (``changed``: the signed line's seq, time and link with other content;
  ``injected``: any other line the signature does not cover; ``misfiled``: the right line,
  labelled for another file). A checkpoint whose run does not verify is refused with
  the verifier's findings; the lines before it stay held for a genuine checkpoint.

File names: the table names a log file only in its message ids, which are not signed; the chain
binds them. The log's first line is in file 1; a line that starts a file (``log_opened``,
``recovery``, ``rotated``) is in the file after its predecessor's and names that one in its
``previous``; every other line is in its predecessor's file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import orjson

from tablectl.eventlog import logformat as fmt
from tablectl.eventlog.verify import Finding, LineVerifier

from .stream import parse_msg_id, table_of

# Why a message is refused (the alarm's "kind"); the verifier's own kinds name failed runs.
MALFORMED = "malformed"  # not a log line (layout), or holds a newline
MISLABELLED = "mislabelled"  # its message id is missing, or names another table, seq or subject
WRONG_TABLE = "wrong_table"  # a line of another table on this table's subject
UNKNOWN_TABLE = "unknown_table"  # the keyring has no key for the table
REPLAYED = "replayed"  # a line the collector already has, sent again as a new message
FORK = "fork"  # the seq of a line the copy has, other bytes
ALTERED = "altered"  # does not link to the copy's last line
REORDERED = "reordered"  # stored in the stream before the line before it (held; written in order)
GAP = "gap"  # a seq that has not come for a while, the lines after it held
INJECTED = "injected"  # held, but not the line the signed chain has at its seq
CHANGED = "changed"  # held: the signed line's seq, time and link, other content
MISFILED = "misfiled"  # the signed line, but labelled for another log file
FLOOD = "flood"  # too many different lines held for one seq
AHEAD = "ahead"  # held for a while as the lines before it kept coming without reaching it

START_EVENTS = frozenset({fmt.LOG_OPENED, fmt.RECOVERY, fmt.ROTATED})
MAX_CANDIDATES = 8  # different lines held for one seq at most


@dataclass(frozen=True)
class Refusal:
    """A message not written, and why: the alarm and the collector's log say this."""

    table: str
    kind: str
    message: str
    seq: int | None = None
    file: str | None = None
    msg_id: str | None = None

    def to_dict(self) -> dict[str, object]:
        return {"table": self.table, "kind": self.kind, "seq": self.seq, "file": self.file, "msg_id": self.msg_id,
                "message": self.message}


@dataclass(frozen=True)
class Message:
    """A message as it came: who it is for, what it says it is, its bytes."""

    table: str
    file: str
    seq: int
    line: bytes
    msg_id: str
    stream_seq: int = 0  # the stream's own sequence number of the message (0: not known)
    digest: str = ""  # the line's chain digest, as check_message found it ("": not worked out yet)

    def line_digest(self) -> str:
        """The line's chain digest (worked out once per line, by :func:`check_message`)."""
        return self.digest or fmt.digest(self.line)


def check_message(subject: str, msg_id: str | None, line: bytes, stream_seq: int = 0) -> Message | Refusal:
    """The first look at a message: its subject names a table, its id names that table, a log
    file of it, the line's own seq and digest (none in an id an earlier tablectl gave), and the
    line says it is that table's."""
    table = table_of(subject)
    if table is None:
        return Refusal("?", MISLABELLED, f"subject {subject!r} is not tablectl.<table>.log", msg_id=msg_id)
    mid = parse_msg_id(msg_id)
    if mid is None:
        return Refusal(table, MISLABELLED, f"message id {msg_id!r} is not <table>:<log>:<seq>:<digest>",
                       msg_id=msg_id)
    if mid.table != table:
        return Refusal(table, MISLABELLED, f"message id names table {mid.table!r} on table {table!r}'s subject",
                       mid.seq, mid.file_name, msg_id)
    if b"\n" in line:
        return Refusal(table, MALFORMED, "a message holding more than one line", mid.seq, mid.file_name, msg_id)
    head = fmt.split_head(line)
    if head is None:
        return Refusal(table, MALFORMED, f"not a log line: {line[:60]!r}", mid.seq, mid.file_name, msg_id)
    if head[0] != mid.seq:
        return Refusal(table, MISLABELLED, f"message id says seq {mid.seq}, the line is seq {head[0]}",
                       head[0], mid.file_name, msg_id)
    digest = fmt.digest(line)
    if mid.digest is not None and not digest.startswith(mid.digest):
        return Refusal(table, MISLABELLED, f"message id names digest {mid.digest}, not the line's",
                       head[0], mid.file_name, msg_id)
    named = line_table(line)
    if named != table:
        return Refusal(table, WRONG_TABLE, f"a line of table {named!r} on table {table!r}'s subject",
                       head[0], mid.file_name, msg_id)
    return Message(table, mid.file_name, head[0], line, msg_id or "", stream_seq, digest)


def _ts(line: bytes) -> bytes:
    """The ``ts`` member's value, read from the line's layout (empty if it is not there)."""
    at = line.find(b'"ts":"')
    return line[at + 6:at + 33] if at >= 0 else b""


def line_table(line: bytes) -> str | None:
    """The ``table`` member of a log line (the fourth, after ``seq``, ``event``, ``ts``), read
    without parsing the line; None if it is not where the layout puts it."""
    at = line.find(b',"table":"')
    if at < 0:
        return None
    start = at + len(b',"table":"')
    end = line.find(b'",', start)
    if end < 0:
        return None
    try:
        name = line[start:end].decode("ascii")
    except UnicodeDecodeError:
        return None
    return name if fmt.TABLE_NAME_RE.match(name) else None


@dataclass(slots=True)
class Held:
    """A line held until a signature covers it."""

    seq: int
    digest: str
    prev: str
    event: str
    file: str
    number: int
    line: bytes
    previous: str | None = None  # a file-starting line's "previous" member
    stream_seq: int = 0

    @classmethod
    def of(cls, file: str, line: bytes, stream_seq: int = 0, digest: str | None = None) -> Held | None:
        head = fmt.split_head(line)
        parsed = fmt.parse_file_name(file)
        if head is None or parsed is None:
            return None
        seq, event, prev = head
        previous = None
        if event in START_EVENTS:
            try:
                value = orjson.loads(line).get("previous")
            except (orjson.JSONDecodeError, AttributeError):
                value = None
            previous = value if isinstance(value, str) else None
        return cls(seq, digest or fmt.digest(line), prev, event, file, parsed[1], line, previous, stream_seq)


@dataclass(frozen=True)
class Head:
    """The copy's last line: its seq, digest, file name and number (seq 0: an empty copy), and the
    highest stream sequence number of a message a line was taken from (0: not known)."""

    seq: int = 0
    digest: str = fmt.GENESIS
    file: str | None = None
    number: int = 0
    stream_seq: int = 0


def fits(pred: Head | Held, succ: Held) -> bool:
    """Whether ``succ`` is in the file the chain puts it in, after ``pred``."""
    if pred.seq == 0:
        return succ.number == 1
    if succ.event in START_EVENTS:
        return succ.number == pred.number + 1 and (succ.previous is None or succ.previous == pred.file)
    return succ.file == pred.file


@dataclass
class Offer:
    """What became of an arriving line: ``held`` (keep it in the journal), ``repeat`` (dropped: the
    collector has it), ``refused``; ``notes``: refusals to report that do not refuse this line
    (``reordered``)."""

    outcome: str
    refusal: Refusal | None = None
    held: Held | None = None
    notes: list[Refusal] = field(default_factory=list)


@dataclass
class Settled:
    """What :meth:`TableChain.settle` found: runs to write (``(file, line)`` in order), refusals,
    the verifier's warnings (an unclean shutdown the table recorded)."""

    lines: list[tuple[str, bytes]] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)
    warnings: list[Finding] = field(default_factory=list)


class TableChain:
    """One table's held lines and the copy's head (see the module docstring).

    ``digest_at(seq)``: the digest of the copy's line at ``seq`` (for a repeat of a line older than
    the ones this chain remembers), or None. ``gap_after``: seconds a missing seq (with lines after
    it held) may take before :meth:`settle` reports it (a collector's restart redelivers late).
    ``top_stream``: the highest stream sequence number of a message a line was taken from (held or
    written), to tell a redelivery from a replay where the line's own is no longer remembered."""

    RECENT = 4096  # the copy's last lines whose digest and stream sequence number are kept

    def __init__(self, table: str, verifier: LineVerifier, head: Head = Head(),
                 digest_at: Callable[[int], str | None] | None = None, gap_after: float = 30.0) -> None:
        self.table = table
        self.verifier = verifier
        self.head = head
        self.digest_at = digest_at or (lambda seq: None)
        self.held: dict[int, dict[tuple[str, str], Held]] = {}
        self.checkpoints: set[int] = set()  # seqs with a held checkpoint
        self.recent: dict[int, tuple[str, int]] = {head.seq: (head.digest, 0)} if head.seq else {}
        self.top_stream = head.stream_seq
        self.gap_after = gap_after
        self._gap: tuple[int, float, bool] | None = None  # (missing seq, since when, reported)
        self._ahead: tuple[int, float, int, bool] | None = None  # (held seq, since when, missing seq then, reported)

    @property
    def held_lines(self) -> int:
        return sum(len(c) for c in self.held.values())

    def all_held(self) -> list[Held]:
        return [h for seq in sorted(self.held) for h in self.held[seq].values()]

    def _known(self, seq: int) -> tuple[str | None, int]:
        """The digest of the copy's line at ``seq`` and the stream sequence number it was taken from
        (0: not remembered)."""
        known = self.recent.get(seq)
        return known if known is not None else (self.digest_at(seq), 0)

    def offer(self, msg: Message, redelivered: bool = False) -> Offer:
        """Decide on one arriving line (already through :func:`check_message`)."""
        seq, line = msg.seq, msg.line
        where = {"seq": seq, "file": msg.file, "msg_id": msg.msg_id}
        if seq <= self.head.seq:
            digest = msg.line_digest()
            known, taken = self._known(seq)
            if known == digest:
                return self._repeat(redelivered or self._same_message(msg.stream_seq, taken), Refusal(
                    self.table, REPLAYED, f"seq {seq} is in the copy already: sent again", **where))
            if known is None:
                return Offer("refused", Refusal(self.table, FORK, f"seq {seq} is before the copy's last line "
                                                f"(seq {self.head.seq}) and not in the copy's remembered lines", **where))
            if seq == 1:
                return Offer("refused", Refusal(self.table, FORK, "seq 1 opens another log of the table than the "
                                                "copy's (a new log folder or computer): its lines are not the copy's",
                                                **where))
            return Offer("refused", Refusal(self.table, FORK, f"seq {seq} differs from the signed line the copy has "
                                            "at that seq", **where))
        held = Held.of(msg.file, line, msg.stream_seq, msg.line_digest())
        if held is None:
            return Offer("refused", Refusal(self.table, MALFORMED, "not a log line", **where))
        candidates = self.held.get(seq, {})
        same = candidates.get((held.digest, held.file))
        if same is not None:
            return self._repeat(redelivered or self._same_message(msg.stream_seq, same.stream_seq), Refusal(
                self.table, REPLAYED, f"seq {seq} is held already: sent again", **where))
        if seq == self.head.seq + 1 and held.prev != self.head.digest:
            return Offer("refused", Refusal(
                self.table, ALTERED, f"seq {seq} does not link to the copy's line seq {self.head.seq} "
                "(its prev is not that line's digest): changed, or not this log's", **where))
        if len(candidates) >= MAX_CANDIDATES:
            return Offer("refused", Refusal(self.table, FLOOD, f"{MAX_CANDIDATES} different lines held for seq {seq} "
                                            "already", **where))
        self.add(held)
        notes = []
        before = self.held.get(seq - 1) if seq > self.head.seq + 1 else None
        for after in self.held.get(seq + 1, {}).values():
            # a line the stream stored before this one (a redelivery after a restart is only late)
            # that follows it (not another log's line at the next seq)
            if 0 < after.stream_seq < msg.stream_seq and after.prev == held.digest:
                notes.append(Refusal(self.table, REORDERED, f"seq {seq + 1} was stored in the stream before seq {seq}: "
                                     "reordered; held, and written in the log's order", seq + 1, after.file))
        if before is not None and not any(h.digest == held.prev for h in before.values()):
            notes.append(Refusal(self.table, ALTERED, f"seq {seq} does not link to the line held at seq {seq - 1}: "
                                 "that one was changed or injected (the genuine one is held back until it comes)",
                                 **where))
        return Offer("held", held=held, notes=notes)

    def _same_message(self, stream_seq: int, taken: int) -> bool:
        """Whether a message with ``stream_seq`` is the one a line was taken from (``taken``; 0: not
        remembered), delivered again (a broker that lost its consumer's state starts over)."""
        if stream_seq <= 0:
            return False
        return stream_seq == taken if taken else stream_seq <= self.top_stream

    def _repeat(self, redelivered: bool, refusal: Refusal) -> Offer:
        # a redelivery (the collector stopped before its ack reached the stream) is no one's doing
        return Offer("repeat") if redelivered else Offer("refused", refusal)

    def add(self, held: Held) -> None:
        """Hold a line (an offer, or the journal read back at a restart)."""
        if held.seq <= self.head.seq:
            return
        self.held.setdefault(held.seq, {})[(held.digest, held.file)] = held
        self.top_stream = max(self.top_stream, held.stream_seq)
        if held.event == fmt.CHECKPOINT:
            self.checkpoints.add(held.seq)

    def settle(self, now: float | None = None) -> Settled:
        """Write what a verified signature now covers (see the module docstring); with ``now``
        (seconds, any clock), report a seq missing for ``gap_after`` seconds."""
        out = Settled()
        self._settle(out)
        if now is not None:
            self._check_gap(now, out)
        return out

    def missing(self) -> int | None:
        """The first seq after the copy's head that is not held while a later one is, or None."""
        if not self.held:
            return None
        top = max(self.held)
        seq = self.head.seq + 1
        while seq < top and seq in self.held:
            seq += 1
        return seq if seq not in self.held else None

    def _check_gap(self, now: float, out: Settled) -> None:
        missing = self.missing()
        if missing is None:
            self._gap = self._ahead = None
            return
        if self._gap is None or self._gap[0] != missing:
            self._gap = (missing, now, False)
        seq, since, reported = self._gap
        if not reported and now - since >= self.gap_after:
            self._gap = (seq, since, True)
            top = max(self.held)
            out.refusals.append(Refusal(self.table, GAP, f"seq {seq} has not come in {now - since:.0f} s: the lines "
                                        f"after it (to seq {top}) are held, not written, until it does", seq))
        self._check_ahead(now, missing, out)

    def _check_ahead(self, now: float, missing: int, out: Settled) -> None:
        """Report, once, the first held line after the missing seq when it has waited ``gap_after``
        seconds while the lines before it kept coming (a gap is the missing seq standing still)."""
        ahead = min(s for s in self.held if s > missing)
        if self._ahead is None or self._ahead[0] != ahead:
            self._ahead = (ahead, now, missing, False)
        seq, since, missing_then, reported = self._ahead
        if not reported and now - since >= self.gap_after and missing > missing_then:
            self._ahead = (seq, since, missing_then, True)
            file = next(iter(self.held[seq].values())).file
            out.refusals.append(Refusal(
                self.table, AHEAD, f"seq {seq} has been held {now - since:.0f} s while the lines before it kept "
                f"coming (the copy is at seq {self.head.seq}, the first seq not come is {missing}): a line far "
                "ahead of the table's log, never written unless a signature covers it", seq, file))

    def _settle(self, out: Settled) -> None:
        progress = True
        while progress:
            progress = False
            for cp_seq in sorted(s for s in self.checkpoints if s > self.head.seq):
                for cp in [h for h in self.held.get(cp_seq, {}).values() if h.event == fmt.CHECKPOINT]:
                    run = self._walk(cp)
                    if run is None:
                        continue
                    result = self.verifier.advance([(h.file, h.line) for h in run])
                    if result.accepted:
                        self._commit(run, out)
                        out.warnings += result.findings
                        progress = True
                        break
                    self._drop(cp)
                    kinds = sorted({f.kind for f in result.findings if f.integrity}) or ["unsigned"]
                    first = next((f for f in result.findings if f.integrity), None)
                    why = first.message if first is not None else "no valid signature covers it"
                    out.refusals.append(Refusal(self.table, kinds[0], f"checkpoint seq {cp.seq} refused "
                                                f"({', '.join(kinds)}): {why}", cp.seq, cp.file))
                if progress:
                    break

    def _walk(self, cp: Held) -> list[Held] | None:
        """The held lines from the copy's head to ``cp``, each linked to and filed after the one
        before, or None when a line is missing (not arrived yet)."""
        run = [cp]
        cur = cp
        while cur.seq > self.head.seq + 1:
            preds = [h for h in self.held.get(cur.seq - 1, {}).values() if h.digest == cur.prev and fits(h, cur)]
            if not preds:
                return None
            cur = preds[0]
            run.append(cur)
        if cur.prev != self.head.digest or not fits(self.head, cur):
            return None
        run.reverse()
        return run

    def _commit(self, run: list[Held], out: Settled) -> None:
        last = run[-1]
        chosen = {h.seq: h for h in run}
        for seq in sorted(s for s in self.held if s <= last.seq):
            for other in self.held.pop(seq).values():
                pick = chosen[seq]
                if other is pick:
                    continue
                if other.digest == pick.digest:
                    kind, why = MISFILED, f"seq {seq} labelled for {other.file}; the signed chain puts it in {pick.file}"
                elif other.prev == pick.prev and _ts(other.line) == _ts(pick.line):
                    kind, why = CHANGED, (f"seq {seq} is a changed copy of the line the checkpoint at seq {last.seq} "
                                          "signs (same seq, time and link, other content)")
                else:
                    kind, why = INJECTED, (f"seq {seq} is not the line the checkpoint at seq {last.seq} signs: "
                                           "a line the table never wrote")
                out.refusals.append(Refusal(self.table, kind, why, seq, other.file))
        self.checkpoints = {s for s in self.checkpoints if s > last.seq}
        out.lines += [(h.file, h.line) for h in run]
        for h in run:
            self.recent[h.seq] = (h.digest, h.stream_seq)
        if len(self.recent) > self.RECENT * 2:
            floor = last.seq - self.RECENT
            self.recent = {s: d for s, d in self.recent.items() if s > floor}
        self.head = Head(last.seq, last.digest, last.file, last.number, self.top_stream)

    def _drop(self, held: Held) -> None:
        candidates = self.held.get(held.seq, {})
        candidates.pop((held.digest, held.file), None)
        if not candidates:
            self.held.pop(held.seq, None)
            self.checkpoints.discard(held.seq)
        elif not any(h.event == fmt.CHECKPOINT for h in candidates.values()):
            self.checkpoints.discard(held.seq)


__all__ = ["AHEAD", "ALTERED", "CHANGED", "FLOOD", "FORK", "GAP", "INJECTED", "MALFORMED", "MISFILED", "MISLABELLED", "REORDERED", "REPLAYED",
           "UNKNOWN_TABLE", "WRONG_TABLE", "Head", "Held", "Message", "Offer", "Refusal", "Settled", "TableChain",
           "check_message", "fits", "line_table"]
