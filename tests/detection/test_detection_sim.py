"""Simulated sessions for the detection power: each profile decides from its own view, and a
decision that follows another is there exactly when the first choice leads to it."""

from __future__ import annotations

import random

import numpy as np

from tablectl.analytics.simulated_seats import deal_pool, rounds_to_flag, session, view_of
from tablectl.table.simulated.profiles import Profile

POOL = deal_pool("one-for-the-money", 40, random.Random(3))


def _best(values: np.ndarray) -> np.ndarray:
    return values.argmax(axis=1)


def test_a_basic_session_takes_the_best_option_from_its_own_cards_at_every_decision() -> None:
    s = session(POOL, Profile(1, "basic"), 300, np.random.default_rng(1))
    own = s.values["own"]
    assert np.all(own[np.arange(len(s.choice)), s.choice] == own.max(axis=1))


def test_a_hole_carder_takes_the_best_option_knowing_the_first_dealer_card() -> None:
    s = session(POOL, Profile(1, "hole-card"), 300, np.random.default_rng(1))
    hole = s.values["hole:1"]
    assert np.all(hole[np.arange(len(s.choice)), s.choice] == hole.max(axis=1))
    assert np.any(s.values["own"][np.arange(len(s.choice)), s.choice] < s.values["own"].max(axis=1))


def test_every_trade_is_followed_by_the_same_rounds_stand_or_raise_decision() -> None:
    s = session(POOL, Profile(1, "recreational"), 300, np.random.default_rng(2))
    trades = np.flatnonzero((s.choice == 2) & (np.r_[True, s.rounds[1:] != s.rounds[:-1]]))
    assert len(s.choice) == 300 + len(trades) and len(trades) > 0
    assert np.all(s.rounds[trades + 1] == s.rounds[trades])


def test_a_hole_carder_with_the_card_half_the_time_plays_from_his_own_cards_otherwise() -> None:
    assert (view_of(Profile(1, "hole-card", share=0.5), True), view_of(Profile(1, "hole-card", share=0.5), False)) == ("hole:1", "own")
    assert view_of(Profile(1, "hole-card", card=1), True) == "hole:2" and view_of(Profile(1, "team"), False) == "team:2"


def test_a_full_time_hole_carder_is_flagged_and_a_basic_player_is_not() -> None:
    gen = np.random.default_rng(4)
    hypotheses = ("hole:1", "hole:2", "edge", "team:2")
    assert rounds_to_flag(session(POOL, Profile(1, "hole-card"), 1000, gen), hypotheses) is not None
    assert rounds_to_flag(session(POOL, Profile(1, "basic"), 1000, gen), hypotheses) is None
