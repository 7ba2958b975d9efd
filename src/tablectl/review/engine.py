"""``review(paths, keys)``: verify a card event log and rebuild what happened at the table.

1. **Verify** (``tablectl.eventlog.verify``): hash chain, ``seq``, checkpoint signatures, clean end.
2. **Reconstruct** (:mod:`.reconstruct`): one pass over the records — sessions, rounds, shoes,
   device event numbers, violations, holds, faults, crashes.
3. **Replay** (:mod:`.replay`): every round through the game's deal script and the rules engine;
   the recomputed settlement is compared with the logged one.
4. **Anomalies** (:mod:`.anomalies`) and **shuffle quality** (:mod:`.quality`).

Each round is replayed once the reconstruction hands it on (the next round has started, and the
block of lines that started it has been read: a block's rounds are checked together after the
block): counted and its anomalies noted (:mod:`.tally`), given to the caller's *rounds* sink, then
let go. The review's memory is that of one block's rounds (some 16), the shoes (a byte per card) and
the findings: it does not grow with the log's length.

A small log is verified and reconstructed in one pass over the files (``verify.scan`` with a
:class:`~tablectl.review.logread.LogReader` as its sink). A large log, on a machine with more than
one core, is verified in a forked child process (:mod:`.workers`) while this process reads, parses,
reconstructs and checks the same files (``bench/bench_review_split.py``: about a quarter less wall
time for the same CPU). Both ways give the same report.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from tablectl.eventlog import anchor as anc
from tablectl.eventlog.records import Envelope
from tablectl.eventlog.trust import Trust
from tablectl.eventlog.verify import MALFORMED, Finding, VerifyReport, resolve_paths, scan, verify
from tablectl.review import anomalies as an
from tablectl.review.collect import fewer_collections
from tablectl.review.logread import LogReader, Unreadable
from tablectl.review.model import INTERRUPTED, MATCH, MISMATCH, OPEN, Anomaly, RoundRecord, Session, TableSetup
from tablectl.review.reconstruct import Reconstruction, Reconstructor
from tablectl.review.replay import GameRules, game_rules, replay_round
from tablectl.review.shuffle.quality import QualitySection, analyse
from tablectl.review.tally import RoundTally
from tablectl.review.workers import Forked, WorkerFailed, can_fork

#: logs at least this big are verified in a forked process (when the machine has more than one core)
PARALLEL_BYTES = 8 << 20

#: takes each round once it is checked, in log order
RoundSink = Callable[[RoundRecord], None]


@dataclass
class RulesInForce:
    """Where the house rules review applied came from, per game."""

    game: str
    source: str


@dataclass
class ReviewReport:
    """Everything ``tablectl review`` reports."""

    files: list[str]
    verification: VerifyReport
    recon: Reconstruction
    tally: RoundTally
    anomalies: list[Anomaly]
    quality: list[QualitySection]
    rules: list[RulesInForce] = field(default_factory=list)
    unreadable: list[Unreadable] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    anchored: bool = False  # checked against an anchor; without one a cut or replaced log cannot be told

    @property
    def ok(self) -> bool:
        """Verification found no integrity failure."""
        return self.verification.ok

    @property
    def clean(self) -> bool:
        """Verified, and nothing to look at: no anomaly, no verification warning."""
        return self.ok and not self.anomalies

    @property
    def rounds(self) -> list[RoundRecord]:
        """The rounds the report kept (every round, unless ``review`` was given a *rounds* sink)."""
        return self.recon.rounds

    def round_counts(self) -> dict[str, int]:
        """Rounds by status and by settlement check."""
        return self.tally.counts()

    def find_rounds(self, round_id: str) -> list[RoundRecord]:
        """The kept rounds ``round_id`` names (:func:`round_matcher`)."""
        wanted = round_matcher(round_id)
        return [r for r in self.rounds if wanted(r)]

    def to_dict(self, *, rounds: Sequence[RoundRecord] | None = None) -> dict[str, Any]:
        """JSON values. ``rounds``: the rounds to include in full (default: those the report kept)."""
        return {**self.head(), "rounds": [r.to_dict() for r in (self.rounds if rounds is None else rounds)],
                "timings": self.timings}

    def head(self) -> dict[str, Any]:
        """The JSON values before the rounds (``to_dict`` without ``rounds`` and ``timings``)."""
        recon = self.recon
        # The verification's fields stay at the top level, as ``tablectl review --json`` printed
        # them before review did more than verify; the review's own sections follow.
        return {
            **self.verification.to_dict(),
            "result": "integrity_failure" if not self.ok else ("clean" if self.clean else "anomalies"),
            "first_ts": recon.first_ts,
            "last_ts": recon.last_ts,
            "rules": [{"game": r.game, "source": r.source} for r in self.rules],
            "sessions": [s.to_dict() for s in recon.sessions],
            "counts": self.round_counts(),
            "devices": {k: v.to_dict() for k, v in recon.devices.items()},
            "shoes": [s.to_dict() for s in recon.shoes],
            "anomalies": [a.to_dict() for a in self.anomalies],
            "shuffle_quality": [q.to_dict() for q in self.quality],
            "unreadable": [{"file": u.file, "line": u.line, "text": u.text} for u in self.unreadable],
        }


def round_matcher(round_id: str) -> Callable[[RoundRecord], bool]:
    """Whether a round is one ``round_id`` names: ``N`` (every round numbered N) or ``S.N`` (the
    round N of session S); anything else names none."""
    text = round_id.strip()
    s, dot, n = text.partition(".")
    if dot and s.isdigit() and n.isdigit():
        session, number = int(s), int(n)
        return lambda r: r.session == session and r.number == number
    if not dot and text.isdigit():
        number = int(text)
        return lambda r: r.number == number
    return lambda r: False


def reconstruct(files: Sequence[Path], setup: TableSetup | None = None) -> tuple[Reconstruction, LogReader]:
    """Read the log's records once and reconstruct (no verification, no replay)."""
    builder = Reconstructor(setup)
    reader = LogReader(list(files), builder.feed)
    reader.read()
    return builder.finish(reader.lines), reader


