"""Shuffle quality from the logged card sequences: extraction for, and calls of, the analyses in
:mod:`tablectl.review.shuffle.analyses` — plus the descriptive figures the HTML report plots.

What the log gives:

- **card-reading shoe, hand-forming shuffler**: for every shoe / shuffle, the cards in the order
  they came out, as far as they were dealt (a prefix: a shoe to the cut card, a shuffler's dealt
  packets). The input order is never logged, so the position chi-square runs on card values and
  the guessing test is ``n/a``. A misread card that was never identified, or a card beyond the
  shoe's composition (foreign), ends that shoe's usable prefix. The position test bins only the
  positions every shuffle reached (its design for prefixes); shuffles showing under a quarter of
  the median are left out, so that one shoe cut short does not blunt the test for all the others
  (:func:`common_prefix`); the notes count them.
- **continuous shuffler**: every dispense (card drawn from it) and every return, in log order,
  for the re-entry lag test. Events the composition makes impossible (a return of a card that is
  not out, e.g. one dispensed before the log began) are dropped and counted.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tablectl.cards import DECK_SIZE
from tablectl.review.model import UNKNOWN_CARD
from tablectl.review.reconstruct import Reconstruction
from tablectl.review.shuffle.analyses import analyse_csm, analyse_shuffles
from tablectl.review.shuffle.common import (
    CsmEvent,
    ObservedShuffle,
    QualityResult,
    not_applicable,
)

POSITION_BINS = 8
LAG_EDGES = (0.125, 0.25, 0.5, 1.0, 2.0)


@dataclass
class QualitySection:
    """The shuffle-quality results of one log, with what the figures need."""

    scope: str  # what was analysed, one line
    results: list[QualityResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    heatmap: dict[str, Any] | None = None  # rank x position-bin standardized residuals (shoes)
    lag_histogram: dict[str, Any] | None = None  # re-entry lags (continuous shuffler)

    def to_dict(self) -> dict[str, Any]:
        return {
            "scope": self.scope, "results": [r.to_dict() for r in self.results], "notes": self.notes,
            "heatmap": self.heatmap, "lag_histogram": self.lag_histogram,
        }


def shoe_sequences(recon: Reconstruction) -> tuple[list[bytes], int, list[str]]:
    """The usable card sequences of the shoes / shuffles (card bytes), their deck count, and notes."""
    notes: list[str] = []
    kinds = Counter(s.decks for s in recon.shoes if s.kind in ("shoe", "shuffler") and s.decks)
    if not kinds:
        return [], 0, notes
    decks = kinds.most_common(1)[0][0]
    sequences: list[bytes] = []
    cut_short = 0
    for shoe in recon.shoes:
        if shoe.kind not in ("shoe", "shuffler") or shoe.decks != decks:
            continue
        seq = _usable(shoe.cards, decks)
        if len(seq) < len(shoe.cards):
            cut_short += 1
        if seq:
            sequences.append(seq)
    if cut_short:
        notes.append(f"{cut_short} shoe(s) cut short at an unidentified or foreign card")
    return sequences, decks, notes


def _usable(codes: bytes | bytearray, decks: int) -> bytes:
    """The cards of *codes* (card bytes) up to the first one that is unknown or one copy too many."""
    if UNKNOWN_CARD not in codes and (not codes or max(Counter(codes).values()) <= decks):
        return bytes(codes)
    seen = [0] * DECK_SIZE
    for i, c in enumerate(codes):
        if c >= DECK_SIZE or seen[c] >= decks:
            return bytes(codes[:i])
        seen[c] += 1
    return bytes(codes)


def common_prefix(sequences: Sequence[Sequence[int]]) -> int:
    """The prefix the position test bins: the shortest shuffle, after leaving out outliers (shorter
    than a quarter of the median) that would shrink it for all the others."""
    lengths = sorted(len(s) for s in sequences)
    median = lengths[len(lengths) // 2]
    return min(n for n in lengths if 4 * n >= median)


def analyse(recon: Reconstruction) -> list[QualitySection]:
    """The applicable analyses for the log's card source(s)."""
    sections: list[QualitySection] = []
    kinds = {s.source_kind for s in recon.sessions if s.source_kind}
    if kinds & {"shoe", "shuffler"}:
        sections.append(_shoes(recon))
    if "csm" in kinds:
        sections.append(_csm(recon))
    return sections


