"""Three Card Poker advantage-play figures against a brute force of live settlements.

The brute force deals every player hand and every dealer hand of a small deck (no suit classes,
no inclusion-exclusion), settles each as a live round through ``settle`` (play and fold), groups
the cases by what the player knows and lets him take the better choice in each group.
"""

from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb

import numpy as np
import pytest

from tablectl.cards import cards
from tablectl.gamemath import three_card_poker as math3
from tablectl.gamemath.advantage import threecard as adv
from tablectl.gamemath.advantage.figure import AdvantageFigure
from tablectl.gamemath.threecard import matchups
from tablectl.rounds import RoundHands, SeatHand
from tablectl.rules import three_card_poker as tcp
from tablectl.rules import three_card_poker_florida as florida
from tablectl.rules.hand3 import QUEEN_HIGH, value3
from tablectl.rules.houserules import FloridaRules, ThreeCardPokerRules
from tablectl.rules.settle import settle

# Twelve cards with every category reachable (the deck of test_three_card_math).
SMALL_DECK = cards("AS AH AD KS KH QS QD 2S 2H 3S 4S 6D")
HIGH = {c for c in range(52) if c >> 2 >= 10}

Hand = tuple[int, ...]
Key = Callable[[Hand, Hand], list[object]]  # (player, dealer) -> one key per case


@cache
def _settled(game: str) -> Callable[[Hand, Hand], tuple[int, int]]:
    """(play net, fold net) of an Ante of 1 for a deal, settled as a live round (memoised)."""
    if game == tcp.GAME:
        rules: object = ThreeCardPokerRules(limit_to_banker_stake=False)
        play, fold = tcp.PLAY_DECISION, tcp.FOLD_DECISION
    else:
        rules, play, fold = FloridaRules(), florida.RAISE, florida.FOLD_DECISION

    @cache
    def net(player: Hand, dealer: Hand) -> tuple[int, int]:
        out = []
        for decision in (play, fold):
            seat = SeatHand(1, list(player), {"ante": 1}, [decision])
            out.append(settle(RoundHands(game, [seat], dealer=list(dealer)), rules).net_for(1))
        return out[0], out[1]

    return net


def brute_force(game: str, key: Key, deck: list[int] = SMALL_DECK) -> tuple[Fraction, int, int]:
    """(player's edge, cases, cases played) when the player knows ``key`` of each case (he plays
    when playing beats folding)."""
    net = _settled(game)
    play: defaultdict[tuple[Hand, object], int] = defaultdict(int)
    fold: defaultdict[tuple[Hand, object], int] = defaultdict(int)
    for player in combinations(deck, 3):
        rest = [c for c in deck if c not in player]
        for dealer in combinations(rest, 3):
            p, f = net(player, dealer)
            for k in key(player, dealer):
                play[player, k] += p
                fold[player, k] += f
    cases = sum(-f for f in fold.values())
    played = sum(-fold[k] for k in play if play[k] > fold[k])
    return Fraction(sum(max(play[k], fold[k]) for k in play), cases), cases, played


def brute_force_shared(game: str, deck: list[int] = SMALL_DECK) -> tuple[Fraction, int]:
    """(player's edge, cases) when the player sees one other hand dealt from the same deck."""
    net = _settled(game)
    total, cases = 0, 0
    for player in combinations(deck, 3):
        rest = [c for c in deck if c not in player]
        for other in combinations(rest, 3):
            left = [c for c in rest if c not in other]
            p = f = 0
            for dealer in combinations(left, 3):
                dp, df = net(player, dealer)
                p, f = p + dp, f + df
            total += max(p, f)
            cases -= f
    return Fraction(total, cases), cases


def seen(j: int) -> Key:
    return lambda _, dealer: list(combinations(dealer, j))


def sorted_high(j: int) -> Key:
    return lambda _, dealer: [sum(c in HIGH for c in s) for s in combinations(dealer, j)]


KEYS: dict[str, Key] = {
    "own cards only": lambda *_: [None],
    "one dealer card seen": seen(1),
    "two dealer cards seen": seen(2),
    "all three dealer cards seen": seen(3),
    "one dealer card read high (Q, K, A) or low": sorted_high(1),
    "two dealer cards read high (Q, K, A) or low": sorted_high(2),
    "all three dealer cards read high (Q, K, A) or low": sorted_high(3),
}
GAMES = {tcp.GAME: adv.ante_bonus(), florida.GAME: adv.no_bonus}


