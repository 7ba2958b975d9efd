"""Re-entry lag for continuous shufflers: how soon does a returned card come out again?

**Null model.** A uniform CSM dispenses each card uniformly from the ``K`` cards inside. A returned
card then comes out at each later dispense with probability ``1/K`` - its lag (dispenses until it
comes out again, counting that one) is roughly geometric with mean ``K``. With ``N`` decks the
specific copy cannot be told from the log, so the lag is measured to the next dispense of the same
card *value*, whose chance at each dispense is ``copies of that value inside / K``. Both ``K`` and
the copies inside are tracked exactly from the event stream (the machine is assumed to hold
``decks`` full decks at the start, less ``outside_at_start``).

**Subjects.** Each return starts a subject, unless an earlier return of the same value is still
waiting for its next dispense (then that one continues; one subject per value at a time).

**Test.** Lags are bucketed in units of the subject's expected lag ``s = K / copies`` at the time
of return (by default ``<= s/8, s/4, s/2, s, 2s`` and beyond). For every bucket the observed count
of re-dispenses ``O`` is compared with its compensator ``E`` - the sum over dispenses of the chance,
under the null, that the dispensed card ends a subject whose lag is then in the bucket. ``O - E`` is
a martingale; its covariance ``V`` is accumulated exactly (each dispense is one multinomial draw
over the buckets), so ``(O - E)^T V^-1 (O - E)`` is chi-square with one degree of freedom per
bucket. Cards still out when the log ends are censored naturally (they add to ``E`` only).

**Figure.** The share of returns re-dispensed within a quarter of the expected lag, against its
expectation (about 22% for a geometric lag), with a two-sided z-test. The p-value is the
Bonferroni combination ``min(1, 2 * min(p_chi2, p_z))``. A carousel that puts returned cards near
the exit drives the early share towards 100%; one that puts them far from the exit drives it to 0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from tablectl.cards import DECK_SIZE, text
from tablectl.review.shuffle.common import (
    DEFAULT_THRESHOLDS,
    CsmEvent,
    QualityResult,
    Thresholds,
    check_card,
    chi2_sf,
    normal_sf,
    not_applicable,
    solve_quadratic_form,
)

NAME = "csm_reentry_lag"
DEFAULT_EDGES = (0.125, 0.25, 0.5, 1.0, 2.0)


def _bucket(lag: int, scale: float, edges: Sequence[float]) -> int:
    x = lag / scale
    for i, e in enumerate(edges):
        if x <= e:
            return i
    return len(edges)


def reentry_test(
    events: Sequence[CsmEvent],
    *,
    decks: int,
    outside_at_start: Sequence[int] = (),
    edges: Sequence[float] = DEFAULT_EDGES,
    early: float = 0.25,
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
) -> QualityResult:
    """Test a CSM's dispense/return stream against a uniform pool.

    ``events`` are analysed in ``index`` order. ``decks`` is the number of decks in the game;
    ``outside_at_start`` lists cards already out of the machine when the stream starts (on the table
    or discarded). ``edges`` are the lag-bucket upper edges in units of the expected lag and must
    include ``early``, the cut-off of the early-share figure. Raises ``ValueError`` when the stream
    is impossible (a card dispensed with no copy inside, or more copies than the decks hold).
    """
    if decks < 1:
        raise ValueError("decks must be >= 1")
    edges = tuple(sorted(edges))
    if early not in edges:
        raise ValueError("early must be one of the bucket edges")
    n_early = edges.index(early) + 1  # buckets 0..n_early-1 are "early"
    nb = len(edges) + 1
    inside = [decks] * DECK_SIZE
    for c in outside_at_start:
        check_card(c)
        inside[c] -= 1
        if inside[c] < 0:
            raise ValueError(f"more copies of {text(c)} outside than {decks} deck(s) hold")
    pool = sum(inside)

    pending: dict[int, tuple[float, int]] = {}  # value -> (expected-lag scale, dispenses so far)
    observed = [0] * nb
    expected = [0.0] * nb
    cov = [[0.0] * nb for _ in range(nb)]
    subjects = 0
    for ev in sorted(events, key=lambda e: e.index):
        c = ev.card
        check_card(c)
        if ev.kind == "return":
            inside[c] += 1
            pool += 1
            if inside[c] > decks:
                raise ValueError(f"event {ev.index}: {text(c)} returned but all {decks} copies are already inside")
            if c not in pending:
                pending[c] = (pool / inside[c], 0)
                subjects += 1
        elif ev.kind == "dispense":
            if inside[c] <= 0:
                raise ValueError(f"event {ev.index}: {text(c)} dispensed but no copy is inside")
            # Chance, under the null, that this dispense ends each waiting subject, by bucket.
            h = [0.0] * nb
            for v, (scale, lag) in pending.items():
                h[_bucket(lag + 1, scale, edges)] += inside[v] / pool
            for i in range(nb):
                if h[i]:
                    expected[i] += h[i]
                    for j in range(nb):
                        cov[i][j] += (h[i] if i == j else 0.0) - h[i] * h[j]
            if c in pending:
                scale, lag = pending.pop(c)
                observed[_bucket(lag + 1, scale, edges)] += 1
            for v, (scale, lag) in pending.items():
                pending[v] = (scale, lag + 1)
            inside[c] -= 1
            pool -= 1
        else:
            raise ValueError(f"event {ev.index}: unknown kind {ev.kind!r}")

    if subjects == 0:
        return not_applicable(NAME, "No returned cards: the re-entry test needs a continuous shuffler's returns.")
    keep = [i for i in range(nb) if cov[i][i] > 1e-9]
    if not keep:
        return not_applicable(NAME, "Returned cards were never at risk of being dispensed again.", subjects)
    diff = [observed[i] - expected[i] for i in keep]
    statistic = solve_quadratic_form([[cov[i][j] for j in keep] for i in keep], diff)
    df = len(keep)
    p_chi = chi2_sf(statistic, df)

    o_early = sum(observed[:n_early])
    e_early = math.fsum(expected[:n_early])
    v_early = math.fsum(cov[i][j] for i in range(n_early) for j in range(n_early))
    z = (o_early - e_early) / math.sqrt(v_early) if v_early > 0 else 0.0
    p_z = 2.0 * normal_sf(abs(z))
    p = min(1.0, 2.0 * min(p_chi, p_z))
    share, share_expected = o_early / subjects, e_early / subjects
    detail = (
        f"{share:.1%} of {subjects} returned cards came out again within {early:g}x the expected lag "
        f"(expected {share_expected:.1%}, z={z:+.1f}); lag-bucket chi-square {statistic:.1f} on {df} df; "
        f"combined p={p:.3g}."
    )
    return QualityResult(NAME, share, share_expected, statistic, p, thresholds.verdict(p), detail, subjects)
