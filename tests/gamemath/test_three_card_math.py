"""Exact Three Card Poker math (player-banked and Florida) against brute force and published figures."""

from collections import Counter
from fractions import Fraction
from itertools import combinations
from math import comb

import pytest

from tablectl.cards import cards
from tablectl.gamemath import three_card_poker as math3
from tablectl.gamemath.table import BetAnalysis
from tablectl.gamemath.threecard import matchups
from tablectl.rounds import RoundHands, SeatHand
from tablectl.rules import three_card_poker_florida as florida
from tablectl.rules.hand3 import QUEEN_HIGH, QUEEN_SIX_FOUR, value3
from tablectl.rules.houserules import FloridaRules
from tablectl.rules.settle import settle

Deals = dict[tuple[int, int], int]

# Twelve cards with every category reachable: A-2-3 and Q-K-A straights, flushes, trips, pairs,
# queen-high hands on both sides of Q-6-4, and hands that do not qualify.
SMALL_DECK = cards("AS AH AD KS KH QS QD 2S 2H 3S 4S 6D")


@pytest.fixture(scope="module")
def full_deals() -> Deals:
    return matchups(range(52), [QUEEN_HIGH])


@pytest.fixture(scope="module")
def six_card() -> BetAnalysis:
    return math3.six_card_bonus()


@pytest.fixture(scope="module")
def small_deals() -> Deals:
    return matchups(SMALL_DECK, [QUEEN_HIGH])


def counts(analysis: BetAnalysis) -> dict[str, int]:
    return {line.outcome: line.combinations for line in analysis.outcomes}


def brute_force(rules: FloridaRules) -> tuple[Counter[str], Counter[str]]:
    """Every deal of the small deck settled as a live Florida round: (ante outcomes, pairplus outcomes)."""
    ante: Counter[str] = Counter()
    pairplus: Counter[str] = Counter()
    for player in combinations(SMALL_DECK, 3):
        rest = [c for c in SMALL_DECK if c not in player]
        decision = florida.RAISE if value3(player) >= QUEEN_SIX_FOUR else florida.FOLD_DECISION
        for dealer in combinations(rest, 3):
            seats = [
                SeatHand(1, list(player), {florida.ANTE: 1}, [decision]),
                SeatHand(2, list(player), {florida.PAIRPLUS: 1}),  # the Pairplus bet alone
            ]
            settled = settle(RoundHands(florida.GAME, seats, dealer=list(dealer)), rules).results
            results = {r.bet: r.outcome for r in settled}
            shown = {("win", "push"): "dealer-not-qualified", ("fold", None): "fold"}
            key = (results[florida.ANTE], results.get(florida.PLAY))
            ante[shown.get(key, key[0])] += 1
            pairplus[results[florida.PAIRPLUS]] += 1
    return ante, pairplus


def test_every_pair_of_hands_is_counted_once(full_deals: Deals) -> None:
    assert sum(full_deals.values()) == comb(52, 3) * comb(49, 3) == 407_170_400


@pytest.mark.parametrize("tie_rule", ["lose", "push"])
def test_florida_counts_equal_a_brute_force_of_live_settlements(small_deals: Deals, tie_rule: str) -> None:
    rules = FloridaRules(pairplus_tie_below_pair=tie_rule)
    ante, pairplus = brute_force(rules)
    assert counts(math3.florida_ante(small_deals)) == ante
    assert counts(math3.florida_pairplus(rules, small_deals)) == pairplus


def test_ante_play_matches_wizard_of_odds_straight_flush_and_trips_rows(full_deals: Deals) -> None:
    # Wizard of Odds' Three Card Poker ante table, as quoted in stats.stackexchange.com
    # question 175976: straight flush wins 617,044, ties 144, loses 968, dealer not
    # qualifying 266,196; three of a kind wins 665,776.
    found = counts(math3.ante_play(deals=full_deals))
    assert found["win + ante bonus straight-flush"] == 617_044
    assert found["push + ante bonus straight-flush"] == 144
    assert found["lose + ante bonus straight-flush"] == 968
    assert found["dealer-not-qualified + ante bonus straight-flush"] == 266_196
    assert found["win + ante bonus three-of-a-kind"] == 665_776


def test_ante_play_house_edge_is_wizard_of_oddss_three_point_three_seven(full_deals: Deals) -> None:
    # Wizard of Odds, "Three Card Poker": Ante & Play with the 1-4-5 Ante bonus and Q-6-4, 3.37%.
    assert round(float(math3.ante_play(deals=full_deals).house_edge) * 100, 2) == 3.37


def test_florida_ante_gives_up_exactly_the_ante_bonus(full_deals: Deals) -> None:
    # With Q-6-4 every straight or better plays, so dropping the bonus costs its whole return,
    # by hand from the 22,100-hand frequencies: (48 * 5 + 52 * 4 + 720 * 1) / 22,100.
    conventional = math3.ante_play(deals=full_deals).house_edge
    assert math3.florida_ante(full_deals).house_edge - conventional == Fraction(48 * 5 + 52 * 4 + 720, 22100)


def test_florida_push_rule_turns_exactly_the_tied_high_card_deals_into_pushes(full_deals: Deals) -> None:
    lose = counts(math3.florida_pairplus(FloridaRules(), full_deals))
    push = counts(math3.florida_pairplus(FloridaRules(pairplus_tie_below_pair="push"), full_deals))
    # By hand: 274 high-card rank sets (C(13,3) less 12 straights); per rank the player takes one
    # of 4 suits and the dealer one of the other 3 (12^3 ways), less either hand being a flush
    # (108 each), plus both (4 * 3).
    tied = (comb(13, 3) - 12) * (12**3 - 108 - 108 + 12)
    assert push["push"] - lose["push"] == tied
    assert lose["lose"] - push["lose"] == tied


def test_pairplus_house_edge_follows_from_the_published_frequencies() -> None:
    # 1-4-6-30-40 on Wizard of Odds' frequencies; Wizard gives 2.32%.
    expected = Fraction(48 * 40 + 52 * 30 + 720 * 6 + 1096 * 4 + 3744 * 1 - 16440, 22100)
    analysis = math3.pairplus()
    assert analysis.house_edge == -expected
    assert round(float(analysis.house_edge) * 100, 2) == 2.32


def test_six_card_bonus_counts_match_hand_counts(six_card: BetAnalysis) -> None:
    found = counts(six_card)
    assert sum(found.values()) == comb(52, 6)
    assert found["royal-flush"] == 4 * 47
    assert found["four-of-a-kind"] == 13 * comb(48, 2)
    # trips + trips, or trips + pair + an odd card of an eleventh rank
    assert found["full-house"] == comb(13, 2) * 4 * 4 + 13 * 4 * 12 * 6 * 44


def test_six_card_bonus_house_edge_agrees_with_the_published_ten_point_two_three(six_card: BetAnalysis) -> None:
    # table-games-online.com, "Three Card Poker with 6-Card Bonus": 1000/200/50/25/20/10/5,
    # "a house advantage of 10.23%"; the exact figure is 10.2248%, within that rounding.
    assert abs(float(six_card.house_edge) * 100 - 10.23) < 0.01
