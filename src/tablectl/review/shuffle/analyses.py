"""Shuffle-quality analytics for surveillance: the entry points the review tool calls.

Each analysis takes plain values extracted from the card log and returns a :class:`QualityResult`
with a headline figure, what a perfect shuffler would give, a test statistic, a p-value and a
pass / warn / fail verdict (see ``docs/shuffle-quality.md``):

* :func:`position_test` - card-position chi-square (input position x output position when the
  input order is known, else card x output position);
* :func:`guessing_test` - Diaconis-Fulman-Holmes guessing with feedback (needs the input order);
* :func:`reentry_test` - continuous shufflers: how soon a returned card comes out again.

:func:`analyse_shuffles` and :func:`analyse_csm` run the applicable ones together.
"""

from __future__ import annotations

from collections.abc import Sequence

from tablectl.cards import DECK_SIZE
from tablectl.review.shuffle.reentry import reentry_test
from tablectl.review.shuffle.common import (
    DEFAULT_THRESHOLDS,
    CsmEvent,
    ObservedShuffle,
    QualityResult,
    Thresholds,
    Verdict,
    chi2_sf,
    normal_sf,
    with_fed_back_inputs,
)
from tablectl.review.shuffle.guessing import guessing_test, harmonic
from tablectl.review.shuffle.positions import position_test

__all__ = [
    "DEFAULT_THRESHOLDS",
    "CsmEvent",
    "ObservedShuffle",
    "QualityResult",
    "Thresholds",
    "Verdict",
    "analyse_csm",
    "analyse_shuffles",
    "chi2_sf",
    "guessing_test",
    "harmonic",
    "normal_sf",
    "position_test",
    "reentry_test",
    "with_fed_back_inputs",
]


def analyse_shuffles(
    shuffles: Sequence[ObservedShuffle],
    *,
    decks: int = 1,
    fed_back_in_output_order: bool = False,
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
) -> list[QualityResult]:
    """The position chi-square and the guessing test for a batch shuffler's or a shoe's shuffles.

    ``shuffles`` are in log order. ``decks`` is how many 52-card decks each shuffle holds. With
    ``fed_back_in_output_order`` an unknown input is taken to be the previous shuffle's full output.
    The guessing test is ``n/a`` when no input order is known.
    """
    if fed_back_in_output_order:
        shuffles = with_fed_back_inputs(shuffles, DECK_SIZE * decks)
    return [
        position_test(shuffles, decks=decks, thresholds=thresholds),
        guessing_test(shuffles, thresholds=thresholds),
    ]


def analyse_csm(
    events: Sequence[CsmEvent],
    *,
    decks: int,
    outside_at_start: Sequence[int] = (),
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
) -> list[QualityResult]:
    """The re-entry lag test for a continuous shuffler's dispense/return stream."""
    return [reentry_test(events, decks=decks, outside_at_start=outside_at_start, thresholds=thresholds)]
