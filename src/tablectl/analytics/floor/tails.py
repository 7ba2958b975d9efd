"""Tail probabilities of a group's result from the exact distribution of each wager (pure).

A group (a table, a dealer, a day, a seat) made ``n`` initial wagers of each kind -- a wager of a
game under its rules, at one stake -- and the bank's result on each is one draw from that wager's
exact distribution (``expected.WagerMath.outcomes``: the result per unit of the initial wager,
the Play, War or Raise a decision adds included, and its probability). The group's result is the
sum. Its tail is taken, with the wagers independent, by

* a lattice convolution, each kind's distribution raised to its count by FFT: exact when the
  sum's support is small (at most :data:`LATTICE_MAX` points, and :data:`BUDGET` over the
  kinds: a seat's few hundred bets at a few stakes); for a larger one on a coarser lattice, each
  result split between the two lattice points about it so that its mean is kept, as long as that
  adds at most :data:`MAX_ADDED` of the variance (a quarter of the span squared a wager); else
* the Lugannani-Rice saddlepoint approximation from the sum's cumulant generating function
  (tables, dealers, days: thousands of wagers at many stakes, where the long shots' lumps are
  smoothed by the stakes and the count), which also gives the tails the convolution's rounding
  leaves no figure for (below :data:`EXACT_FLOOR`: far beyond any limit).

The wagers of a round are not independent (a seat's Tie pays on the tie that sends its primary
wager to war; the seats of a round share the dealer's cards): the exact variance of the group's
result (the rounds' variances with every covariance, ``variance``) is kept by reading the
independent sum's tail at the point as many of *its* standard deviations from the mean as the
observed result is of the exact ones (``z``): the mean, the exact variance and the skew of the
long shots are kept, the finer shape of the dependence is not (the simulation tests check the
rate of false alarms; the planted floor checks it on dealt rounds).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist

import numpy as np

#: the most lattice points a convolution takes; a larger support is taken on a coarser lattice
LATTICE_MAX = 1 << 20
#: the most lattice points times kinds (wager and stake) a group's convolution takes
BUDGET = 1 << 21
#: the most share of the sum's variance a coarser lattice may add; beyond it, the saddlepoint
MAX_ADDED = 0.02
#: an exact tail below this is FFT rounding, not a probability: the saddlepoint's value is given
EXACT_FLOOR = 1e-9
_NORMAL = NormalDist()


@dataclass(frozen=True)
class Kind:
    """``count`` wagers at ``stake`` of one wager whose result per unit is ``outcomes`` ((result,
    probability) pairs, probabilities summing to 1)."""

    count: int
    stake: float
    outcomes: tuple[tuple[float, float], ...]


def moments(kinds: Sequence[Kind]) -> tuple[float, float]:
    """(mean, variance) of the sum of every wager of ``kinds``, the wagers independent."""
    mean = var = 0.0
    for k in kinds:
        m = sum(p * v for v, p in k.outcomes)
        s = sum(p * v * v for v, p in k.outcomes)
        mean += k.count * k.stake * m
        var += k.count * k.stake * k.stake * max(s - m * m, 0.0)
    return mean, var


def lower_tail(kinds: Sequence[Kind], z: float) -> float:
    """P(the sum <= its mean + ``z`` of its standard deviations), the wagers independent: the
    p-value of a bank that won ``z`` exact standard deviations below what the math expects."""
    return tails(kinds, [z], lower=True)[0]


def upper_tail(kinds: Sequence[Kind], z: float) -> float:
    """P(the sum >= its mean + ``z`` of its standard deviations): a bank that won too much."""
    return tails(kinds, [z], lower=False)[0]


def tails(kinds: Sequence[Kind], zs: Sequence[float], lower: bool = True) -> list[float]:
    """:func:`lower_tail` (or :func:`upper_tail`) of the one group ``kinds`` at each of ``zs``."""
    for z in zs:
        if not math.isfinite(z):
            raise ValueError(f"z {z!r}: not a finite number")
    kinds = [k for k in kinds if k.count > 0 and len(k.outcomes) > 1]
    mean, var = moments(kinds)
    if var <= 0:
        return [_NORMAL.cdf(z) if lower else _NORMAL.cdf(-z) for z in zs]
    lattice = _lattice_pmf(kinds)
    out = []
    for z in zs:
        target = mean + z * math.sqrt(var)
        exact = None if lattice is None else _lattice_tail(*lattice, target, lower)
        out.append(exact if exact is not None and exact >= EXACT_FLOOR else saddlepoint_tail(kinds, target, lower))
    return out


def _lattice(kinds: Sequence[Kind]) -> tuple[float, int] | None:
    """(span, points) of the lattice the sum is taken on: the results' common span, made coarser
    (a whole multiple) until the sum's support is at most :data:`LATTICE_MAX` points and the
    convolution's work (points x kinds) at most :data:`BUDGET`; None when the results have no
    common span or the coarsening would add more than :data:`MAX_ADDED` of the sum's variance."""
    span = Fraction(0)
    for k in kinds:
        low = min(v for v, _ in k.outcomes)
        for v, _ in k.outcomes:
            step = Fraction(k.stake * (v - low)).limit_denominator(1000)
            if abs(float(step) - k.stake * (v - low)) > 1e-9 * max(1.0, abs(k.stake * v)):
                return None
            span = _gcd(span, step)
    if span == 0:
        return None
    cap = min(LATTICE_MAX, BUDGET // len(kinds))
    ranges = [k.stake * (max(v for v, _ in k.outcomes) - min(v for v, _ in k.outcomes)) for k in kinds]
    coarse = 1
    while True:
        points = 1 + sum(k.count * math.ceil(r / float(span * coarse) - 1e-9) for k, r in zip(kinds, ranges, strict=True))
        if points <= cap:
            break
        coarse = max(coarse + 1, math.ceil(coarse * points / cap))
    step = float(span * coarse)
    if coarse > 1 and sum(k.count for k in kinds) * step * step / 4 > MAX_ADDED * moments(kinds)[1]:
        return None
    return step, points


def _gcd(a: Fraction, b: Fraction) -> Fraction:
    if a == 0:
        return b
    if b == 0:
        return a
    den = a.denominator * b.denominator // math.gcd(a.denominator, b.denominator)
    return Fraction(math.gcd(int(a * den), int(b * den)), den)


def _lattice_pmf(kinds: Sequence[Kind]) -> tuple[float, float, np.ndarray, np.ndarray] | None:
    """(lowest sum, span, P(sum <= each lattice point), P(sum >= each)) by convolution (None: the
    results have no common span)."""
    found = _lattice(kinds)
    if found is None:
        return None
    span, points = found
    size = 1 << max(1, (points - 1).bit_length())
    spectrum = np.ones(size // 2 + 1, dtype=complex)
    base = 0.0
    for k in kinds:
        low = min(v for v, _ in k.outcomes)
        base += k.count * k.stake * low
        pmf = np.zeros(size)
        for v, p in k.outcomes:  # on a coarsened lattice: split between the two points about it, keeping the mean
            at = k.stake * (v - low) / span
            near = round(at)
            if abs(at - near) < 1e-9:
                pmf[near] += p
            else:
                below = math.floor(at)
                pmf[below] += p * (below + 1 - at)
                pmf[below + 1] += p * (at - below)
        spectrum *= np.fft.rfft(pmf) ** k.count
    pmf = np.clip(np.fft.irfft(spectrum, size)[:points], 0.0, None)
    return base, span, np.cumsum(pmf), np.cumsum(pmf[::-1])[::-1]


def _lattice_tail(base: float, span: float, below: np.ndarray, above: np.ndarray, target: float, lower: bool) -> float:
    """P(sum <= target) (``lower``) or P(sum >= target) on the lattice ``base + span * k``
    (``below[k]``: P(point <= k), ``above[k]``: P(point >= k))."""
    at = (target - base) / span
    tol = 1e-7
    if lower:
        last = math.floor(at + tol)
        return float(min(1.0, below[min(last, len(below) - 1)])) if last >= 0 else 0.0
    first = math.ceil(at - tol)
    return float(min(1.0, above[max(first, 0)])) if first < len(above) else 0.0


def saddlepoint_tail(kinds: Sequence[Kind], target: float, lower: bool) -> float:
    """The Lugannani-Rice approximation of P(sum <= target) (``lower``) or P(sum >= target),
    the wagers independent."""
    mean, var = moments(kinds)
    sd = math.sqrt(var)
    counts = np.array([k.count for k in kinds], dtype=float)
    width = max(len(k.outcomes) for k in kinds)
    x = np.zeros((len(kinds), width))
    logp = np.full((len(kinds), width), -np.inf)
    for i, k in enumerate(kinds):
        m = sum(p * v for v, p in k.outcomes)
        for j, (v, p) in enumerate(k.outcomes):
            x[i, j] = k.stake * (v - m) / sd
            if p > 0:
                logp[i, j] = math.log(p)
    z = (target - mean) / sd
    lowest = float((counts * np.where(np.isfinite(logp), x, np.inf).min(axis=1)).sum())
    highest = float((counts * np.where(np.isfinite(logp), x, -np.inf).max(axis=1)).sum())
    if z <= lowest + 1e-12:
        return 0.0 if lower else 1.0
    if z >= highest - 1e-12:
        return 1.0 if lower else 0.0

    def cgf(t: float) -> tuple[float, float, float]:
        a = logp + t * x
        top = a.max(axis=1, keepdims=True)
        w = np.exp(a - top)
        total = w.sum(axis=1)
        m1 = (w * x).sum(axis=1) / total
        m2 = (w * x * x).sum(axis=1) / total
        k0 = float((counts * (np.log(total) + top[:, 0])).sum())
        return k0, float((counts * m1).sum()), float((counts * (m2 - m1 * m1)).sum())

    t, lo, hi = 0.0, -math.inf, math.inf
    for _ in range(200):
        _, k1, k2 = cgf(t)
        if k1 < z:
            lo = t
        else:
            hi = t
        step = (z - k1) / k2 if k2 > 0 else math.copysign(1.0, z - k1)
        nxt = t + step
        if not lo < nxt < hi:
            nxt = (lo + hi) / 2 if math.isfinite(lo) and math.isfinite(hi) else t + 2 * step
        if abs(nxt - t) < 1e-12 * max(1.0, abs(t)):
            t = nxt
            break
        t = nxt
    k0, _, k2 = cgf(t)
    w = math.copysign(math.sqrt(max(2 * (t * z - k0), 0.0)), t)
    if abs(t) < 1e-6 or k2 <= 0 or abs(w) < 1e-6:
        return _NORMAL.cdf(z) if lower else _NORMAL.cdf(-z)  # at the mean: the normal's
    u = t * math.sqrt(k2)
    correction = _NORMAL.pdf(w) * (1 / w - 1 / u)
    p = _NORMAL.cdf(w) + correction if lower else _NORMAL.cdf(-w) - correction
    return min(max(p, 0.0), 1.0)


__all__ = ["BUDGET", "EXACT_FLOOR", "LATTICE_MAX", "MAX_ADDED", "Kind", "lower_tail", "moments", "saddlepoint_tail", "tails", "upper_tail"]
