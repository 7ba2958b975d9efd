"""The detection statistic on constructed decision sequences: its sign, its size, its p-value,
its evidence and its one-line errors."""

from __future__ import annotations

import math

import pytest

from tablectl.detection.screen import DecisionRow, DetectionError, screen, seat_test

OPTIONS = ("play", "fold")


def row(n: int, choice: str, own: tuple[float, float], hole: tuple[float, float], seat: int = 1) -> DecisionRow:
    return DecisionRow(n, seat, OPTIONS, choice, own, {"hole:1": hole})


def hole_carder(seat: int = 1, rounds: int = 60) -> list[DecisionRow]:
    """Own cards say play (0.05 over fold); the hole card says fold in a third of the rounds, and
    the seat folds exactly there."""
    out = []
    for n in range(rounds):
        if n % 3 == 0:
            out.append(row(n, "fold", (-0.95, -1.0), (-1.6, -1.0), seat))
        else:
            out.append(row(n, "play", (-0.95, -1.0), (-0.625, -1.0), seat))
    return out


def test_choices_that_follow_the_hole_card_give_a_large_llr_and_a_tiny_p_value() -> None:
    result = seat_test(hole_carder(), "hole:1")
    assert result.llr > 10 and result.p_value < 1e-4 and result.decisions == 60


def test_choices_that_follow_the_own_cards_give_a_negative_llr_and_p_value_one() -> None:
    rows = [row(n, "play", r.own, r.hidden["hole:1"]) for n, r in enumerate(hole_carder())]
    result = seat_test(rows, "hole:1")
    assert result.llr < 0 and result.p_value == 1.0 and result.evidence == ()


def test_honest_errors_spread_evenly_over_the_hidden_cards_do_not_raise_the_llr() -> None:
    # own value of play 0.05 over fold is the mean of the hidden +0.55 and -0.45; the seat errs
    # (folds) a third of the time, as often where the hole card favours folding as where it does not
    rows = []
    for n in range(120):
        hole = (-0.45, -1.0) if n % 2 else (-1.45, -1.0)
        rows.append(row(n, "fold" if n % 6 < 2 else "play", (-0.95, -1.0), hole))
    result = seat_test(rows, "hole:1")
    assert result.llr < 0 and result.p_value > 0.5  # a lucky first decision, never more


def test_one_discordant_decision_scores_the_hypothesis_at_the_first_temperature_against_the_best_honest_fit() -> None:
    # one error of a whole wager from the own cards: the honest fit is the hottest temperature (4);
    # the hidden card makes the choice best by a whole wager, at the first temperature (0.15)
    result = seat_test([row(0, "fold", (0.0, -1.0), (-2.0, -1.0))], "hole:1", alternative="pure")
    assert result.temperature == pytest.approx(4.0)
    log_sigmoid = lambda x: -math.log1p(math.exp(-x))  # noqa: E731
    assert result.llr == pytest.approx(log_sigmoid(1 / 0.15) - log_sigmoid(-1 / 4.0))


def test_the_evidence_lists_each_decision_only_the_hidden_card_explains_with_its_cost() -> None:
    result = seat_test(hole_carder(rounds=9), "hole:1")
    assert [(e.round, e.choice, e.own_best, e.hidden_best) for e in result.evidence] == [
        (0, "fold", "play", "fold"), (3, "fold", "play", "fold"), (6, "fold", "play", "fold")]
    assert all(e.cost == pytest.approx(0.05) for e in result.evidence)


def test_a_hypothesis_that_values_every_decision_as_the_own_cards_do_is_not_evidence() -> None:
    rows = [row(n, "play", (-0.95, -1.0), (-0.95, -1.0)) for n in range(10)]
    result = seat_test(rows, "hole:1")
    assert (result.decisions, result.llr, result.p_value) == (0, 0.0, 1.0)


def test_screening_flags_the_hole_carder_and_not_the_seat_beside_him() -> None:
    honest = [row(n, "play", (-0.95, -1.0), r.hidden["hole:1"], seat=2) for n, r in enumerate(hole_carder())]
    tests = screen(hole_carder(seat=1) + honest)
    assert [(t.seat, t.hypothesis, t.flagged) for t in tests] == [(1, "hole:1", True), (2, "hole:1", False)]


def test_a_choice_not_among_the_options_is_one_line_naming_round_and_seat() -> None:
    with pytest.raises(DetectionError, match=r"^round 7 seat 3: choice 'raise' is not one of \['play', 'fold'\]$"):
        seat_test([DecisionRow(7, 3, OPTIONS, "raise", (0.0, -1.0), {"hole:1": (0.0, -1.0)})], "hole:1")


def test_values_not_one_per_option_are_one_line_naming_round_and_seat() -> None:
    with pytest.raises(DetectionError, match=r"^round 2 seat 1: 1 hole:1 values for 2 options$"):
        seat_test([DecisionRow(2, 1, OPTIONS, "play", (0.0, -1.0), {"hole:1": (0.0,)})], "hole:1")


def test_an_unknown_screening_method_is_refused() -> None:
    with pytest.raises(DetectionError, match="method 'bonferroni': expected one of holm, bh"):
        screen(hole_carder(), method="bonferroni")
