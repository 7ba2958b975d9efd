"""``review(paths, keys)``: verify a card event log and rebuild what happened at the table.

1. **Verify** (``tablectl.eventlog.verify``): hash chain, ``seq``, checkpoint signatures, clean end.
2. **Reconstruct** (:mod:`.reconstruct`): one pass over the records — sessions, rounds, shoes,
   device event numbers, violations, holds, faults, crashes.
3. **Replay** (:mod:`.replay`): every round through the game's deal script and the rules engine;
   the recomputed settlement is compared with the logged one.
4. **Anomalies** (:mod:`.anomalies`) and **shuffle quality** (:mod:`.quality`).

A small log is verified and reconstructed in one pass over the files (``verify.scan`` with a
:class:`~tablectl.review.logread.LogReader` as its sink). A large log, on a machine with more than
one core, is verified in a forked child process (:mod:`.workers`) while this process reads, parses
and reconstructs the same files; then a second child checks part of the rounds while this process
analyses the shuffles and checks the rest. Both ways give the same report.
"""

from __future__ import annotations

import gc
import multiprocessing
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from tablectl.eventlog import anchor as anc
from tablectl.eventlog.verify import MALFORMED, Finding, VerifyReport, resolve_paths, scan, verify
from tablectl.review import anomalies as an
from tablectl.review.logread import LogReader, Unreadable
from tablectl.review.model import MATCH, MISMATCH, Anomaly, RoundRecord, TableSetup
from tablectl.review.quality import QualitySection, analyse
from tablectl.review.reconstruct import Reconstruction, Reconstructor
from tablectl.review.replay import GameRules, game_rules, replay_round
from tablectl.review.workers import Forked, WorkerFailed, can_fork

#: logs at least this big are reviewed in two processes (when the machine has more than one core)
PARALLEL_BYTES = 8 << 20


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
        return self.recon.rounds

    def round_counts(self) -> dict[str, int]:
        """Rounds by status and by settlement check."""
        out: dict[str, int] = {"rounds": len(self.recon.rounds)}
        # counted by (status, settlement) pair first: the keys come out in the order the rounds
        # show them first, as counting round by round would put them
        pairs = Counter([(r.status, r.settlement) for r in self.recon.rounds])
        for (status, settlement), n in pairs.items():
            out[f"status:{status}"] = out.get(f"status:{status}", 0) + n
            out[f"settlement:{settlement}"] = out.get(f"settlement:{settlement}", 0) + n
        return out

    def find_rounds(self, round_id: str) -> list[RoundRecord]:
        """The rounds ``round_id`` names: ``N`` (every round numbered N) or ``S.N`` (session S)."""
        text = round_id.strip()
        if "." in text:
            s, _, n = text.partition(".")
            if s.isdigit() and n.isdigit():
                return [r for r in self.recon.rounds if r.session == int(s) and r.number == int(n)]
            return []
        if text.isdigit():
            return [r for r in self.recon.rounds if r.number == int(text)]
        return []

    def to_dict(self, *, rounds: Sequence[RoundRecord] | None = None) -> dict[str, Any]:
        """JSON values. ``rounds``: the rounds to include in full (default: every round)."""
        recon = self.recon
        chosen = recon.rounds if rounds is None else rounds
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
            "rounds": [r.to_dict() for r in chosen],
            "timings": self.timings,
        }


def reconstruct(files: Sequence[Path], setup: TableSetup | None = None) -> tuple[Reconstruction, LogReader]:
    """Read the log's records once and reconstruct (no verification, no replay)."""
    builder = Reconstructor(setup)
    reader = LogReader(list(files), builder.feed)
    reader.read()
    return builder.finish(reader.lines), reader


#: replay in two processes from this many rounds on (below, a fork costs more than it saves)
PARALLEL_ROUNDS = 4000
#: a replay worker starts during the reading once the verification worker is done and at least
#: this share of the log is read; the rounds it does not take are shared with a second worker at
#: the end (or, without the first, all of them)
EARLY_FROM = 0.5
#: before that worker starts, this process checks this many rounds itself, timing them: how many
#: rounds the worker takes follows from what a check costs against what the reading still costs
#: (both change with the game, the machine and the code: measured, not assumed)
SAMPLE_ROUNDS = 64

SessionRules = tuple[GameRules | None, bool, str | None]  # a session's game rules, packets, card device
Plan = list[tuple[RoundRecord, GameRules | None, bool, str | None]]  # each round with its session's rules
Verdict = tuple[str, list[str], list[tuple[Any, ...]] | None]  # settlement check, problems, recomputed rows


