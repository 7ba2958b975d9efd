"""Whether a seat's decisions follow hidden information (pure statistics on plain rows).

Each judged decision of a seat is a :class:`DecisionRow`: the options, the choice, each option's
exact value from the seat's own information (``own``) and from each hidden-information hypothesis
(``hidden``: ``"hole:K"`` -- the dealer's K-th dealt card seen; ``"edge"`` -- every dealer card read
high or low; ``"team:J"`` -- seat J's cards seen), values in units of the initial main wager.

**The models.** A player chooses option o with probability proportional to exp(V(o) / T): the
honest model takes V from his own information, the hypothesis from the hidden one, with the same
kind of error (a temperature T). The statistic of a hypothesis after n decisions is

    LLR_n = sum_i log p_hidden(choice_i; T_i) - max_T sum_i log p_own(choice_i; T)

where T_i is the temperature that fits decisions 1..i-1 best under the hypothesis (decided before
decision i is seen; :data:`FIRST_TEMPERATURE` for the first) and the honest temperature is the
one that fits all n decisions best (on the grid :data:`TEMPERATURES`): the honest side always gets
its most favourable fit -- a sloppy honest player a high T, which explains his errors.

**Part-time cheats.** ``alternative="both"`` (the default) takes the mean of that hypothesis's
likelihood and a part-time one's (the hidden information used on a fitted share of the decisions,
``detection.mixture``), both fitted on earlier decisions only: the p-value below holds
for the mean as for either.

**Why an honest seat drifts down whatever its error model.** The value from the own information is
the average of the value from the hidden one over the cards not seen, and an honest seat's choice
does not depend on those cards; log p(choice) is concave in the values (log of a softmax), so by
Jensen E[log p_hidden(choice; T)] <= log p_own(choice; T) for every T: each decision adds at most
zero on average, for any honest player, sloppy or perfect. A hole-carder's decisions add where
his choice is the hidden best and not the own best, and those are the evidence.

**The p-value** is sequential and valid however often the seat is looked at. For an honest softmax
player of any temperature T0 the honest maximum is at least the likelihood at T0, so exp(LLR_n)
is at most a likelihood ratio with a predictable numerator -- a martingale of mean 1 under T0
(universal inference, Wasserman, Ramdas and Balakrishnan 2020) -- and by Ville's inequality it
ever reaches 1/p with chance at most p: ``p = min(1, exp(-max_n LLR_n))``. For other honest
players (other error models) it rests on the downward drift above; the false-alarm rates measured
over thousands of simulated honest sessions (``bench/bench_detection.py``, docs/surveillance.md)
are its check. Flags across every seat and hypothesis tested are then controlled by Holm
(``tablectl.detection.multiple``).

The bank (a DP or player-dealer) is judged apart by :func:`bank_check`: a z of its results
against the exact mean and variance of its position.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from tablectl.detection.mixture import SHARES, predictable_mixture
from tablectl.detection.multiple import METHODS

ALPHA = 0.01
#: the hypothesis's temperature at a seat's first decision (nothing to fit it on yet)
FIRST_TEMPERATURE = 0.15
#: the models' temperatures (initial wagers), geometric, and the first; each fit is the likeliest
TEMPERATURES: tuple[float, ...] = tuple(sorted({*(float(t) for t in np.geomspace(0.02, 4.0, 24)), FIRST_TEMPERATURE}))
#: the alternatives to honest play: the hidden information used on every decision, on a share of
#: them, or both (the mean of their likelihoods)
ALTERNATIVES = ("pure", "mixture", "both")
_ABSENT = -1e6  # the value of an option a row does not have (padding; probability 0)


class DetectionError(ValueError):
    """Rows the test cannot take (a choice not among the options, values not one per option)."""


@dataclass(frozen=True, slots=True)
class DecisionRow:
    """One judged decision of one seat: options, choice, each option's value from the seat's own
    information and under each hidden-information hypothesis (one value per option, in order)."""

    round: int
    seat: int
    options: tuple[str, ...]
    choice: str
    own: tuple[float, ...]
    hidden: Mapping[str, tuple[float, ...]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Evidence:
    """A decision only the hidden information explains: the choice is the best knowing it, not
    the best from the seat's own cards; ``cost``: what it gives up from its own cards (wagers)."""

    round: int
    seat: int
    choice: str
    own_best: str
    hidden_best: str
    cost: float


@dataclass(frozen=True, slots=True)
class SeatTest:
    """One seat tested for one hypothesis: decisions the hypothesis tells apart from the honest
    model, the final LLR, the fitted temperature, the sequential p-value, the evidence, and
    whether the screening flagged it (set by :func:`screen`), and the share of the decisions the
    part-time alternative puts down to the hidden information (None: that alternative not tested)."""

    seat: int
    hypothesis: str
    decisions: int
    llr: float
    temperature: float
    p_value: float
    evidence: tuple[Evidence, ...]
    flagged: bool = False
    share: float | None = None  # the share of decisions the part-time alternative fits to all of them


