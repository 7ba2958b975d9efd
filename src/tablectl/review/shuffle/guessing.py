"""Guessing with feedback (Diaconis, Fulman and Holmes 2013): can someone who knew the input order call the next card?

The guesser knows each shuffle's input order, names the next card out, is shown it, and names the
next. Whatever the strategy, if the shuffle is uniform the card named at a step with ``k`` cards
still in the deck is right with probability ``copies left / k`` (``1/k`` for a single deck),
independently of everything before; over a full 52-card deck the expected count is
``H_52 = 1 + 1/2 + ... + 1/52 = 4.54`` with variance ``sum (1/i)(1 - 1/i) = 2.92``. DFH showed that
a 10-shelf casino shuffler whose maker's tests had passed let a guesser average about 9.5.

**Strategy.** Shufflers that keep some of the input order (riffles: rising sequences; shelf
shufflers: each shelf is a run that rises then falls in input order) make the next card likely to
be a neighbour, in the input order, of the card just seen. DFH's rule for the shelf shuffler is to
guess the nearest unseen card beyond the last card shown in the direction the run is going - up
until a descent is seen, down until an ascent - starting upwards from the top of the input order.
Here that rule is the guesser's prior, and it is made robust by learning: at each step the guesser
considers four candidates - the nearest unseen card *after* the last card seen in the input order,
the nearest *before* it, the first and the last unseen card - and takes the one that has been right
most often so far in the same context (the kind of step just made: to the adjacent unseen card
above or below, a jump up or down, or the start of a deck; and how many cards are left, on a log2
scale). Counts start with 3 pseudo-hits for DFH's choice and are kept across the shuffles
analysed, so the guesser settles on "continue upwards" after a jump down for riffles and on DFH's
rule for shelf shufflers. It uses only the past, so the null distribution holds exactly.

The statistic is the total number of correct guesses ``C``; with ``E = sum p_i`` and
``V = sum p_i (1 - p_i)`` the one-sided p-value is the Poisson-binomial tail ``P(X >= C)``, computed
exactly (for a single deck ``p_i = 1/k`` is fixed and this is the exact null distribution; with
several decks ``p_i`` depends on the past and it is the martingale approximation), or by the normal
approximation with continuity correction when the exact sum would be too long. ``figure`` is the
correct guesses per deck, ``statistic`` the z-score ``(C - E) / sqrt(V)``. Only too *many*
correct guesses count against the shuffler.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from tablectl.cards import DECK_SIZE, text
from tablectl.review.shuffle.common import (
    DEFAULT_THRESHOLDS,
    ObservedShuffle,
    QualityResult,
    Thresholds,
    check_card,
    normal_sf,
    not_applicable,
    poisson_binomial_sf,
    with_fed_back_inputs,
)

NAME = "dfh_guessing_with_feedback"
ACTIONS = ("next_after", "next_before", "first_unseen", "last_unseen")
_ACTION_TEXT = {
    "next_after": "the next unseen card after the last one in input order",
    "next_before": "the nearest unseen card before the last one in input order",
    "first_unseen": "the first unseen card in input order",
    "last_unseen": "the last unseen card in input order",
}
_PRIOR = {
    "start": "next_after",
    "adjacent_up": "next_after",
    "jump_up": "next_after",
    "adjacent_down": "next_before",
    "jump_down": "next_before",
}
_PRIOR_WEIGHT = 3
_EXACT_LIMIT = 1_000_000  # steps x correct guesses for the exact tail; beyond, normal approximation


def harmonic(n: int) -> float:
    """H_n = 1 + 1/2 + ... + 1/n, the expected correct guesses over a uniform deck of n distinct cards."""
    return math.fsum(1.0 / i for i in range(1, n + 1))


def _nearest_above(unseen: list[bool], start: int) -> int | None:
    for i in range(start + 1, len(unseen)):
        if unseen[i]:
            return i
    return None


def _nearest_below(unseen: list[bool], start: int) -> int | None:
    for i in range(start - 1, -1, -1):
        if unseen[i]:
            return i
    return None


class _Guesser:
    """Follow-the-leader choice among the candidate rules, per context, learned online."""

    def __init__(self) -> None:
        self.hits: dict[str, Counter[str]] = {}
        self.used: Counter[str] = Counter()

    def candidates(self, unseen: list[bool], last: int | None) -> dict[str, int | None]:
        n = len(unseen)
        first = _nearest_above(unseen, -1)
        final = _nearest_below(unseen, n)
        if last is None:
            return {"next_after": first, "next_before": final, "first_unseen": first, "last_unseen": final}
        return {
            "next_after": _nearest_above(unseen, last),
            "next_before": _nearest_below(unseen, last),
            "first_unseen": first,
            "last_unseen": final,
        }

    def choose(self, context: str, cands: dict[str, int | None]) -> tuple[str, int]:
        tally = self._tally(context)
        best: tuple[str, int] | None = None
        best_hits = -1
        for a in ACTIONS:  # ties go to the earlier action
            pos = cands[a]
            if pos is not None and tally[a] > best_hits:
                best, best_hits = (a, pos), tally[a]
        assert best is not None  # some card is always unseen while guessing
        return best

    def _tally(self, context: str) -> Counter[str]:
        tally = self.hits.get(context)
        if tally is None:
            # Prior: DFH's rule - keep going the way the last step went (up at the start).
            tally = self.hits[context] = Counter({_PRIOR[context.split("/")[0]]: _PRIOR_WEIGHT})
        return tally

    def learn(self, context: str, right: Sequence[str]) -> None:
        """Credit every candidate rule that would have named the card just shown."""
        self._tally(context).update(right)


def _context(last: int | None, q: int, cands: dict[str, int | None]) -> str:
    """The kind of step from ``last`` to ``q`` (input positions)."""
    if q == cands["next_after"]:
        return "adjacent_up"
    if q == cands["next_before"]:
        return "adjacent_down"
    if last is None or q > last:
        return "jump_up"
    return "jump_down"


def _play(shuffle: ObservedShuffle, guesser: _Guesser, probs: list[float]) -> int:
    """Play one deck; append each guess's null probability to ``probs``; return correct guesses."""
    deck = shuffle.input or ()
    n = len(deck)
    if len(shuffle.output) > n:
        raise ValueError(f"output of {len(shuffle.output)} cards is longer than the input ({n})")
    left: Counter[int] = Counter(deck)
    for c in deck:
        check_card(c)
    unseen = [True] * n
    where: dict[int, list[int]] = {}
    for i, c in enumerate(deck):
        where.setdefault(c, []).append(i)
    last: int | None = None
    context = "start"
    correct = 0
    for step, shown in enumerate(shuffle.output):
        if left[shown] <= 0:
            raise ValueError(f"{text(shown)} came out more often than it went in")
        cands = guesser.candidates(unseen, last)
        stage = (n - step).bit_length()  # cards left in the deck, on a log2 scale
        action, pos = guesser.choose(f"{context}/{stage}", cands)
        guessed = deck[pos]
        guesser.used[action] += 1
        probs.append(left[guessed] / (n - step))
        correct += guessed == shown
        # Which copy came out: the unseen one nearest the last card (the only one for a single deck).
        copies = [i for i in where[shown] if unseen[i]]
        anchor = -1 if last is None else last
        q = min(copies, key=lambda i: (abs(i - anchor), -i))
        guesser.learn(f"{context}/{stage}", [a for a, p in cands.items() if p is not None and deck[p] == shown])
        context = _context(last, q, cands)
        unseen[q] = False
        left[shown] -= 1
        last = q
    return correct