SessionRules = tuple[GameRules | None, bool, str | None]  # a session's game rules, packets, card device


def _session_rules(session: Session, setup: TableSetup | None) -> SessionRules:
    """A session's game rules (their ``source`` says where they came from), packet mode and card device."""
    rules: GameRules | None = None
    if session.game:
        if session.rules is not None:
            data, source = session.rules, "log"
        elif setup is not None and setup.game == session.game:
            data, source = setup.rules, setup.origin
        else:
            data, source = None, "defaults (the log does not record the house rules)"
        try:
            rules = game_rules(session.game, data, source)
        except ValueError as e:
            try:
                rules = game_rules(session.game, None, f"defaults ({source} unusable: {e})")
            except ValueError:
                rules = None
    return rules, session.source_kind == "shuffler", session.source


class RoundChecker:
    """Takes each round from the reconstruction: replays it with its session's rules (procedure
    and settlement), counts it, gives it to *sink*, and lets its lines go."""

    def __init__(self, recon: Reconstruction, setup: TableSetup | None, replay: bool, sink: RoundSink,
                 replay_after: int = 0) -> None:
        self.recon, self.setup, self.replay, self.sink = recon, setup, replay, sink
        self.replay_after = replay_after
        self.tally = RoundTally()
        self._rules: dict[int, SessionRules] = {}

    def __call__(self, rnd: RoundRecord) -> None:
        if self.replay:
            end = rnd.end_seq
            if end is None or end > self.replay_after or rnd.status in (INTERRUPTED, OPEN):
                rules, packets, source = self._of(rnd.session)
                replay_round(rnd, rules, packets=packets, source=source)
                if rnd.hands is not None and rules is not None:
                    rnd.judge_with = (rules.settlement, self.recon.sessions[rnd.session - 1].decks)
            rnd.events = []
        self.tally.add(rnd)
        self.sink(rnd)

    def rules_in_force(self) -> list[RulesInForce]:
        """Where the rules came from, per game (the first session of the game's)."""
        in_force: dict[str, str] = {}
        for session in self.recon.sessions:
            rules = self._of(session.index)[0]
            if session.game and rules is not None:
                in_force.setdefault(session.game, rules.source)
        return [RulesInForce(g, s) for g, s in in_force.items()]

    def _of(self, session: int) -> SessionRules:
        rules = self._rules.get(session)
        if rules is None:
            rules = self._rules[session] = _session_rules(self.recon.sessions[session - 1], self.setup)
        return rules


