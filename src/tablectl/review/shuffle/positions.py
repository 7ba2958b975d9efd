"""Card-position chi-square: does each card (or each input position) end up in every output position equally often?

Two tables, chosen by what the log knows:

* **input position x output position** (every shuffle's full input order known, cards distinct):
  the more powerful form - a riffle or shelf shuffle that is not mixed enough keeps cards near where
  they started, which shows as excess counts near the diagonal;
* **card x output position** (input unknown, or a multi-deck shoe): rows are card values, each
  with ``decks`` copies per deck.

Only the first ``m`` output positions common to all shuffles are binned individually; positions
past ``m`` (cards dealt later or never seen) form one "later / unseen" column, so prefix-only
observations (a shoe to the cut card, a hand-forming shuffler's dealt hands) are handled.

Under a uniform shuffle each shuffle's binned table is multivariate hypergeometric (a uniformly
random bijection between the deck's cards grouped by row and its positions grouped by column), so
the sum over ``S`` shuffles has Pearson statistic ~ ``n/(n-1) * chi2((r-1)(c-1))`` for a deck of
``n``. The statistic reported is Pearson's ``X2 * (n-1)/n``; using ``(r-1)(c-1)`` degrees of freedom
without that factor would overstate significance (for 52 cards by about 0.7 standard deviations).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from itertools import chain
from typing import Literal

from tablectl.cards import DECK_SIZE, text
from tablectl.review.shuffle.common import (
    DEFAULT_THRESHOLDS,
    ObservedShuffle,
    QualityResult,
    Thresholds,
    check_cards,
    chi2_sf,
    not_applicable,
)

NAME = "card_position_chi_square"
PositionMode = Literal["auto", "input", "card"]


def _even_bins(count: int, parts: int) -> list[int]:
    """Boundaries splitting ``range(count)`` into ``parts`` contiguous, near-equal bins."""
    return [i * count // parts for i in range(parts + 1)]


def _bin_of(boundaries: list[int]) -> list[int]:
    """Index -> bin number for contiguous bins given by their boundaries."""
    out: list[int] = []
    for b in range(len(boundaries) - 1):
        out.extend([b] * (boundaries[b + 1] - boundaries[b]))
    return out


def position_test(
    shuffles: Sequence[ObservedShuffle],
    *,
    decks: int = 1,
    mode: PositionMode = "auto",
    min_expected: float = 5.0,
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
) -> QualityResult:
    """Chi-square test that output positions are uniform, from ``S`` observed shuffles.

    ``mode="input"`` needs every shuffle's full input order with distinct cards (single deck);
    ``"card"`` uses card values and assumes each shuffled deck is ``decks`` full 52-card decks;
    ``"auto"`` picks ``input`` over the shuffles with a usable input when they are at least half of
    them (the others are skipped and counted in ``detail``), else ``card`` over all. Rows and
    columns are pooled into contiguous bins so every expected count is at least ``min_expected``.
    """
    if not shuffles:
        return not_applicable(NAME, "No shuffles to analyse.")
    with_input = [s for s in shuffles if s.input is not None and len(set(s.input)) == len(s.input)]
    if mode == "input" and len(with_input) < len(shuffles):
        raise ValueError("input mode needs every shuffle's full input order with distinct cards")
    use_input = mode == "input" or (mode == "auto" and 2 * len(with_input) >= len(shuffles))
    skipped = 0
    if use_input:
        skipped = len(shuffles) - len(with_input)
        shuffles = with_input

    if use_input:
        n = len(shuffles[0].input or ())
        if any(len(s.input or ()) != n for s in shuffles):
            raise ValueError("all input orders must have the same length")
        row_items, weight = n, 1
    else:
        n, row_items, weight = DECK_SIZE * decks, DECK_SIZE, decks
    if n < 2:
        return not_applicable(NAME, "Deck too small to test.")

    # Row index (input position, or card value) of each output position, per shuffle.
    rows_seen: list[Sequence[int]] = []
    for s in shuffles:
        if len(s.output) > n:
            raise ValueError(f"output of {len(s.output)} cards is longer than the deck ({n})")
        check_cards(s.output)
        if use_input:
            where = {c: i for i, c in enumerate(s.input or ())}
            try:
                rows = [where[c] for c in s.output]
            except KeyError as e:
                raise ValueError(f"{text(e.args[0])} came out but did not go in") from None
            if len(set(rows)) != len(rows):
                raise ValueError("a card came out twice in one shuffle")
        else:
            rows = s.output  # type: ignore[assignment]
            over = [c for c, k in Counter(rows).items() if k > decks]
            if over:
                raise ValueError(f"{text(over[0])} came out more than {decks} time(s) in one shuffle")
        rows_seen.append(rows)

    S = len(shuffles)
    m = min(len(r) for r in rows_seen)
    tail = n - m
    # Smallest bin width g (rows and columns alike) with every expected count >= min_expected.
    g = 0
    while True:
        g += 1
        r_bins, c_bins = row_items // g, m // g
        if r_bins < 2:
            return not_applicable(
                NAME,
                f"Too few shuffles ({S}) or cards seen ({m}) for a chi-square with expected counts >= {min_expected:g}.",
                S,
            )
        row_b = _even_bins(row_items, r_bins)
        col_b = _even_bins(m, c_bins) if c_bins else [0]
        col_sizes = [col_b[i + 1] - col_b[i] for i in range(c_bins)]
        merged_tail = bool(tail and col_sizes and tail < g)
        if merged_tail:
            col_sizes[-1] += tail  # a thin later/unseen column is folded into the last observed bin
        elif tail:
            col_sizes.append(tail)
        row_sizes = [(row_b[i + 1] - row_b[i]) * weight for i in range(r_bins)]
        if len(col_sizes) >= 2 and S * min(row_sizes) * min(col_sizes) / n >= min_expected:
            break
    row_of = _bin_of(row_b)
    last_col = len(col_sizes) - 1

    # The rows seen at each of the first m positions over all shuffles, counted by column (the
    # positions past m: the last column), then added up by row bin.
    at_position = list(zip(*(rows[:m] for rows in rows_seen)))
    by_col = [chain.from_iterable(at_position[col_b[j] : col_b[j + 1]]) for j in range(c_bins)]
    later = chain.from_iterable(rows[m:] for rows in rows_seen)
    observed = [[0] * len(col_sizes) for _ in range(r_bins)]
    seen_rows: Counter[int] = Counter()
    for j, in_col in [*enumerate(by_col), (last_col, later)]:
        counts = Counter(in_col)
        seen_rows.update(counts)
        for row, k in counts.items():
            observed[row_of[row]][j] += k
    # Cards not seen at all (each shuffle holds every row `weight` times) are in the later/unseen column.
    for row in range(row_items):
        missing = S * weight - seen_rows[row]
        if missing:
            observed[row_of[row]][last_col] += missing

    pearson = 0.0
    worst = (0.0, 0, 0)
    for i, rs in enumerate(row_sizes):
        for j, cs in enumerate(col_sizes):
            expected = S * rs * cs / n
            resid = (observed[i][j] - expected) / math.sqrt(expected)
            pearson += resid * resid
            if abs(resid) > abs(worst[0]):
                worst = (resid, i, j)
    statistic = pearson * (n - 1) / n
    df = (r_bins - 1) * (len(col_sizes) - 1)
    p = chi2_sf(statistic, df)

    resid, wi, wj = worst
    row_label = (
        f"input positions {row_b[wi] + 1}-{row_b[wi + 1]}"
        if use_input
        else f"cards {text(row_b[wi])}..{text(row_b[wi + 1] - 1)}"
    )
    if wj >= c_bins:
        col_label = f"output positions after {m} or unseen"
    else:
        hi = f"{col_b[wj + 1]}" + (" or later/unseen" if merged_tail and wj == c_bins - 1 else "")
        col_label = f"output positions {col_b[wj] + 1}-{hi}"
    table = "input position x output position" if use_input else "card x output position"
    detail = (
        f"{table} chi-square {statistic:.1f} on {df} df (ratio {statistic / df:.2f}, expected 1.00), "
        f"p={p:.3g}, {S} shuffles"
        + (f" ({skipped} without a known input skipped)" if skipped else "")
        + f" in {r_bins}x{len(col_sizes)} bins; largest deviation "
        f"{row_label} -> {col_label} ({resid:+.1f} sd)."
    )
    return QualityResult(NAME, statistic / df, 1.0, statistic, p, thresholds.verdict(p), detail, S)