def _session_rules(recon: Reconstruction, setup: TableSetup | None) -> tuple[dict[int, SessionRules], list[RulesInForce]]:
    """Each session's game rules, packet mode and card device; where the rules came from, per game."""
    by_session: dict[int, SessionRules] = {}
    in_force: dict[str, str] = {}
    for session in recon.sessions:
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
            if rules is not None:
                in_force.setdefault(session.game, rules.source)
        by_session[session.index] = (rules, session.source_kind == "shuffler", session.source)
    return by_session, [RulesInForce(g, s) for g, s in in_force.items()]


def _plan(recon: Reconstruction, setup: TableSetup | None) -> tuple[Plan, list[RulesInForce]]:
    """Each round with the game rules, packet mode and card device of its session."""
    by_session, in_force = _session_rules(recon, setup)
    none: SessionRules = (None, False, None)
    return [(rnd, *by_session.get(rnd.session, none)) for rnd in recon.rounds], in_force


def _check(plan: Plan) -> None:
    for rnd, rules, packets, source in plan:
        replay_round(rnd, rules, packets=packets, source=source)


def _verdicts(plan: Plan) -> list[Verdict]:
    """In a replay worker: check the rounds of *plan*; each one's settlement check, problems and
    recomputed rows (None when they match the logged ones: the parent has those)."""
    _check(plan)
    return [(rnd.settlement, rnd.problems, None if rnd.settlement == MATCH else rnd.recomputed_rows)
            for rnd, _, _, _ in plan]


def _early_count(expected: float, sampled: int, check: float, reading: float) -> int:
    """How many rounds a replay worker started during the reading takes (after the *sampled*
    rounds this process checked), so that it ends with this process, which still has *reading*
    CPU seconds of the log to read and reconstruct, and then the other rounds to check (with a
    second worker): half of all the work left, when *expected* rounds in all cost *check* each."""
    return max(0, int((reading / check + expected - sampled) / 2)) if check > 0 else int(expected)