def _shoes(recon: Reconstruction) -> QualitySection:
    sequences, decks, notes = shoe_sequences(recon)
    if not sequences:
        section = QualitySection("shoes / shuffles: none with cards")
        section.results = [not_applicable("card_position_chi_square", "No shoe or shuffle with dealt cards in the log.")]
        return section
    m = common_prefix(sequences)
    kept = [s for s in sequences if len(s) >= m]
    if len(kept) < len(sequences):
        notes.append(f"{len(sequences) - len(kept)} shoe(s)/shuffle(s) with fewer than {m} cards seen left out")
    section = QualitySection(
        f"{len(kept)} shoe(s)/shuffle(s) of {decks} deck(s), first {m} cards of each (input order not logged)", notes=notes
    )
    try:
        section.results = analyse_shuffles([ObservedShuffle(s) for s in kept], decks=decks)
    except ValueError as e:
        section.results = [not_applicable("card_position_chi_square", f"Impossible data: {e}")]
    section.heatmap = _heatmap(kept, decks, m)
    return section


def _heatmap(sequences: Sequence[bytes], decks: int, m: int) -> dict[str, Any]:
    """Standardized residuals (O - E) / sqrt(E) of rank x position-bin counts over the first m cards."""
    bins = max(1, min(POSITION_BINS, m))
    edges = [i * m // bins for i in range(bins + 1)]
    counts = [[0] * bins for _ in range(13)]
    for b in range(bins):
        cards: Counter[int] = Counter()
        for seq in sequences:
            cards.update(seq[edges[b] : edges[b + 1]])
        for card, k in cards.items():
            counts[card >> 2][b] += k
    total_per_rank = 4 * decks / (DECK_SIZE * decks)  # chance a position holds a given rank: 1/13
    cells: list[list[float]] = []
    for r in range(13):
        row = []
        for b in range(bins):
            expected = len(sequences) * (edges[b + 1] - edges[b]) * total_per_rank
            row.append((counts[r][b] - expected) / math.sqrt(expected) if expected > 0 else 0.0)
        cells.append(row)
    return {"rows": list("23456789TJQKA"), "columns": [f"{edges[b] + 1}-{edges[b + 1]}" for b in range(bins)],
            "residuals": cells, "shuffles": len(sequences)}


def csm_stream(recon: Reconstruction, decks: int) -> tuple[list[CsmEvent], int]:
    """The continuous shuffler's dispense/return stream, impossible events dropped (and counted)."""
    inside = [decks] * DECK_SIZE
    out: list[CsmEvent] = []
    dropped = 0
    for kind, c, seq in recon.csm_events:
        if c >= DECK_SIZE:
            continue
        if kind == "dispense":
            if inside[c] <= 0:
                dropped += 1
                continue
            inside[c] -= 1
        else:
            if inside[c] >= decks:
                dropped += 1
                continue
            inside[c] += 1
        out.append(CsmEvent(kind, c, seq))  # type: ignore[arg-type]
    return out, dropped


def _csm(recon: Reconstruction) -> QualitySection:
    decks = next((s.decks for s in recon.sessions if s.source_kind == "csm" and s.decks), 1)
    events, dropped = csm_stream(recon, decks)
    returns = sum(1 for e in events if e.kind == "return")
    section = QualitySection(f"continuous shuffler of {decks} deck(s): {len(events) - returns} dispenses, {returns} returns")
    if dropped:
        section.notes.append(f"{dropped} event(s) impossible for the composition were left out")
    try:
        section.results = analyse_csm(events, decks=decks)
    except ValueError as e:
        section.results = [not_applicable("csm_reentry_lag", f"Impossible data: {e}")]
    section.lag_histogram = _lags(events, decks)
    return section


def _lags(events: list[CsmEvent], decks: int) -> dict[str, Any]:
    """Re-entry lags in units of the expected lag (pool / copies inside), observed vs a uniform pool."""
    inside = [decks] * DECK_SIZE
    pool = decks * DECK_SIZE
    waiting: dict[int, tuple[float, int]] = {}  # value -> (scale, dispense count at return)
    dispenses = 0
    buckets = [0] * (len(LAG_EDGES) + 1)
    for ev in events:
        c = ev.card
        if ev.kind == "return":
            inside[c] += 1
            pool += 1
            if c not in waiting:
                waiting[c] = (pool / inside[c], dispenses)
            continue
        dispenses += 1
        inside[c] -= 1
        pool -= 1
        w = waiting.pop(c, None)
        if w is not None:
            lag = (dispenses - w[1]) / w[0]
            b = 0
            while b < len(LAG_EDGES) and lag > LAG_EDGES[b]:
                b += 1
            buckets[b] += 1
    n = sum(buckets)
    expected: list[float] = []
    prev = 0.0
    for edge in (*LAG_EDGES, math.inf):
        cdf = 1.0 - math.exp(-edge) if edge != math.inf else 1.0
        expected.append(cdf - prev)
        prev = cdf
    labels = [f"<= {e:g}" for e in LAG_EDGES] + [f"> {LAG_EDGES[-1]:g}"]
    return {"labels": labels, "observed": [b / n if n else 0.0 for b in buckets], "expected": expected, "lags": n}