def review(
    paths: Iterable[Path | str],
    keys: Trust | Sequence[Ed25519PublicKey] = (),
    *,
    partial: bool = False,
    setup: TableSetup | None = None,
    replay: bool = True,
    anchors: list[anc.Anchor] | None = None,
    rounds: RoundSink | None = None,
    lines: Callable[[list[Envelope]], None] | None = None,
    parallel: bool | None = None,
    progress: Callable[[int, int], None] | None = None,
    replay_after: int = 0,
    start: Any = None,
    before_finish: Callable[[Reconstructor, RoundChecker], None] | None = None,
) -> ReviewReport:
    """Verify and review the log in *paths* (files in order, or a directory).

    *keys*: what to trust (``tablectl.eventlog.trust``): the keyring's keys of the table, or keys
    named by hand; none checks the chain only. *partial*: a slice of a log.
    *setup*: what the table's config says (``TableSetup.from_config``): the house rules and pay
    tables for a log that does not record them, and the game and card device of a slice that does
    not start with ``table_started``.
    *replay* False skips walking the rounds through their deal scripts and the rules engine (the
    settlement check of every round stays ``not_settled``): a quicker triage, and the benchmark's
    "verify + reconstruct".
    *anchors*: the entries of an anchor file (``tablectl.eventlog.anchor``): the log must still hold
    the last head they know for its table; None: nothing can tell a log cut short or replaced
    whole, which the report says (an anomaly), as it says when no key was given.
    *rounds*: takes each round once it is checked, in log order (a JSON writer, a filter); the
    report then keeps none, and its memory stays that of one block's rounds however long the log. None:
    the report keeps every round (``ReviewReport.rounds``).
    *lines*: takes the log's records (``tablectl.eventlog.records``), a block at a time in log order,
    as they are read (before the review has verified them: its report says whether they were).
    *progress*: told, after each block read, how many more lines (records) and bytes of the log
    were read (``tablectl.progress``).
    *replay_after*: the rounds that ended by this ``seq`` (and were not interrupted) are not
    replayed: their settlement check stays ``not_settled`` (an export that wrote them before
    needs only what comes after; default 0: every round).
    *parallel*: verify in a forked worker process while this one reads and reconstructs (default:
    for logs of :data:`PARALLEL_BYTES` or more, when the machine has more than one core and this
    process no other thread); the report is the same either way.
    *start*: a ``tablectl.review.state.ReviewState``: *paths* are the files after the line it
    ended at, verified and reconstructed as going on from it (in this process).
    *before_finish*: given the reconstruction and the round checker once every line is read, before
    what is still open is closed (an export works out there what the next session's start will
    close: ``tablectl.analytics.export.resume``).

    Raises ``LogInputError`` for bad input (a missing path, a file that is not a log, no logs).
    """
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    trust = Trust.of(keys)
    files = resolve_paths(paths)
    timings: dict[str, float] = {}
    builder = Reconstructor(setup, keep_events=replay)
    checker = RoundChecker(builder.out, setup, replay, rounds if rounds is not None else builder.out.rounds.append,
                           replay_after)
    builder.on_round = checker
    if start is not None:
        from tablectl.review import state as saved

        saved.restore(builder, start)
    feed = builder.feed if lines is None else _both(lines, builder.feed)
    if progress is not None:
        feed = _told(feed, progress, lambda: reader.bytes_read)
    reader = LogReader(files, feed)
    with fewer_collections():
        if start is not None:  # the files after a saved state: small, read and verified here
            verification = scan(files, trust, reader, allow_partial=partial, start=saved.chain_start(start))
        else:
            if parallel is None:
                parallel = sum(p.stat().st_size for p in files) >= PARALLEL_BYTES and can_fork()
            else:
                parallel = parallel and "fork" in multiprocessing.get_all_start_methods()
            if parallel:
                verification = _read_while_verifying(files, trust, partial, reader, timings)
            else:
                verification = scan(files, trust, reader, allow_partial=partial)
    if before_finish is not None:
        before_finish(builder, checker)
    recon = builder.finish(reader.lines)
    checker.tally.finish()
    timings["reconstructed"] = time.perf_counter() - t0
    t = time.perf_counter()
    quality = analyse(recon)
    timings["quality"] = time.perf_counter() - t
    found = an.collect(recon, checker.tally.anomalies, locate=reader.locate)
    flagged = {(f.file, f.line) for f in verification.findings}
    for u in reader.unreadable:  # a line review cannot read is not a line the controller wrote
        if (u.file, u.line) not in flagged:
            verification.findings.append(Finding(MALFORMED, u.file, u.line, None, f"not a record of the log: {u.text}"))
    for w in verification.warnings:
        if w.kind == "partial":
            found.insert(0, Anomaly(an.PARTIAL_LOG, w.seq, None, w.message, where=f"{w.file}:{w.line}"))
    report = ReviewReport([str(p) for p in files], verification, recon, checker.tally, found, quality,
                          checker.rules_in_force(), reader.unreadable, timings)
    _trust(report, trust, anchors)
    timings["total"] = time.perf_counter() - t0
    timings["cpu"] = time.process_time() - cpu0
    return report


