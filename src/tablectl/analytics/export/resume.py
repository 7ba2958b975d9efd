"""An export that goes on where the last one ended: only the log files added since are read.

A log that exported ends at a signed clean-shutdown checkpoint, so the next lines are a new
controller run, in new files. Each export records in the table's manifest (``resume``) every log
file it read whole — name, length and BLAKE3 of its bytes — and the digest of the state it
ended in, saved beside the manifests (``_manifests/_resume/<table>.json``, :class:`Carry`):

- the review's state (``tablectl.review.state``): the chain head and seq to go on from, the key in
  force, the sessions so far;
- the rows that the next session's start completes (a round a stop interrupted, a shoe or
  continuous shuffler's load still in play): worked out at the export, with the review's own code,
  on a copy of its state given a session start right after the last line (:class:`NextStart`);
- the last identity logged of each device (a later shoe's serial).

The next export (:func:`plan`) re-hashes the files read before (raw bytes, no JSON parse), checks
them against the manifest and the chain head against the last line, loads and checks the state,
and then verifies and reconstructs the new files only. Anything in doubt — no record, another
format, a file changed, shorter or longer, other keys trusted, a key rotation in the part read,
state that does not decode or does not match — and the export reads the whole log again as a
first export does (:func:`plan` says why in one line); a log edited in the part exported is then
refused with its file and line. So is a new run that takes over a round or shoe of the last one
(``round_resumed``, ``shoe_resumed``): its rows need the whole history (:class:`Fallback`).

The state file is the dataset's, so anyone's who can write the dataset: it is decoded strictly
(plain values, typed), bound to the manifest by its digest, and trusted with nothing a signature
decides — a restored key state may only name the key in force, never introduce or retire one.
"""

from __future__ import annotations

import copy
import hashlib
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import msgspec
import pyarrow as pa
from blake3 import blake3

from tablectl.analytics.dataset import store as ds
from tablectl.analytics.dataset.schemas import SCHEMAS
from tablectl.eventlog.records import RECORDS
from tablectl.review import state as saved
from tablectl.review.engine import PARALLEL_BYTES
from tablectl.review.tally import RoundTally
from tablectl.review.workers import Forked, WorkerFailed, can_fork

#: the layout of the manifest's ``resume`` record and of :class:`Carry` (1: files marked with BLAKE2b)
FORMAT = 2
STATE_DIR = "_resume"  # in MANIFESTS (a folder: never taken for a table's manifest)
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
#: a new run's lines that go on with something of the last run's (its rows need the whole history)
TAKE_OVER = frozenset({"round_resumed", "shoe_resumed"})

Scalar = str | int | float | bool | None


