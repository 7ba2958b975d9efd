"""Detection power by the floor's rule (``analytics.simulated_seats``): a simulated session's
p-values are the floor's, the floor's correction flags what ``tablectl floor``'s would, the round
found is the first flagged, and what a profile gains is estimated from the pool."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tablectl.analytics.floor.detection import detect
from tablectl.analytics.simulated_seats import (
    HYPOTHESES,
    Session,
    changed,
    deal_pool,
    describe,
    floor_flagged,
    floor_rounds_to_flag,
    p_by_round,
    pool_gain,
    session,
)
from tablectl.gamemath import one_for_the_money
from tablectl.gamemath.advantage import one_for_the_money as advantage
from tablectl.table.simulated.profiles import Profile

GAME = "one-for-the-money"
POOL = deal_pool(GAME, 200, random.Random(5))
HYP = HYPOTHESES[GAME]


def _records(s: Session, table: str) -> list[dict[str, object]]:
    """A simulated session as the floor reads its sightings (one table's seat 1 on one day)."""
    out = []
    for i in range(len(s.choice)):
        width = int((s.values["own"][i] > -1e5).sum())
        own = [float(v) for v in s.values["own"][i, :width]]
        hidden = [[float(v) for v in s.values[h][i, :width]] for h in sorted(HYP)]
        out.append({"table_id": table, "date": "2026-01-01", "seat": 1, "seq": i, "round_id": f"1.{s.rounds[i] + 1}",
                    "options": [f"o{j}" for j in range(width)], "choice": f"o{s.choice[i]}", "own": own,
                    "hypotheses": sorted(HYP), "hidden": [None if h == own else h for h in hidden], "ts": None, "player": None})
    return out


def test_the_floor_flags_the_sessions_tablectl_floor_flags_from_the_same_decisions() -> None:
    gen = np.random.default_rng(2)
    kinds = ["hole-card@0.5", "recreational", "basic", "recreational", "edge-sort@0.5", "team"]
    sessions = [session(POOL, Profile(1, k.split("@")[0], share=0.5 if "@" in k else 1.0), 60, gen) for k in kinds]
    records = [r for k, s in enumerate(sessions) for r in _records(s, f"t{k}")]
    floor = detect(records, 0.05)
    assert floor.tests == len(kinds) * len(HYP)
    expected = sorted({f.session.table_id for f in floor.flags})
    ours = floor_flagged([p_by_round(s, HYP, 60)[:, -1] for s in sessions], 0.05)
    assert [f"t{k}" for k in np.flatnonzero(ours)] == expected
    assert expected  # a part-time cheat of 60 rounds among them is flagged


def test_p_by_round_is_the_smallest_p_value_so_far_and_only_falls() -> None:
    s = session(POOL, Profile(1, "hole-card"), 40, np.random.default_rng(3))
    p = p_by_round(s, HYP, 40)
    assert p.shape == (len(HYP), 40) and np.all(np.diff(p, axis=1) <= 0) and np.all((p > 0) & (p <= 1))
    assert p[0, -1] < 1e-3  # the first dealer card seen, every round


def test_the_round_found_is_the_first_the_floor_flags_and_false_alarms_are_counted() -> None:
    gen = np.random.default_rng(4)
    honest = [p_by_round(session(POOL, Profile(1, "recreational"), 80, gen), HYP, 80) for _ in range(10)]
    target = p_by_round(session(POOL, Profile(1, "hole-card", share=0.5), 80, gen), HYP, 80)
    hit, false_alarms = floor_rounds_to_flag(target, honest, 0.05)
    by_round = [floor_flagged([target[:, r], *(h[:, r] for h in honest)], 0.05)[0] for r in range(80)]
    assert hit == (by_round.index(True) + 1 if True in by_round else None)
    assert false_alarms == 0


def test_a_floor_needs_more_than_the_seat_alone() -> None:
    # a p-value of 0.004 flags a seat tested alone (4 tests at 0.05) but not on a floor of 101 sessions
    lone = np.array([0.004, 1.0, 1.0, 1.0])
    assert floor_flagged([lone], 0.05)[0]
    assert not floor_flagged([lone] + [np.ones(4)] * 100, 0.05)[0]
    target = np.tile(lone[:, None], (1, 5))
    assert floor_rounds_to_flag(target, [np.ones((4, 5))] * 100, 0.05) == (None, 0)


def test_the_pool_estimates_the_exact_gain_of_a_hole_carder_and_a_part_timer_gains_the_share() -> None:
    exact = float(advantage.one_card_seen(decks=6).player_edge + one_for_the_money.main_game(6).house_edge)
    gain, se = pool_gain(POOL, Profile(1, "hole-card"))
    assert abs(gain - exact) < 3 * se
    assert pool_gain(POOL, Profile(1, "hole-card", share=0.5)) == pytest.approx((gain / 2, se / 2))
    assert pool_gain(POOL, Profile(1, "basic")) == (0.0, 0.0) == pool_gain(POOL, Profile(1, "recreational"))


def test_a_basic_seat_changes_no_decision_and_a_hole_carder_many() -> None:
    gen = np.random.default_rng(6)
    assert changed(session(POOL, Profile(1, "basic"), 100, gen)) == 0
    assert changed(session(POOL, Profile(1, "hole-card"), 100, gen)) > 10


def test_each_profile_is_spelled_out() -> None:
    assert describe("three-card-poker", Profile(1, "hole-card", card=1, share=0.5)).startswith(
        "the dealer's second dealt card of 3 seen, 50% of the rounds")
    assert "one partner (seat 2) shows his three cards" in describe("three-card-poker", Profile(1, "team"))
    assert "his two hole cards" in describe("texas-holdem-bonus", Profile(1, "team"))
    assert "each of the dealer's 2 cards read high" in describe(GAME, Profile(1, "edge-sort"))
