"""Simulated seats through the whole pure path: profiles decide, rounds are judged, rows built,
seats screened -- the hole-carder is flagged within 1,000 rounds, the honest seats are not."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tablectl.analytics.simulated_seats import HYPOTHESES, deal_pool, rounds_to_flag, session
from tablectl.detection.rows import detection_rows
from tablectl.detection.screen import screen
from tablectl.gamemath.decisions.judge import judge_round
from tablectl.gamemath.decisions.value import decision_values
from tablectl.games.three_card_poker import OPTIONS
from tablectl.rounds import RoundHands, SeatHand
from tablectl.table.simulated.profiles import Profile, choose, sight_for

GAME = "three-card-poker"


@pytest.mark.slow
def test_a_three_card_table_of_1000_rounds_flags_the_hole_carder_and_neither_honest_seat() -> None:
    profiles = {1: Profile(1, "hole-card"), 2: Profile(2, "basic"), 3: Profile(3, "recreational")}
    rng, rows = random.Random(25), []
    for n in range(1000):
        deck = rng.sample(range(52), 12)
        dealer, seats = deck[:3], []
        for seat, profile in profiles.items():
            own = deck[3 * seat : 3 * seat + 3]
            sight = sight_for(profile, own=own, board=[], dealer=dealer, team=[], made=[], hidden=True)
            choice = choose(profile, decision_values(GAME, OPTIONS, sight), rng)
            seats.append(SeatHand(seat, own, {"ante": 500}, [choice]))
        hands = RoundHands(GAME, seats, dealer=dealer)
        rows += detection_rows(n, hands, judge_round(hands))
    tests = screen(rows)
    assert {t.seat for t in tests if t.flagged} == {1}
    assert max((t for t in tests if t.seat == 1), key=lambda t: t.llr).hypothesis == "hole:1"  # the likeliest explanation


@pytest.mark.slow
def test_over_many_sessions_every_hole_carder_is_flagged_within_1000_rounds_and_at_most_1pct_of_honest_seats() -> None:
    pool = deal_pool(GAME, 600, random.Random(7))
    gen = np.random.default_rng(7)
    honest = [rounds_to_flag(session(pool, Profile(1, kind), 1000, gen), HYPOTHESES[GAME])
              for kind in ("basic", "recreational") for _ in range(300)]
    cheats = [rounds_to_flag(session(pool, Profile(1, "hole-card"), 1000, gen), HYPOTHESES[GAME]) for _ in range(50)]
    assert sum(h is not None for h in honest) <= 6  # 1% of 600 sessions
    assert all(c is not None and c <= 1000 for c in cheats)
