"""The part-time alternative of the detection statistic on constructed decision sequences: a seat
that uses the hole card on half its rounds is caught, its share is fitted, the fit is predictable,
an honest seat is not flagged."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tablectl.detection.mixture import predictable_mixture
from tablectl.detection.screen import DecisionRow, DetectionError, screen, seat_test

OPTIONS = ("play", "fold")
OWN = (-0.95, -1.0)  # own cards: play, by 0.05 of the Ante
SAYS_FOLD, SAYS_PLAY = (-1.6, -1.0), (-0.625, -1.0)  # the hole card


def part_time(rounds: int = 300, seat: int = 1) -> list[DecisionRow]:
    """The hole card says fold in a third of the rounds; the seat sees it on even rounds only
    (folds there when it says so) and plays its own cards' best (play) on the others."""
    out = []
    for n in range(rounds):
        hole = SAYS_FOLD if n % 3 == 0 else SAYS_PLAY
        choice = "fold" if hole == SAYS_FOLD and n % 2 == 0 else "play"
        out.append(DecisionRow(n, seat, OPTIONS, choice, OWN, {"hole:1": hole}))
    return out


def log_sigmoid(x: float) -> float:
    return -math.log1p(math.exp(-x))


def test_a_part_time_hole_carder_is_flagged_where_the_pure_alternative_alone_does_not_flag_him() -> None:
    rows = part_time()
    assert screen(rows, alternative="pure")[0].flagged is False
    assert screen(rows)[0].flagged is True


def test_the_part_time_alternative_fits_the_share_of_rounds_the_hole_card_was_used_on() -> None:
    # the hole card tells apart only the rounds it says fold; the seat followed it on half of those
    assert seat_test(part_time(600), "hole:1").share == pytest.approx(0.55)


def test_one_decision_scores_the_mean_of_the_pure_and_the_part_time_likelihood_at_the_first_share_and_temperature() -> None:
    # a fold that only the hole card explains, by a whole wager; the honest best fit is the hottest temperature (4)
    result = seat_test([DecisionRow(0, 1, OPTIONS, "fold", (0.0, -1.0), {"hole:1": (-2.0, -1.0)})], "hole:1")
    hidden, own = math.exp(log_sigmoid(1 / 0.15)), math.exp(log_sigmoid(-1 / 0.15))
    mixture = 0.55 * hidden + 0.45 * own
    assert result.llr == pytest.approx(math.log((hidden + mixture) / 2) - log_sigmoid(-1 / 4.0))


def test_a_seat_that_always_follows_its_own_cards_is_not_flagged_by_either_alternative() -> None:
    rows = [DecisionRow(r.round, r.seat, OPTIONS, "play", r.own, r.hidden) for r in part_time()]
    for alternative in ("pure", "mixture", "both"):
        result = seat_test(rows, "hole:1", alternative=alternative)
        assert result.p_value == 1.0 and not screen(rows, alternative=alternative)[0].flagged


def test_each_decisions_part_time_likelihood_is_fitted_only_on_the_decisions_before_it() -> None:
    rng = np.random.default_rng(5)
    own, hidden = np.log(rng.uniform(0.05, 0.95, (50, 4))), np.log(rng.uniform(0.05, 0.95, (50, 4)))
    first, _, _ = predictable_mixture(own, hidden, 2)
    changed_own, changed_hidden = own.copy(), hidden.copy()
    changed_own[30:], changed_hidden[30:] = np.log(0.99), np.log(0.01)  # later decisions otherwise
    again, _, _ = predictable_mixture(changed_own, changed_hidden, 2)
    assert np.array_equal(first[:30], again[:30]) and not np.array_equal(first[30:], again[30:])


def test_an_unknown_alternative_is_refused_naming_it_and_the_known_ones() -> None:
    with pytest.raises(DetectionError, match=r"^alternative 'sometimes': expected one of pure, mixture, both$"):
        screen(part_time(3), alternative="sometimes")


def test_a_long_seat_history_is_scored_as_one_pass_over_all_its_decisions_would() -> None:
    rng = np.random.default_rng(8)
    own, hidden = np.log(rng.uniform(0.05, 0.95, (5000, 3))), np.log(rng.uniform(0.05, 0.95, (5000, 3)))
    shares = np.array([0.1, 0.25, 0.4, 0.55, 0.7, 0.85, 1.0])
    mix = np.logaddexp(np.log(shares)[None, :, None] + hidden[:, None, :],
                       np.log(np.maximum(1 - shares, 1e-300))[None, :, None] + own[:, None, :]).reshape(5000, -1)
    fits = np.r_[3 * 3 + 1, np.cumsum(mix, axis=0)[:-1].argmax(axis=1)]  # first: share 0.55, temperature column 1
    got, share, temperature = predictable_mixture(own, hidden, 1)
    assert np.allclose(got, mix[np.arange(5000), fits])
    assert share * 3 + temperature == int(mix.sum(axis=0).argmax())
