"""``Payout`` settles in integers (numerator and denominator kept from its ``Fraction`` odds): the
net in cents must be exactly ``floor(stake * odds)`` for every line of every pay table, the even
money outcomes and the fractional ones, and the odds themselves stay an exact ``Fraction`` (the
game math sums them)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tablectl.rules import paytables
from tablectl.rules.one_card_poker import DP_DECLINED, SURRENDERED
from tablectl.rules.payout import FOLD, LOSE, NO_ACTION, PUSH, WIN, Payout, by_sign, pays

TABLES = [
    cls()
    for cls in vars(paytables).values()
    if isinstance(cls, type) and issubclass(cls, paytables.PayTable) and cls is not paytables.PayTable
]
LINES = [(type(t).__name__, line, odds) for t in TABLES for line, odds in t.lines()]
FIXED = [WIN, LOSE, PUSH, FOLD, NO_ACTION, SURRENDERED, DP_DECLINED]
ODD_ODDS = [Fraction(-1, 2), Fraction(3, 2), Fraction(6, 5), Fraction(-7, 3), Fraction(1, 3), Fraction(0)]
STAKES = [0, 1, 2, 3, 5, 99, 100, 101, 499, 500, 501, 12_345, 99_999, 1_000_000]


def test_every_pay_table_is_covered():
    assert len(TABLES) >= 8 and len(LINES) >= 30


@pytest.mark.parametrize(("table", "line", "odds"), LINES)
def test_a_pay_table_line_nets_floor_of_stake_times_odds(table, line, odds):
    payout = pays(line, odds)
    assert payout.odds == Fraction(odds) and isinstance(payout.odds, Fraction)
    assert payout.pays == f"{Fraction(odds)}:1"
    for stake in STAKES:
        expected = math.floor(stake * Fraction(odds))
        assert payout.net(stake) == expected
        r = payout.result(3, "bet", stake)
        assert (r.stake, r.outcome, r.pays, r.net) == (stake, line, payout.pays, expected)


@pytest.mark.parametrize("payout", FIXED + [Payout("x", o) for o in ODD_ODDS], ids=repr)
def test_fixed_and_fractional_payouts_net_floor_of_stake_times_odds(payout):
    for stake in STAKES:
        assert payout.net(stake) == math.floor(stake * payout.odds)
    assert payout.pays == (f"{payout.odds}:1" if payout.odds > 0 else "")


@given(st.integers(0, 10**9), st.integers(-1000, 1000), st.integers(1, 1000))
def test_any_odds_and_stake(stake, num, den):
    odds = Fraction(num, den)
    assert Payout("x", odds).net(stake) == math.floor(stake * odds)


def test_payouts_are_values_and_cached():
    assert pays("straight", 6) is pays("straight", Fraction(6))
    assert pays("straight", 6) == Payout("straight", Fraction(6))
    assert hash(pays("straight", 6)) == hash(Payout("straight", Fraction(6)))
    assert by_sign(1) is WIN and by_sign(-1) is LOSE and by_sign(0) is PUSH
