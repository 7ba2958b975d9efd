"""The review's account of the rounds, kept as they pass: a log's rounds are checked one by one
as the reconstruction hands them on, and what the report needs of them stays here — counts, the
players' net, each round's anomalies, the runs of rounds with no dealer, and a bounded list of
rounds to show (the first ones, and those whose check found something). The rounds themselves
are let go, so that a review's memory does not grow with the log.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from tablectl.review.anomalies import (
    NO_DEALER,
    PROCEDURE_MISMATCH,
    ROUND_INTERRUPTED,
    ROUND_OPEN,
    ROUND_VOIDED,
    SETTLEMENT_MISMATCH,
)
from tablectl.review.model import INTERRUPTED, MATCH, MISMATCH, OPEN, REPLAY_FAILED, VOIDED, Anomaly, RoundRecord

#: what makes :func:`round_anomalies` find something in a round (most rounds have none of these)
_FLAGGED = frozenset({MISMATCH, REPLAY_FAILED})
_ENDED_SHORT = frozenset({INTERRUPTED, OPEN, VOIDED})

#: how many rounds a report lists at most (the first ones of a small log, else those with a finding)
LISTED_ROUNDS = 1000


@dataclass
class RoundTally:
    """Counts and findings over the rounds :meth:`add` was given, in log order."""

    rounds: int = 0
    pairs: Counter[tuple[str, str]] = field(default_factory=Counter)  # (status, settlement): rounds
    settled: int = 0  # rounds with a logged settlement that stands (not voided)
    net: int = 0  # the players' net over them (cents)
    anomalies: list[Anomaly] = field(default_factory=list)
    first: list[RoundRecord] = field(default_factory=list)  # the first LISTED_ROUNDS rounds
    odd: list[RoundRecord] = field(default_factory=list)  # the first LISTED_ROUNDS with a finding
    odd_count: int = 0
    # the run of rounds dealt with no dealer signed in, so far: its first round, its last, its length
    _run: tuple[RoundRecord, RoundRecord, int] | None = None

    def add(self, rnd: RoundRecord) -> None:
        """Count a checked round and note its anomalies."""
        self.rounds += 1
        self.pairs[(rnd.status, rnd.settlement)] += 1
        if rnd.settled and rnd.status != VOIDED:  # a void returned the wagers it settled
            self.settled += 1
            self.net += rnd.net
        if len(self.first) < LISTED_ROUNDS:
            self.first.append(rnd)
        if rnd.settlement != MATCH or rnd.problems:
            self.odd_count += 1
            if len(self.odd) < LISTED_ROUNDS:
                self.odd.append(rnd)
        if rnd.settlement in _FLAGGED or rnd.status in _ENDED_SHORT:
            self.anomalies += round_anomalies(rnd)
        if rnd.dealer:
            self._close_no_dealer()
        else:
            self._run = (rnd, rnd, 1) if self._run is None else (self._run[0], rnd, self._run[2] + 1)

    def finish(self) -> None:
        """The log has no more rounds."""
        self._close_no_dealer()

    def counts(self) -> dict[str, int]:
        """Rounds by status and by settlement check, the keys in the order the rounds show them first."""
        out: dict[str, int] = {"rounds": self.rounds}
        for (status, settlement), n in self.pairs.items():
            out[f"status:{status}"] = out.get(f"status:{status}", 0) + n
            out[f"settlement:{settlement}"] = out.get(f"settlement:{settlement}", 0) + n
        return out

    def listed(self) -> tuple[list[RoundRecord], int]:
        """The rounds a report lists, and how many rounds it leaves out: every round of a log of up
        to :data:`LISTED_ROUNDS`, else those with a finding (at most that many)."""
        if self.rounds <= LISTED_ROUNDS:
            return self.first, 0
        return self.odd, self.rounds - len(self.odd)

    def _close_no_dealer(self) -> None:
        if self._run is not None:
            first, last, n = self._run
            which = f"round {first.id}" if n == 1 else f"{n} rounds, {first.id} to {last.id}"
            self.anomalies.append(Anomaly(NO_DEALER, first.start_seq, first.start_ts,
                                          f"{which} dealt with no dealer signed in", first.id))
            self._run = None


def round_anomalies(rnd: RoundRecord) -> list[Anomaly]:
    """What a checked round shows a reviewer: a settlement or procedure mismatch; a round that
    did not end normally (interrupted, open at the log's end, voided)."""
    out: list[Anomaly] = []
    if rnd.settlement == MISMATCH:
        out.append(Anomaly(SETTLEMENT_MISMATCH, rnd.start_seq, rnd.start_ts, "; ".join(rnd.problems) or "settlement differs",
                           rnd.id))
    elif rnd.settlement == REPLAY_FAILED:
        out.append(Anomaly(PROCEDURE_MISMATCH, rnd.start_seq, rnd.start_ts, "; ".join(rnd.problems), rnd.id))
    if rnd.status == INTERRUPTED:
        why = next((p for p in rnd.problems if "during the round" in p or "before it ended" in p), "interrupted")
        out.append(Anomaly(ROUND_INTERRUPTED, rnd.start_seq, rnd.start_ts, why, rnd.id, None, None, None,
                           rnd.end_seq, rnd.end_ts))
    elif rnd.status == OPEN:
        out.append(Anomaly(ROUND_OPEN, rnd.start_seq, rnd.start_ts, "the log ends during the round", rnd.id))
    elif rnd.status == VOIDED:
        void = rnd.voided_by
        reason = f": {void.reason}" if void is not None and void.reason else ""
        at: int = void.seq if void is not None else rnd.start_seq
        out.append(Anomaly(ROUND_VOIDED, at, void.ts if void else rnd.start_ts, f"round voided{reason}", rnd.id))
    return out