def guessing_test(
    shuffles: Sequence[ObservedShuffle],
    *,
    fed_back_in_output_order: bool = False,
    decks: int = 1,
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
) -> QualityResult:
    """The DFH guessing-with-feedback test over the shuffles whose input order is known.

    Needs each shuffle's input order; with ``fed_back_in_output_order`` a shuffle with unknown input
    takes the previous shuffle's output as its input when that output was seen in full
    (``52 * decks`` cards; a shuffler reloaded in dealt order).
    Shuffles still without an input are skipped; with none left the result is ``n/a``. Outputs may
    be prefixes (only the cards seen are guessed). Multi-deck inputs are allowed: a guess names a
    card value and is right if any copy of it comes next.
    """
    if fed_back_in_output_order:
        shuffles = with_fed_back_inputs(shuffles, DECK_SIZE * decks)
    usable = [s for s in shuffles if s.input is not None and s.output]
    if not usable:
        return not_applicable(NAME, "No shuffle with a known input order: the guessing test needs it.")
    guesser = _Guesser()
    probs: list[float] = []
    correct = sum(_play(s, guesser, probs) for s in usable)
    expected = math.fsum(probs)
    variance = math.fsum(p * (1.0 - p) for p in probs)
    S = len(usable)
    z = (correct - expected) / math.sqrt(variance) if variance > 0 else 0.0
    if len(probs) * max(correct, 1) <= _EXACT_LIMIT:
        p = poisson_binomial_sf(probs, correct)
    else:
        p = normal_sf((correct - 0.5 - expected) / math.sqrt(variance)) if variance > 0 else 1.0
    favourite = guesser.used.most_common(1)[0][0]
    skipped = len(shuffles) - S
    detail = (
        f"A guesser who knew the input order called {correct / S:.2f} cards per deck correctly against "
        f"{expected / S:.2f} expected for a perfect shuffle (z={z:+.1f}, p={p:.3g}) over {S} shuffles"
        + (f" ({skipped} without a known input skipped)" if skipped else "")
        + f"; most often guessing {_ACTION_TEXT[favourite]}."
    )
    return QualityResult(NAME, correct / S, expected / S, z, p, thresholds.verdict(p), detail, S)