@pytest.fixture(scope="module", params=list(GAMES))
def small(request: pytest.FixtureRequest) -> tuple[str, dict[str, AdvantageFigure]]:
    figures = adv.ante_play(SMALL_DECK, GAMES[request.param])
    return request.param, {f.information: f for f in figures}


@pytest.mark.parametrize("information", list(KEYS))
def test_edge_with_cards_seen_or_sorted_equals_a_brute_force_of_live_settlements(
    small: tuple[str, dict[str, AdvantageFigure]], information: str
) -> None:
    game, figures = small
    figure = figures[information]
    assert (figure.player_edge, figure.cases, figure.played) == brute_force(game, KEYS[information])


def test_edge_with_one_other_hand_seen_equals_a_brute_force_of_live_settlements(
    small: tuple[str, dict[str, AdvantageFigure]],
) -> None:
    game, figures = small
    figure = figures["one other player's three cards seen"]
    assert (figure.player_edge, figure.cases) == brute_force_shared(game)


def test_vectorised_showdown_agrees_with_the_rules_on_every_pair_of_values() -> None:
    values = sorted({value3(h) for h in combinations(range(52), 3)})
    dealers = np.array(values)
    for player in values:
        found = adv.showdown_index(player, dealers)
        assert [adv.SHOWDOWNS[i] for i in found] == [tcp.showdown(player, d) for d in values]


def test_suit_classes_cover_every_hand_of_the_deck_once() -> None:
    classes = adv.suit_classes(range(52))
    assert len(classes) == 1755
    assert sum(n for _, n in classes) == comb(52, 3)


@pytest.fixture(scope="module")
def full() -> dict[str, AdvantageFigure]:
    return {f.information: f for f in adv.player_banked()}


@pytest.mark.slow
def test_own_cards_only_is_todays_q64_figure_exactly(full: dict[str, AdvantageFigure]) -> None:
    # Q-6-4 is the best play without hidden information: the baseline is today's Ante & Play.
    assert full["own cards only"].player_edge == -math3.ante_play().house_edge


@pytest.mark.slow
def test_one_dealer_card_seen_gives_wizard_of_oddss_three_point_four_eight(full: dict[str, AdvantageFigure]) -> None:
    # Wizard of Odds, "Three Card Poker" hole-carding: one dealer card seen, player edge 3.48%.
    figure = full["one dealer card seen"]
    assert figure.cases == 3 * comb(52, 3) * comb(49, 3)
    assert round(float(figure.player_edge) * 100, 2) == 3.48


@pytest.mark.slow
def test_all_three_dealer_cards_seen_equals_the_best_choice_on_every_matchup(full: dict[str, AdvantageFigure]) -> None:
    # Independent of the per-hand counting: the matchups of every player value against every
    # dealer value (threecard.matchups), playing exactly when the Play beats folding.
    bonus = adv.ante_bonus()
    total = 0
    for (player, dealer), n in matchups(range(52), [QUEEN_HIGH]).items():
        total += n * max(adv.showdown_net(tcp.showdown(player, dealer)) + bonus(player), -1)
    assert full["all three dealer cards seen"].player_edge == Fraction(total, comb(52, 3) * comb(49, 3))


@pytest.mark.slow
def test_one_dealer_card_seen_strategy_is_the_published_q92_k92_a92(full: dict[str, AdvantageFigure]) -> None:
    # A. P. Heat (apheat.net, "Three Card Poker hole-card play"): always play against a 2 to J;
    # against a Q, K or A play Q-9-2, K-9-2, A-9-2 or better.
    assert full["one dealer card seen"].strategy[1:] == (
        "the dealer shows 2-J: play every hand",
        "the dealer shows Q: play Q-9-2 or better",
        "the dealer shows K: play K-9-2 or better",
        "the dealer shows A: play A-9-2 or better",
    )


@pytest.mark.slow
def test_one_card_edge_sorted_gives_the_published_one_point_eight_three_seven(full: dict[str, AdvantageFigure]) -> None:
    # A. P. Heat (apheat.net, "Edge sorting Three Card Poker"): one card read high/low, 1.837%.
    percent = float(full["one dealer card read high (Q, K, A) or low"].player_edge) * 100
    assert 1.837 <= percent < 1.838