def _best(options: Sequence[str], values: Sequence[float]) -> str:
    top = max(values)
    return next(o for o, v in zip(options, values) if v == top)


def _validate(row: DecisionRow, hypothesis: str) -> None:
    where = f"round {row.round} seat {row.seat}"
    if row.choice not in row.options:
        raise DetectionError(f"{where}: choice {row.choice!r} is not one of {list(row.options)}")
    for name, values in (("own", row.own), (hypothesis, row.hidden.get(hypothesis, row.own))):
        if len(values) != len(row.options):
            raise DetectionError(f"{where}: {len(values)} {name} values for {len(row.options)} options")
        if not all(math.isfinite(v) for v in values):
            raise DetectionError(f"{where}: a {name} value is not a finite number: {list(values)}")


def _matrices(rows: Sequence[DecisionRow], hypothesis: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    width = max((len(r.options) for r in rows), default=1)
    own = np.full((len(rows), width), _ABSENT)
    hid = np.full((len(rows), width), _ABSENT)
    choice = np.zeros(len(rows), dtype=np.int64)
    for i, r in enumerate(rows):
        k = len(r.options)
        own[i, :k] = r.own
        hid[i, :k] = r.hidden[hypothesis]
        choice[i] = r.options.index(r.choice)
    return own, hid, choice


def log_choice(values: np.ndarray, choice: np.ndarray, temperatures: Sequence[float] = TEMPERATURES) -> np.ndarray:
    """log P(choice) under the softmax of ``values`` (rows x options) at each temperature:
    an array rows x temperatures."""
    t = np.asarray(temperatures)[None, None, :]
    z = values[:, :, None] / t
    top = z.max(axis=1, keepdims=True)
    lse = top[:, 0, :] + np.log(np.exp(z - top).sum(axis=1))
    return z[np.arange(len(choice)), choice, :] - lse


def llr_path(own: np.ndarray, hidden: np.ndarray, choice: np.ndarray,
             temperatures: Sequence[float] = TEMPERATURES, alternative: str = "both") -> tuple[np.ndarray, np.ndarray]:
    """The statistic after each decision and the honest temperature fitted so far (its index),
    from value matrices (rows x options, absent options at a very low value) and the choices'
    column indices. Each decision's probability under the hypothesis is taken at the temperature
    (and for the part-time alternative the share) that fits the decisions *before* it best under
    the hypothesis (the first at :data:`FIRST_TEMPERATURE`); the honest likelihood at the
    temperature that fits *all* the decisions so far best -- the most favourable to honesty (see
    the module doc). ``alternative``: ``pure`` (the hidden information on every decision),
    ``mixture`` (on a share of them, ``detection.mixture``) or ``both`` (the mean of the
    two likelihoods: never below the better one's less log 2, and as valid as either)."""
    return _paths(own, hidden, choice, temperatures, alternative)[:2]


def _paths(own: np.ndarray, hidden: np.ndarray, choice: np.ndarray, temperatures: Sequence[float],
           alternative: str) -> tuple[np.ndarray, np.ndarray, float | None]:
    """``llr_path``'s two arrays and the share the mixture fits to all the decisions (None: pure)."""
    if alternative not in ALTERNATIVES:
        raise DetectionError(f"alternative {alternative!r}: expected one of {', '.join(ALTERNATIVES)}")
    honest_log = log_choice(own, choice, temperatures)
    honest = np.cumsum(honest_log, axis=0)
    alt = log_choice(hidden, choice, temperatures)
    start = int(np.argmin(np.abs(np.log(np.asarray(temperatures) / FIRST_TEMPERATURE))))
    numerator = np.zeros(len(choice))
    share = None
    if alternative != "mixture":
        before = np.r_[start, np.cumsum(alt, axis=0)[:-1].argmax(axis=1)] if len(choice) else np.zeros(0, dtype=np.int64)
        numerator = np.cumsum(alt[np.arange(len(choice)), before])
    if alternative != "pure":
        mixed, s, _ = predictable_mixture(honest_log, alt, start)
        share = SHARES[s]
        mixed = np.cumsum(mixed)
        numerator = mixed if alternative == "mixture" else np.logaddexp(numerator, mixed) - math.log(2)
    return numerator - honest.max(axis=1), honest.argmax(axis=1), share


def p_value(path: np.ndarray) -> float:
    """The sequential p-value of an LLR path: min(1, exp(-max LLR)) (Ville's inequality)."""
    if len(path) == 0:
        return 1.0
    return float(min(1.0, math.exp(-float(np.max(path)))))


def evidence(rows: Iterable[DecisionRow], hypothesis: str) -> tuple[Evidence, ...]:
    """The decisions only ``hypothesis`` explains (choice = its best, not the own-cards best)."""
    out = []
    for r in rows:
        values = r.hidden.get(hypothesis)
        if values is None:
            continue
        own_best, hidden_best = _best(r.options, r.own), _best(r.options, values)
        if r.choice == hidden_best != own_best:
            cost = max(r.own) - r.own[r.options.index(r.choice)]
            out.append(Evidence(r.round, r.seat, r.choice, own_best, hidden_best, cost))
    return tuple(out)


def seat_test(rows: Sequence[DecisionRow], hypothesis: str, alternative: str = "both") -> SeatTest:
    """One seat's decisions (``rows``, in the order played) tested for ``hypothesis`` (rows
    without it are left out; ``decisions`` counts those it values unlike the own information)
    against ``alternative`` (see :func:`llr_path`)."""
    seats = {r.seat for r in rows}
    if len(seats) > 1:
        raise DetectionError(f"seat_test: rows of seats {sorted(seats)}; expected one seat's")
    used = [r for r in rows if hypothesis in r.hidden and len(r.options) > 1]
    for r in used:
        _validate(r, hypothesis)
    seat = rows[0].seat if rows else 0
    telling = sum(tuple(r.hidden[hypothesis]) != tuple(r.own) for r in used)
    if alternative not in ALTERNATIVES:
        raise DetectionError(f"alternative {alternative!r}: expected one of {', '.join(ALTERNATIVES)}")
    if not telling:
        return SeatTest(seat, hypothesis, 0, 0.0, TEMPERATURES[0], 1.0, ())
    path, fit, share = _paths(*_matrices(used, hypothesis), TEMPERATURES, alternative)
    return SeatTest(seat, hypothesis, telling, float(path[-1]), TEMPERATURES[int(fit[-1])], p_value(path),
                    evidence(used, hypothesis), share=share)


def screen(rows: Iterable[DecisionRow], alpha: float = ALPHA, method: str = "holm", alternative: str = "both") -> list[SeatTest]:
    """Every seat of ``rows`` tested for every hypothesis its rows carry, flagged where
    ``method`` (``holm``: family-wise; ``bh``: false-discovery rate) rejects at ``alpha`` across
    all the tests; seats in order, hypotheses sorted. ``alternative``: what a cheat is taken to
    do (:func:`llr_path`; ``both``, the default, catches full- and part-time cheats in one test)."""
    if method not in METHODS:
        raise DetectionError(f"method {method!r}: expected one of {', '.join(METHODS)}")
    by_seat: dict[int, list[DecisionRow]] = {}
    for r in rows:
        by_seat.setdefault(r.seat, []).append(r)
    tests = [seat_test(seat_rows, h, alternative) for seat, seat_rows in sorted(by_seat.items())
             for h in sorted({h for r in seat_rows for h in r.hidden})]
    return flag(tests, alpha, method)


def flag(tests: Sequence[SeatTest], alpha: float = ALPHA, method: str = "holm") -> list[SeatTest]:
    """``tests`` (already computed, of any number of seats or seat sessions) flagged where
    ``method`` rejects at ``alpha`` across all of them: one multiple-testing pass, in order."""
    if method not in METHODS:
        raise DetectionError(f"method {method!r}: expected one of {', '.join(METHODS)}")
    flags = METHODS[method]([t.p_value for t in tests], alpha) if tests else []
    return [SeatTest(t.seat, t.hypothesis, t.decisions, t.llr, t.temperature, t.p_value, t.evidence, f, t.share)
            for t, f in zip(tests, flags)]


@dataclass(frozen=True, slots=True)
class BankCheck:
    """A bank position's results against its exact math: rounds, the total, the expected total,
    z and the one-sided p-value of a result at least this good for the bank."""

    rounds: int
    total: float
    expected: float
    z: float
    p_value: float


def bank_check(results: Sequence[float], mean: float | Sequence[float], variance: float | Sequence[float]) -> BankCheck:
    """The bank's per-round results (its net, in any unit) against the exact ``mean`` and
    ``variance`` of each round of its position in that unit (one figure for every round, or one
    per round: ``analytics.bank.round_moments``)."""
    n = len(results)
    means = [float(mean)] * n if isinstance(mean, (int, float)) else [float(m) for m in mean]
    variances = [float(variance)] * n if isinstance(variance, (int, float)) else [float(v) for v in variance]
    if len(means) != n or len(variances) != n:
        raise DetectionError(f"bank_check: {n} results, {len(means)} means, {len(variances)} variances: expected one each per round")
    for i, (m, v) in enumerate(zip(means, variances)):
        if not (math.isfinite(m) and math.isfinite(v) and v > 0):
            raise DetectionError(f"bank_check: round #{i}: mean {m!r} and variance {v!r}: expected a finite mean and variance above 0")
    total = float(sum(results))
    if n == 0:
        return BankCheck(0, 0.0, 0.0, 0.0, 1.0)
    expected = sum(means)
    z = (total - expected) / math.sqrt(sum(variances))
    return BankCheck(n, total, expected, z, 0.5 * math.erfc(z / math.sqrt(2)))


__all__ = ["ALPHA", "ALTERNATIVES", "FIRST_TEMPERATURE", "TEMPERATURES", "BankCheck", "DecisionRow", "DetectionError", "Evidence", "SeatTest", "bank_check",
           "evidence", "flag", "llr_path", "log_choice", "p_value", "screen", "seat_test"]
