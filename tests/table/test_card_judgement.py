"""Where a card goes and which violation it raises, judged from plain values."""

from __future__ import annotations

import pytest

from tablectl.games.procedure import BURN_HOUSE_RULE, BURN_SHUFFLE, BURN_WAR, Burn, Deal
from tablectl.rules.bets import BetLimit
from tablectl.table import lifecycle as lc
from tablectl.table.procedure import validation as va

DEAL = Deal("seat:1")
BURN = Burn(BURN_WAR)


@pytest.mark.parametrize(
    ("state", "marked", "due", "step", "placement", "violation"),
    [
        (lc.IN_ROUND, False, None, DEAL, va.TO_STEP, None),
        (lc.IN_ROUND, True, None, BURN, va.TO_STEP, None),
        (lc.IN_ROUND, False, None, BURN, va.AFTER_BURNS, va.BURN_MISSING),
        (lc.IN_ROUND, True, None, DEAL, va.TO_EXTRA_BURN, va.BURN_EXTRA),
        (lc.IN_ROUND, False, None, None, va.TO_DISCARD, va.TOO_MANY_CARDS),
        (lc.IN_ROUND, True, BURN_SHUFFLE, DEAL, va.TO_DUE_BURN, None),
        (lc.IN_ROUND, False, BURN_SHUFFLE, DEAL, va.AFTER_BURNS, va.BURN_MISSING),
        (lc.READY, True, BURN_SHUFFLE, None, va.TO_DUE_BURN, None),
        (lc.READY, False, BURN_SHUFFLE, None, va.TO_DISCARD, va.WRONG_STATE),
        (lc.READY, True, None, None, va.TO_DISCARD, va.WRONG_STATE),
        (lc.SETTLING, False, None, None, va.TO_DISCARD, va.TOO_MANY_CARDS),
        (lc.IDLE, False, None, None, va.TO_DISCARD, va.WRONG_STATE),
        (lc.SHUFFLING, False, None, None, va.TO_DISCARD, va.WRONG_STATE),
        (lc.HELD, False, None, DEAL, va.TO_DISCARD, va.WRONG_STATE),
        (lc.DEVICE_FAULT, False, None, DEAL, va.TO_DISCARD, va.WRONG_STATE),
    ],
)
def test_judge_card(state, marked, due, step, placement, violation):
    verdict = va.judge_card(state, marked=marked, burn_due=due, step=step)
    assert (verdict.placement, verdict.violation) == (placement, violation)


def test_a_missing_burn_names_why_it_was_due():
    verdict = va.judge_card(lc.IN_ROUND, marked=False, burn_due=None, step=Burn(BURN_HOUSE_RULE))
    assert verdict.where == BURN_HOUSE_RULE


@pytest.mark.parametrize(
    ("state", "index", "size", "packet", "placement", "violation"),
    [
        (lc.IN_ROUND, 0, 3, (DEAL, 3), va.TO_STEP, None),
        (lc.IN_ROUND, 0, 2, (DEAL, 3), va.TO_DISCARD, va.WRONG_POSITION),
        (lc.IN_ROUND, 1, 3, (DEAL, 3), va.TO_DISCARD, va.WRONG_POSITION),
        (lc.IN_ROUND, 0, 3, (BURN, 1), va.AFTER_BURNS, va.BURN_MISSING),
        (lc.IN_ROUND, 0, 1, None, va.TO_DISCARD, va.TOO_MANY_CARDS),
        (lc.SETTLING, 0, 1, None, va.TO_DISCARD, va.TOO_MANY_CARDS),
        (lc.READY, 0, 3, None, va.TO_DISCARD, va.WRONG_STATE),
    ],
)
def test_judge_packet(state, index, size, packet, placement, violation):
    verdict = va.judge_packet(state, index=index, expected_index=0, size=size, packet=packet)
    assert (verdict.placement, verdict.violation) == (placement, violation)


def _wagers(w):
    limits = {"primary": BetLimit(500, 50000, 100), "tie": BetLimit(100, 10000, 100)}
    return va.check_wagers(w, known=("primary", "tie"), required=("primary",), limits=limits)


def test_wagers_within_the_limits_are_taken():
    assert _wagers({"primary": 1000, "tie": 100}) is None


@pytest.mark.parametrize(
    ("wagers", "reason"),
    [
        ({"tie": 500}, "needs a primary"),
        ({"primary": 400}, "outside the limits $5-$500"),
        ({"primary": 60000}, "outside the limits $5-$500"),
        ({"primary": 1050}, "whole dollars"),
        ({"primary": 1000, "bonus": 100}, "unknown bet"),
        ({"primary": -5}, "not an amount"),
        ({"primary": 1000, "tie": 10100}, "tie: $101 is outside the limits $1-$100"),
        ({"primary": 1000, "tie": 1}, "tie: $0.01 is outside the limits $1-$100"),
    ],
)
def test_wagers_that_cannot_be_taken_say_why(wagers, reason):
    assert reason in (_wagers(wagers) or "")


def test_every_violation_kind_has_a_what_to_do_text():
    assert set(va.WHAT_TO_DO) == set(va.KINDS)