def _timed_check(plan: Plan) -> float:
    """Check the rounds of *plan* here; the median CPU seconds a round took (the first rounds
    also pay for warming up: imports, caches)."""
    took = []
    for rnd, rules, packets, source in plan:
        t = time.process_time()
        replay_round(rnd, rules, packets=packets, source=source)
        took.append(time.process_time() - t)
    took.sort()
    return took[len(took) // 2] if took else 0.0


class _Replay:
    """The rounds of a plan, checked in a forked worker; *name* says which in the timings.
    *end*: the index in the log's plan of the round after the worker's (its first rounds, and so
    the worker's rounds, are rounds ``end - len(plan)`` .. ``end - 1``)."""

    def __init__(self, plan: Plan, name: str, end: int | None = None) -> None:
        self.plan = plan
        self.name = name
        self.end = len(plan) if end is None else end
        self.started = time.perf_counter()
        self.worker = Forked(lambda: _verdicts(plan))

    def collect(self, timings: dict[str, float]) -> None:
        """The worker's verdicts, into the rounds (checked here if the worker failed)."""
        try:
            verdicts = self.worker.result()
        except WorkerFailed:
            _check(self.plan)
            return
        finally:
            timings[f"cpu_{self.name}"] = self.worker.cpu
        for (rnd, _, _, _), (settlement, problems, rows) in zip(self.plan, verdicts, strict=True):
            rnd.settlement, rnd.problems = settlement, problems
            if rows is not None:
                rnd.recomputed_rows = rows


def _check_in_two(plan: Plan, meanwhile: Callable[[], None], timings: dict[str, float], name: str) -> None:
    """Check the rounds of *plan*, the first half of them in a forked worker, the rest here after
    *meanwhile*."""
    split = len(plan) // 2
    worker = _Replay(plan[:split], name)
    try:
        meanwhile()
        _check(plan[split:])
    except BaseException:
        worker.worker.cancel()
        raise
    worker.collect(timings)


def review(
    paths: Iterable[Path | str],
    keys: Sequence[Ed25519PublicKey] = (),
    *,
    partial: bool = False,
    setup: TableSetup | None = None,
    parallel: bool | None = None,
    replay: bool = True,
    anchors: list[anc.Anchor] | None = None,
) -> ReviewReport:
    """Verify and review the log in *paths* (files in order, or a directory).

    *keys*: the table's public key(s); none checks the chain only. *partial*: a slice of a log.
    *setup*: what the table's config says (``TableSetup.from_config``): the house rules and pay
    tables for a log that does not record them, and the game and card device of a slice that does
    not start with ``table_started``.
    *parallel*: verify in a forked worker process while this one reconstructs, and check part of
    the rounds' procedure and settlement in another (default: for logs of :data:`PARALLEL_BYTES`
    or more, when the machine has more than one core and this process no other thread); the
    report is the same either way. *replay* False skips walking the rounds through their deal
    scripts and the rules engine (the settlement check of every round stays ``not_settled``): a
    quicker triage, and the benchmark's "verify + reconstruct".
    *anchors*: the entries of an anchor file (``tablectl.eventlog.anchor``): the log must still hold
    the last head they know for its table; None: nothing can tell a log cut short or replaced
    whole, which the report says (an anomaly), as it says when no key was given.

    Raises ``LogInputError`` for bad input (a missing path, a file that is not a log, no logs).
    """
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    files = resolve_paths(paths)
    if parallel is None:
        parallel = sum(p.stat().st_size for p in files) >= PARALLEL_BYTES and can_fork()
    else:
        parallel = parallel and "fork" in multiprocessing.get_all_start_methods()
    gc_was_enabled = gc.isenabled()
    gc.disable()  # a million parsed lines, none in a cycle: the collector would only rescan them
    try:
        report = _review(files, list(keys), partial, setup, parallel, replay, t0)
    finally:
        if gc_was_enabled:
            gc.enable()
    _trust(report, bool(keys), anchors)
    report.timings["cpu_parent"] = time.process_time() - cpu0
    return report


class _TwoProcesses:
    """The reading of a large log on two cores: verification in a forked worker while this process
    reads and reconstructs; once the worker is done and enough of the log is read, a second worker
    checks the rounds reconstructed so far (:attr:`replay`) while this process reads on."""

    def __init__(self, files: list[Path], keys: list[Ed25519PublicKey], partial: bool, setup: TableSetup | None,
                 replay: bool) -> None:
        self.files, self.keys, self.partial, self.setup = files, keys, partial, setup
        self.replay_wanted = replay
        self.replay: _Replay | None = None
        self.builder = Reconstructor(setup, keep_events=replay)
        self.reader = LogReader(files, self._feed)
        self.size = sum(p.stat().st_size for p in files) or 1
        self.verifier: Forked[VerifyReport] | None = None
        self.cpu0 = time.process_time()

    def read(self) -> None:
        """Start verifying the log in a worker and read it here (:attr:`builder`, :attr:`reader`).
        (On an exception, :meth:`cancel`.)"""
        self.verifier = Forked(lambda: verify(self.files, self.keys or None, allow_partial=self.partial))
        self.reader.read()

    def verification(self, timings: dict[str, float]) -> VerifyReport:
        """The worker's verification report (waiting for it if need be)."""
        assert self.verifier is not None
        try:
            return self.verifier.result()
        except WorkerFailed:
            return verify(self.files, self.keys or None, allow_partial=self.partial)
        finally:
            timings["cpu_verify_worker"] = self.verifier.cpu

    def cancel(self) -> None:
        """Stop the workers (bad input, or an error here)."""
        if self.verifier is not None:
            self.verifier.cancel()
        if self.replay is not None:
            self.replay.worker.cancel()

    def _feed(self, records: list[dict[str, Any]]) -> None:
        self.builder.feed(records)
        if self.replay_wanted and self.replay is None and self.verifier is not None and self.verifier.ready():
            # the verification worker is done: its core is free for checking rounds
            progress = self.reader.bytes_read / self.size
            if progress >= EARLY_FROM:
                self._start_replay(progress)

    def _start_replay(self, progress: float) -> None:
        """Time the check of a few rounds here, then hand the worker as many of the next rounds
        (of those no line to come can change) as keeps it busy until this process is done."""
        builder = self.builder
        final = builder.final_rounds()
        if final < PARALLEL_ROUNDS // 2:
            return
        plan, _ = _plan(builder.out, self.setup)
        sampled = min(SAMPLE_ROUNDS, final // 4)
        reading = (time.process_time() - self.cpu0) * (1 - progress) / progress
        check = _timed_check(plan[:sampled])
        end = min(final, sampled + _early_count(len(builder.out.rounds) / progress, sampled, check, reading))
        self.replay = _Replay(plan[sampled:end], "replay_worker_1", end)


def _review(files: list[Path], keys: list[Ed25519PublicKey], partial: bool, setup: TableSetup | None,
            parallel: bool, replay: bool, t0: float) -> ReviewReport:
    timings: dict[str, float] = {}
    if not parallel:
        builder = Reconstructor(setup, keep_events=replay)
        reader = LogReader(files, builder.feed)
        verification = scan(files, keys or None, reader, allow_partial=partial)
        return _rest(files, builder, reader, lambda: verification, setup, replay, None, t0, timings)
    two = _TwoProcesses(files, keys, partial, setup, replay)
    try:
        two.read()
        # what is left here does not need the verification: done while the worker may still verify
        return _rest(files, two.builder, two.reader, lambda: two.verification(timings), setup, replay, two, t0, timings)
    except BaseException:
        two.cancel()
        raise


def _rest(files: list[Path], builder: Reconstructor, reader: LogReader, verified: Callable[[], VerifyReport],
          setup: TableSetup | None, replay: bool, two: _TwoProcesses | None, t0: float,
          timings: dict[str, float]) -> ReviewReport:
    """After the reading: the replay, the shuffle quality, then (with *verified*'s report) the anomalies."""
    recon = builder.finish(reader.lines)
    timings["reconstructed"] = time.perf_counter() - t0
    t1 = time.perf_counter()
    plan, in_force = _plan(recon, setup) if replay else ([], _session_rules(recon, setup)[1])
    quality: list[QualitySection] = []

    def shuffles() -> None:
        t = time.perf_counter()
        quality.extend(analyse(recon))
        timings["quality"] = time.perf_counter() - t

    early = two.replay if two is not None else None
    rest = plan[early.end :] if early is not None else plan  # (the rounds before the worker's: checked)
    if not replay:
        shuffles()
    elif two is not None and len(rest) >= PARALLEL_ROUNDS:
        _check_in_two(rest, shuffles, timings, "replay_worker_2" if early is not None else "replay_worker")
    else:
        shuffles()
        _check(rest)
    if early is not None:
        early.collect(timings)
        timings["replay_worker_1_started"] = early.started - t0
        timings["replay_worker_1_share"] = len(early.plan) / len(plan)
    timings["replay_and_quality"] = time.perf_counter() - t1
    verification = verified()
    timings["verified"] = time.perf_counter() - t0
    found = an.collect(recon, locate=reader.locate)
    flagged = {(f.file, f.line) for f in verification.findings}
    for u in reader.unreadable:  # a line review cannot read is not a line the controller wrote
        if (u.file, u.line) not in flagged:
            verification.findings.append(Finding(MALFORMED, u.file, u.line, None, f"not a record of the log: {u.text}"))
    for w in verification.warnings:
        if w.kind == "partial":
            found.insert(0, Anomaly(an.PARTIAL_LOG, w.seq, None, w.message, where=f"{w.file}:{w.line}"))
    timings["total"] = time.perf_counter() - t0
    return ReviewReport([str(p) for p in files], verification, recon, found, quality, in_force, reader.unreadable,
                        timings)


def _trust(report: ReviewReport, keyed: bool, anchors: list[anc.Anchor] | None) -> None:
    """What the verification cannot vouch for, said plainly: a log reviewed without a key, with
    checkpoints not signed (anomalies: never "clean"); and, with an anchor,
    whether the log still holds its head (an integrity failure if not). Without an anchor the
    report says so (``anchored`` False; the text report's ``anchor:`` line), not as an anomaly:
    a table without an anchor service is not a finding about its log."""
    verification = report.verification
    first = f"{verification.files[0]}:1" if verification.files else None
    notes = []
    if not keyed:
        notes.append(Anomaly(an.NOT_AUTHENTICATED, None, None,
                             "no --key: signatures not checked; anyone could have written or re-linked these lines", where=first))
    elif verification.ok and verification.checkpoints == 0:
        notes.append(Anomaly(an.NOT_AUTHENTICATED, None, None, "no signed checkpoint in the log", where=first))
    if anchors is not None:
        report.anchored = True
        lost = anc.check(verification, anchors)
        if lost is not None:
            verification.findings.append(lost)
    report.anomalies[:0] = notes


__all__ = ["MATCH", "MISMATCH", "ReviewReport", "TableSetup", "reconstruct", "review"]
