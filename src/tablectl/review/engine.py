"""``review(paths, keys)``: verify a card event log and rebuild what happened at the table.

1. **Verify** (``tablectl.eventlog.verify``): hash chain, ``seq``, checkpoint signatures, clean end.
2. **Reconstruct** (:mod:`.reconstruct`): one pass over the records — sessions, rounds, shoes,
   device event numbers, violations, holds, faults, crashes.
3. **Replay** (:mod:`.replay`): every round through the game's deal script and the rules engine;
   the recomputed settlement is compared with the logged one.
4. **Anomalies** (:mod:`.anomalies`) and **shuffle quality** (:mod:`.quality`).

Verification and reconstruction are one pass over the files (``tablectl.eventlog.verify.scan``
with a :class:`~tablectl.review.logread.LogReader` as its sink): each block of lines is hashed and
checked, then parsed and fed to the reconstruction, while its bytes are in the CPU cache. The
replay of a large log checks about half the rounds in a forked worker process.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import threading
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from tablectl.eventlog.verify import VerifyReport, resolve_paths, scan
from tablectl.review import anomalies as an
from tablectl.review.logread import LogReader, Unreadable
from tablectl.review.model import MATCH, MISMATCH, Anomaly, RoundRecord, TableSetup
from tablectl.review.quality import QualitySection, analyse
from tablectl.review.reconstruct import Reconstruction, Reconstructor
from tablectl.review.replay import GameRules, game_rules, replay_round

#: logs at least this big are replayed in two processes (when the machine has more than one core)
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
        for r in self.recon.rounds:
            out[f"status:{r.status}"] = out.get(f"status:{r.status}", 0) + 1
            out[f"settlement:{r.settlement}"] = out.get(f"settlement:{r.settlement}", 0) + 1
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


def _can_fork() -> bool:
    return (
        (os.cpu_count() or 1) > 1
        and "fork" in multiprocessing.get_all_start_methods()
        and threading.active_count() == 1
    )


def reconstruct(files: Sequence[Path], setup: TableSetup | None = None) -> tuple[Reconstruction, LogReader]:
    """Read the log's records once and reconstruct (no verification, no replay)."""
    builder = Reconstructor(setup)
    reader = LogReader(list(files), builder.feed)
    reader.read()
    return builder.finish(reader.lines), reader


#: replay in two processes from this many rounds on (below, a fork costs more than it saves)
PARALLEL_ROUNDS = 4000
_PLAN: list[tuple[RoundRecord, GameRules | None, bool, str | None]] = []  # for forked replay workers


def _plan(recon: Reconstruction, setup: TableSetup | None
          ) -> tuple[list[tuple[RoundRecord, GameRules | None, bool, str | None]], list[RulesInForce]]:
    """Each round with the game rules, packet mode and card device of its session."""
    by_session: dict[int, tuple[GameRules | None, bool, str | None]] = {}
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
    none: tuple[GameRules | None, bool, str | None] = (None, False, None)
    plan = [(rnd, *by_session.get(rnd.session, none)) for rnd in recon.rounds]
    return plan, [RulesInForce(g, s) for g, s in in_force.items()]


def _check_slice(start: int, stop: int) -> list[tuple[str, list[str], list[tuple[Any, ...]] | None]]:
    """In a forked worker: the procedure and settlement check of rounds ``start:stop`` of ``_PLAN``."""
    out = []
    for rnd, rules, packets, source in _PLAN[start:stop]:
        replay_round(rnd, rules, packets=packets, source=source)
        out.append((rnd.settlement, rnd.problems, None if rnd.settlement == MATCH else rnd.recomputed_rows))
    return out


