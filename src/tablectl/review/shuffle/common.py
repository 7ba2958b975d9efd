"""Shared pieces of the shuffle-quality analyses: inputs, the result type, verdicts, distributions.

Pure Python on purpose (no numpy/scipy): the few distribution functions needed are the chi-square
survival function (through the regularized upper incomplete gamma function, Numerical Recipes'
series / Lentz continued fraction) and the normal upper tail (``math.erfc``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from tablectl.cards import DECK_SIZE

Verdict = Literal["pass", "warn", "fail", "n/a"]


@dataclass(frozen=True)
class Thresholds:
    """p-value cut-offs: ``pass`` if p >= warn_below, ``warn`` if fail_below <= p < warn_below, else ``fail``.

    The defaults (0.01 and 0.001) keep the false alarm rate of one analysis at 1% warn / 0.1% fail
    per review when the shuffler is good; tighten them when many reviews are run and alarms are
    costly, loosen them for a one-off acceptance test.
    """

    warn_below: float = 0.01
    fail_below: float = 0.001

    def __post_init__(self) -> None:
        if not 0.0 < self.fail_below <= self.warn_below < 1.0:
            raise ValueError("need 0 < fail_below <= warn_below < 1")

    def verdict(self, p_value: float | None) -> Verdict:
        """The verdict for a p-value (``n/a`` when there is none)."""
        if p_value is None or math.isnan(p_value):
            return "n/a"
        if p_value < self.fail_below:
            return "fail"
        if p_value < self.warn_below:
            return "warn"
        return "pass"


DEFAULT_THRESHOLDS = Thresholds()


@dataclass(frozen=True)
class QualityResult:
    """One analysis' outcome, small enough to print or serialise.

    ``figure`` is the headline number and ``expected`` its value for a perfect shuffler; ``statistic``
    is the test statistic behind ``p_value``; ``samples`` counts what was analysed (shuffles, or
    returned cards for the re-entry test); ``detail`` is one readable sentence for the report.
    """

    name: str
    figure: float | None
    expected: float | None
    statistic: float | None
    p_value: float | None
    verdict: Verdict
    detail: str
    samples: int = 0

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (plain floats, ints, strings and ``None``)."""
        return asdict(self)


def not_applicable(name: str, detail: str, samples: int = 0) -> QualityResult:
    """A result for an analysis that cannot be run on the data given."""
    return QualityResult(name, None, None, None, None, "n/a", detail, samples)


@dataclass(frozen=True)
class ObservedShuffle:
    """One shuffle as logged: what came out, and (when known) what went in.

    ``output`` is the cards in the order they came out, as far as they were seen: the whole deck, or
    only a prefix (a shoe drawn to the cut card, a hand-forming shuffler's dealt packets).
    ``input`` is the full order the cards went in, top (first to go in / first dealt in the DFH
    machine's sense) first, or ``None`` when unknown. Positions are 0-based indices into these.
    """

    output: tuple[int, ...] | bytes
    input: tuple[int, ...] | bytes | None = None

    def __init__(self, output: Sequence[int], input: Sequence[int] | None = None) -> None:  # noqa: A002
        # card bytes (as review keeps a shoe's cards) stay bytes: a byte a card, not eight
        object.__setattr__(self, "output", output if isinstance(output, bytes) else tuple(output))
        object.__setattr__(self, "input", None if input is None else input if isinstance(input, bytes) else tuple(input))


def with_fed_back_inputs(shuffles: Sequence[ObservedShuffle], deck_size: int) -> list[ObservedShuffle]:
    """Fill unknown inputs with the previous shuffle's output, for shufflers fed back in that order.

    Only valid when the log says the cards go back in exactly the order they came out (a batch
    shuffler reloaded from the discard rack unchanged). A shuffle keeps an unknown input when the
    previous output was not seen in full (``deck_size`` cards).
    """
    out: list[ObservedShuffle] = []
    prev: ObservedShuffle | None = None
    for s in shuffles:
        if s.input is None and prev is not None and len(prev.output) == deck_size:
            s = ObservedShuffle(s.output, prev.output)
        out.append(s)
        prev = s
    return out


@dataclass(frozen=True)
class CsmEvent:
    """One continuous-shuffler event: a card dispensed, or a card returned into the machine.

    ``index`` is the global event index from the log (events are analysed in index order).
    """

    kind: Literal["dispense", "return"]
    card: int
    index: int = 0


def check_card(c: int) -> None:
    """Raise ``ValueError`` unless ``c`` is a card int 0..51."""
    if not (isinstance(c, int) and 0 <= c < DECK_SIZE):
        raise ValueError(f"not a card int 0..51: {c!r}")


_CARD_INTS = frozenset(range(DECK_SIZE))
_INT = frozenset({int})


def check_cards(cards: Sequence[int]) -> None:
    """:func:`check_card` on every card (set operations when they are all plain ints 0..51)."""
    if _INT.issuperset(map(type, cards)) and _CARD_INTS.issuperset(cards):
        return
    for c in cards:
        check_card(c)


# --- distributions -------------------------------------------------------------------------


def normal_sf(z: float) -> float:
    """Upper tail of the standard normal: P(Z >= z)."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def gamma_q(a: float, x: float) -> float:
    """Regularized upper incomplete gamma function Q(a, x) = Gamma(a, x) / Gamma(a)."""
    if a <= 0:
        raise ValueError("a must be > 0")
    if x <= 0:
        return 1.0
    log_prefix = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1.0:
        # Series for P(a, x); Q = 1 - P.
        term = total = 1.0 / a
        ap = a
        for _ in range(100_000):
            ap += 1.0
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_prefix))
    # Continued fraction for Q(a, x) (modified Lentz).
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 100_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return min(1.0, math.exp(log_prefix) * h)


def chi2_sf(x: float, df: float) -> float:
    """Upper tail of the chi-square distribution with ``df`` degrees of freedom: P(X >= x)."""
    if df <= 0:
        raise ValueError("df must be > 0")
    return gamma_q(df / 2.0, x / 2.0)


def poisson_binomial_sf(probs: Sequence[float], k: int) -> float:
    """P(sum of independent Bernoulli(p_i) >= k), exactly, by dynamic programming on counts < k."""
    if k <= 0:
        return 1.0
    below = [1.0] + [0.0] * (k - 1)  # below[j] = P(sum == j) for j < k
    for p in probs:
        q = 1.0 - p
        for j in range(k - 1, 0, -1):
            below[j] = below[j] * q + below[j - 1] * p
        below[0] *= q
    return max(0.0, 1.0 - math.fsum(below))


def solve_quadratic_form(matrix: Sequence[Sequence[float]], vector: Sequence[float]) -> float:
    """``v^T M^{-1} v`` for a small symmetric positive-definite ``M`` (Gaussian elimination)."""
    n = len(vector)
    a = [list(map(float, row)) + [float(v)] for row, v in zip(matrix, vector, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-12:
            raise ValueError("singular covariance")
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col:
                f = a[r][col] / a[col][col]
                if f:
                    for cc in range(col, n + 1):
                        a[r][cc] -= f * a[col][cc]
    solution = [a[i][n] / a[i][i] for i in range(n)]
    return math.fsum(v * s for v, s in zip(vector, solution, strict=True))