def _both(first: Callable[[list[Envelope]], None], then: Callable[[list[Envelope]], None]) -> Callable[[list[Envelope]], None]:
    def feed(records: list[Envelope]) -> None:
        first(records)
        then(records)

    return feed


def _told(feed: Callable[[list[Envelope]], None], progress: Callable[[int, int], None],
          bytes_read: Callable[[], int]) -> Callable[[list[Envelope]], None]:
    """*feed*, then *progress* told the block's records and the bytes read since the last block."""
    told = 0

    def fed(records: list[Envelope]) -> None:
        nonlocal told
        feed(records)
        now = bytes_read()
        progress(len(records), now - told)
        told = now

    return fed


def _read_while_verifying(files: list[Path], trust: Trust | None, partial: bool, reader: LogReader,
                          timings: dict[str, float]) -> VerifyReport:
    """Verify the log in a forked worker while *reader* reads it here; the worker's report (or,
    if it died, this process's own verification)."""
    worker = Forked(lambda: verify(files, trust, allow_partial=partial))
    try:
        reader.read()
    except BaseException:
        worker.cancel()
        raise
    try:
        return worker.result()
    except WorkerFailed:
        return verify(files, trust, allow_partial=partial)
    finally:
        timings["cpu_verify_worker"] = worker.cpu


def _trust(report: ReviewReport, trust: Trust | None, anchors: list[anc.Anchor] | None) -> None:
    """What the verification cannot vouch for, said plainly: a log reviewed without a key, with
    a key that lies beside it, with checkpoints not signed (anomalies: never "clean"); and, with an anchor,
    whether the log still holds its head (an integrity failure if not). Without an anchor the
    report says so (``anchored`` False; the text report's ``anchor:`` line), not as an anomaly:
    a table without an anchor service is not a finding about its log."""
    verification = report.verification
    first = f"{verification.files[0]}:1" if verification.files else None
    notes = []
    if trust is None:
        table = f" of table {verification.table}" if verification.table else ""
        notes.append(Anomaly(an.NOT_AUTHENTICATED, None, None,
                             f"no trusted key{table} (none in the keyring, no --key): signatures not checked; anyone "
                             "could have written or re-linked these lines", where=first))
    elif trust.beside:
        notes.append(Anomaly(an.KEY_BESIDE_LOG, None, None,
                             f"the key {', '.join(trust.beside)} lies in, inside or above the folder under review, "
                             "or leads there: whoever can rewrite the log can re-sign it and replace that key, so it "
                             "vouches for nothing (enrol the table's key in the keyring: tablectl keyring add)",
                             where=first))
    elif verification.ok and verification.checkpoints == 0:
        notes.append(Anomaly(an.NOT_AUTHENTICATED, None, None, "no signed checkpoint in the log", where=first))
    if anchors is not None:
        report.anchored = True
        lost = anc.check(verification, anchors)
        if lost is not None:
            verification.findings.append(lost)
    report.anomalies[:0] = notes


__all__ = ["MATCH", "MISMATCH", "ReviewReport", "TableSetup", "reconstruct", "review"]