def replay_all(recon: Reconstruction, setup: TableSetup | None = None, *, parallel: bool = False,
               check: bool = True) -> list[RulesInForce]:
    """Replay every round with its session's game and house rules (see :func:`review`).

    *parallel*: check about half the rounds in a forked worker process (which sees the rounds
    through the fork, so nothing is sent to it; it sends back each round's verdict). *check*
    False: only say which rules would apply (the rounds' layout is the reconstruction's).
    """
    global _PLAN
    plan, in_force = _plan(recon, setup)
    if not check:
        return in_force
    if not parallel or len(plan) < PARALLEL_ROUNDS:
        for rnd, rules, packets, source in plan:
            replay_round(rnd, rules, packets=packets, source=source)
        return in_force
    split = len(plan) // 2
    _PLAN = plan
    try:
        with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork")) as pool:
            job = pool.submit(_check_slice, split, len(plan))
            for rnd, rules, packets, source in plan[:split]:
                replay_round(rnd, rules, packets=packets, source=source)
            verdicts = job.result()
    finally:
        _PLAN = []
    for (rnd, _, _, _), (settlement, problems, rows) in zip(plan[split:], verdicts, strict=True):
        rnd.settlement, rnd.problems, rnd.recomputed_rows = settlement, problems, rows
    return in_force


def review(
    paths: Iterable[Path | str],
    keys: Sequence[Ed25519PublicKey] = (),
    *,
    partial: bool = False,
    setup: TableSetup | None = None,
    parallel: bool | None = None,
    replay: bool = True,
) -> ReviewReport:
    """Verify and review the log in *paths* (files in order, or a directory).

    *keys*: the table's public key(s); none checks the chain only. *partial*: a slice of a log.
    *setup*: what the table's config says (``TableSetup.from_config``): the house rules and pay
    tables for a log that does not record them, and the game and card device of a slice that does
    not start with ``table_started``.
    *parallel*: check about half the rounds' procedure and settlement in a forked worker process
    (default: for large logs when the machine has more than one core). *replay* False skips
    walking the rounds through their deal scripts and the rules engine (the settlement check of
    every round stays ``not_settled``): a quicker triage, and the benchmark's
    "verify + reconstruct".

    Raises ``LogInputError`` for bad input (a missing path, a file that is not a log, no logs).
    """
    t0 = time.perf_counter()
    files = resolve_paths(paths)
    size = sum(p.stat().st_size for p in files)
    if parallel is None:
        parallel = size >= PARALLEL_BYTES and _can_fork()
    gc_was_enabled = gc.isenabled()
    gc.disable()  # a million parsed lines, none in a cycle: the collector would only rescan them
    try:
        return _review(files, keys, partial, setup, parallel, replay, t0)
    finally:
        if gc_was_enabled:
            gc.enable()


def _review(files: list[Path], keys: Sequence[Ed25519PublicKey], partial: bool, setup: TableSetup | None,
            parallel: bool, replay: bool, t0: float) -> ReviewReport:
    timings: dict[str, float] = {}
    builder = Reconstructor(setup)
    reader = LogReader(files, builder.feed)
    verification = scan(files, list(keys) or None, reader, allow_partial=partial)
    recon = builder.finish(reader.lines)
    timings["verified_and_reconstructed"] = time.perf_counter() - t0
    t1 = time.perf_counter()
    in_force = replay_all(recon, setup, parallel=parallel, check=replay)
    timings["replay"] = time.perf_counter() - t1
    found = an.collect(recon, locate=reader.locate)
    for u in reader.unreadable:
        found.append(Anomaly(an.UNREADABLE_LINE, None, None, f"not a JSON log line: {u.text!r}", where=f"{u.file}:{u.line}"))
    for w in verification.warnings:
        if w.kind == "partial":
            found.insert(0, Anomaly(an.PARTIAL_LOG, w.seq, None, w.message, where=f"{w.file}:{w.line}"))
    t1 = time.perf_counter()
    quality = analyse(recon)
    timings["quality"] = time.perf_counter() - t1
    timings["total"] = time.perf_counter() - t0
    return ReviewReport([str(p) for p in files], verification, recon, found, quality, in_force, reader.unreadable, timings)


__all__ = ["MATCH", "MISMATCH", "ReviewReport", "TableSetup", "reconstruct", "replay_all", "review"]