class FileMark(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    """A log file read whole by an export: its name, length and BLAKE3 (hex)."""

    name: str
    size: int
    digest: str


class ResumeRecord(msgspec.Struct, forbid_unknown_fields=True):
    """The manifest's ``resume``: the files read whole, and the digest of the saved state."""

    format: int
    files: list[FileMark]
    state: str  # BLAKE2b-256 (hex) of the state file's bytes


class Carry(msgspec.Struct, forbid_unknown_fields=True):
    """What an export saves beside the manifest for the next one to go on from."""

    format: int
    table: str
    review: saved.ReviewState
    identities: dict[str, tuple[int, dict[str, Scalar]]]  # device -> (seq, its last device_identified row)
    rows: list[tuple[str, str, list[Scalar]]]  # (dataset, day, values): rows the next session's start completes


@dataclass
class Plan:
    """An export going on from a saved state: the first ``skip`` files were read before."""

    skip: int
    carry: Carry
    marks: list[FileMark]


class Fallback(Exception):
    """Going on from the saved state turned out wrong for the new lines (they take over a round
    or shoe of the last run, do not start a run, or do not verify): read the whole log again."""


def state_path(root: Path, table: str) -> Path:
    return root / ds.MANIFESTS / STATE_DIR / f"{table}.json"


def _blake(data: bytes = b"") -> Any:
    return hashlib.blake2b(data, digest_size=32)


def mark(path: Path) -> FileMark:
    """*path*'s name, length and BLAKE3, read in large blocks (no parsing). BLAKE3 hashes a
    whole log about four times as fast as the log's own BLAKE2b, in one thread."""
    with open(path, "rb") as f:
        digest = hashlib.file_digest(f, blake3)
        return FileMark(path.name, f.tell(), digest.hexdigest())


class Marking:
    """The marks (:func:`mark`) of the files an export reads, taken while the export reads them:
    in a forked worker when they are large enough for the review's own verify worker and this
    process may fork (hashing a 250 MB log takes a few tenths of a second off the export's wall
    time), else when asked for. A file appended to meanwhile gets a mark the next export's
    :func:`plan` finds changed: that export reads the whole log again. A context manager: on the
    way out, a worker whose marks were not asked for (the export refused the log, or stopped) is
    stopped."""

    def __init__(self, files: Sequence[Path]) -> None:
        self.files = list(files)
        self._worker: Forked[list[FileMark]] | None = None
        if sum(f.stat().st_size for f in self.files) >= PARALLEL_BYTES and can_fork():
            self._worker = Forked(lambda: [mark(f) for f in self.files])

    def result(self) -> list[FileMark]:
        worker, self._worker = self._worker, None
        if worker is not None:
            try:
                return worker.result()
            except WorkerFailed:
                pass
        return [mark(f) for f in self.files]

    def __enter__(self) -> Marking:
        return self

    def __exit__(self, *exc: object) -> None:
        """Whatever became of the export, the worker (if its marks were not asked for) is stopped."""
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.cancel()


def plan(root: Path, manifest: ds.Manifest, files: Sequence[Path], fingerprints: list[str]) -> Plan | str | None:
    """How the export of *files* goes on from the last one: a :class:`Plan`, or why it cannot
    (one line: the export then reads the whole log), or None for a table never exported."""
    if manifest.through_seq == 0 or not manifest.exports:
        return None
    if manifest.resume is None:
        return "its manifest records no state to go on from"
    try:
        record = msgspec.convert(manifest.resume, ResumeRecord)
    except msgspec.ValidationError as e:
        return f"its manifest's resume record is malformed ({e})"
    if record.format != FORMAT:
        return f"its manifest's resume record is of format {record.format}, this tablectl reads {FORMAT}"
    if sorted(manifest.exports[-1].key_fingerprints) != sorted(fingerprints):
        return "the keys trusted are not those of its last export"
    marks = record.files
    if not marks or [f.name for f in files[: len(marks)]] != [m.name for m in marks]:
        return "the log's files are not those it exported (renamed, removed or out of order)"
    for path, m in zip(files, marks, strict=False):
        if path.stat().st_size != m.size:
            return f"{path}: {path.stat().st_size} bytes, {m.size} when it was exported"
        if mark(path) != m:
            return f"{path}: changed since it was exported"
    if _last_line_digest(files[len(marks) - 1]) != manifest.chain_head:
        return f"{files[len(marks) - 1]}: its last line is not the chain head the manifest recorded"
    where = state_path(root, manifest.table)
    try:
        data = ds.read_own(where, "saved export state")
    except ds.DatasetError as e:
        return str(e)
    if data is None:
        return f"{where}: missing"
    if _blake(data).hexdigest() != record.state:
        return f"{where}: not the state its manifest recorded"
    try:
        carry = decode(data, manifest.table, manifest.through_seq, manifest.chain_head)
    except saved.StateError as e:
        return f"{where}: {e}"
    return Plan(len(marks), carry, marks)


def decode(data: bytes, table: str, through: int, head: str | None) -> Carry:
    """The :class:`Carry` in *data*, checked against the manifest (``StateError`` if anything is off)."""
    try:
        carry = msgspec.json.decode(data, type=Carry)
    except msgspec.ValidationError as e:
        raise saved.StateError(f"not a saved export state ({e})") from None
    except msgspec.DecodeError as e:
        raise saved.StateError(f"not JSON ({e})") from None
    if carry.format != FORMAT:
        raise saved.StateError(f"saved state of format {carry.format}, this tablectl reads {FORMAT}")
    saved.decode(msgspec.to_builtins(carry.review))  # the review state's own checks
    review = carry.review
    if carry.table != table or review.table != table or review.seq != through or review.head != head:
        raise saved.StateError("saved state of another table or another point of the log than the manifest's")
    if review.keys is not None and (review.keys.introduced or review.keys.retired):
        raise saved.StateError("a key rotation in the part exported (its keys are checked from the log)")
    by_dataset: dict[str, list[list[Scalar]]] = {}
    for name, day, values in carry.rows:
        if name not in SCHEMAS or not _DATE.fullmatch(day) or len(values) != len(SCHEMAS[name]) \
                or values[0] != table:
            raise saved.StateError(f"a carried row of {name!r} on {day!r} that is not a row of the table")
        by_dataset.setdefault(name, []).append(values)
    for name, rows in by_dataset.items():
        try:
            _fits(name, rows)
        except (pa.ArrowException, TypeError, ValueError) as e:
            raise saved.StateError(f"a carried row of {name} does not fit its schema ({e})") from None
    return carry


def _fits(name: str, rows: list[list[Scalar]]) -> None:
    """Raises (Arrow's error) unless *rows* make a table of dataset *name*'s schema."""
    ds.record_batch(name, rows)


def _last_line_digest(path: Path) -> str | None:
    """BLAKE2b-256 (hex) of *path*'s last line (without its newline)."""
    with open(path, "rb") as f:
        end = f.seek(0, os.SEEK_END)
        size = min(end, 1 << 16)
        while True:
            f.seek(end - size)
            tail = f.read(size)
            body = tail[:-1] if tail.endswith(b"\n") else tail
            at = body.rfind(b"\n")
            if at >= 0 or size == end:
                return _blake(body[at + 1 :]).hexdigest()
            size = min(end, size * 4)


def apply(extractor: Any, carry: Carry) -> None:
    """Give an export's row extraction, before the first new line, what it carries from the
    lines before: the sessions' numbering and the devices' identities."""
    lines = extractor._pass
    lines.session = len(carry.review.sessions)
    for device, (seq, row) in carry.identities.items():
        lines.identities[device].append((seq, dict(row)))


def write_carried(out: ds.PartWriter, carry: Carry) -> None:
    """The rows the new run's start completes (the new lines verified and start a run)."""
    for name, day, values in carry.rows:
        out.add_values(name, day, values)


def guard(lines: Any) -> Any:
    """The export's *lines* sink, first checking that the new lines start a run of their own:
    :class:`Fallback` otherwise."""
    first = True

    def feed(records: list[Any]) -> None:
        nonlocal first
        if first and records:
            first = False
            if records[0].event != "log_opened":
                raise Fallback(f"the new lines start with {records[0].event}, not a new run of the controller")
        for rec in records:
            if rec.event in TAKE_OVER:
                raise Fallback(f"seq {rec.seq}: the new run takes over ({rec.event}) what the last one left in play")
        lines(records)

    return feed


class _Recorder:
    """Stands for an export's ``PartWriter``s on a copy: keeps the rows instead."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, str, list[Any]]] = []

    def add(self, dataset: str, row: dict[str, Any]) -> None:
        self.add_values(dataset, row["date"], [row.get(name) for name in SCHEMAS[dataset].names])

    def add_values(self, dataset: str, date: str, values: Sequence[Any]) -> None:
        self.rows.append((dataset, date, list(values)))


class NextStart:
    """``review``'s *before_finish*: on a copy of the review's and the extraction's state, a new
    run of the controller starting right after the last line (a ``log_opened``), finished as the
    review finishes; :meth:`rows` then gives the rows that start completes — what a later export,
    reading only the new run's lines, adds for the old one. ``why`` says why there are none to
    give (the state could not be copied)."""

    def __init__(self, extractor: Any, writers: Sequence[Any]) -> None:
        self.extractor, self.writers = extractor, writers
        self.why: str | None = "the review did not reach its end"
        self._copy: tuple[Any, Any, Any] | None = None
        self.base: dict[str, int] = {}  # the reconstruction's device counters at the start

    def __call__(self, builder: Any, checker: Any) -> None:
        last = builder._batch[-1] if builder._batch else builder._before
        if last is None:
            return
        self.base = dict(builder._base)
        if checker.tally._run is not None:
            self.why = "rounds dealt with no dealer signed in run up to the log's end (the next run may go on with them)"
            return
        recorder = _Recorder()
        x = self.extractor
        memo: dict[int, Any] = {id(w): recorder for w in self.writers}
        memo[id(x._judge)] = x._judge  # caches: shared, not copied
        memo[id(x._pass.games)] = x._pass.games
        memo[id(checker.tally)] = RoundTally()  # counts for the report: the copy's are not wanted
        for shoe in builder.out.shoes:  # a shoe that ended is not changed by what comes after: shared
            if shoe.end_seq is not None and shoe is not builder.shoe:
                memo[id(shoe)] = shoe
        try:
            b, c, e = copy.deepcopy((builder, checker, x), memo)
        except Exception as exc:  # noqa: BLE001 - anything the copy cannot take: no resume, said why
            self.why = f"its state could not be copied ({type(exc).__name__}: {exc})"
            return
        e._rows.through = last.seq
        b.feed([RECORDS["log_opened"](seq=last.seq + 1, ts=last.ts, table=last.table, previous="next")])
        recon = b.finish(0)
        c.tally.finish()
        self._copy = (recon, e, recorder)
        self.why = None

    def rows(self, quality: Any) -> list[tuple[str, str, list[Any]]]:
        """The rows anchored at the new run's start (the shoe quality figures: the review's)."""
        assert self._copy is not None
        recon, e, recorder = self._copy
        e.finish(SimpleNamespace(recon=recon, quality=quality, anomalies=[]))
        return recorder.rows


def capture(report: Any, extractor: Any, nxt: NextStart, marks: Sequence[FileMark],
            marking: Marking) -> tuple[bytes, ResumeRecord] | str:
    """The state file and the manifest's ``resume`` record for the next export to go on after
    this one (*marks*: those of the files already checked; *marking*: of the files it read), or
    why it cannot."""
    review = saved.capture(report, nxt.base)
    if isinstance(review, str):
        return review
    if nxt.why is not None:
        return nxt.why
    if review.keys is not None and (review.keys.introduced or review.keys.retired):
        return "a key rotation in the log (its keys are checked from the log each time)"
    identities = {device: (found[-1][0], found[-1][1]) for device, found in extractor._pass.identities.items()
                  if found}
    rows = [(name, day, values) for name, day, values in nxt.rows(report.quality)]
    carry = Carry(FORMAT, review.table, review, identities, rows)
    data = msgspec.json.encode(carry)
    all_marks = [*marks, *marking.result()]
    while all_marks and all_marks[-1].size == 0:  # an empty file at the end: new to the next export, which
        all_marks.pop()                         # finds it written to (the next run takes it over) or still empty
    return data, ResumeRecord(FORMAT, all_marks, _blake(data).hexdigest())
