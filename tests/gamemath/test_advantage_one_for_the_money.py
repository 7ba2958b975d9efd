"""One for the Money with one dealer card seen, against a brute force of live settlements.

The brute force deals every ordered sequence of physical cards of a small shoe (first card, the
dealer's seen card, the dealer's other card, the card a trade brings), settles each choice as a
live round through ``settle`` and lets the player take the best choice for what he sees.
"""

from collections import defaultdict
from fractions import Fraction
from functools import cache
from itertools import permutations

import pytest

from tablectl.cards import cards
from tablectl.gamemath import one_for_the_money as math1
from tablectl.gamemath.advantage import one_for_the_money as adv
from tablectl.rounds import RoundHands, SeatHand
from tablectl.rules import one_for_the_money as oftm
from tablectl.rules.settle import settle

# Ties, a dealer card above and below the player's, and ranks with one card and with several.
SHOE = cards("2S 2H 5D 9S 9H QC AS AD")
KEEPS = ([oftm.CHECK], [oftm.RAISE])
TRADES = ([oftm.TRADE, oftm.STAND], [oftm.TRADE, oftm.RAISE])


@cache
def settled(final: int, dealer: tuple[int, int], decisions: tuple[str, ...]) -> int:
    """The seat's net on an Ante of 1 (the card given up in a trade does not change it)."""
    traded = [final ^ 1] if oftm.TRADE in decisions else []
    seat = SeatHand(1, [final], {oftm.ANTE: 1}, list(decisions), traded)
    return settle(RoundHands(oftm.GAME, [seat], dealer=list(dealer))).net_for(1)


def brute_force(shoe: list[int]) -> tuple[Fraction, int]:
    keep: defaultdict[tuple[int, int, int], int] = defaultdict(int)  # (first rank, seen rank, choice)
    trade: defaultdict[tuple[int, int, int, int], int] = defaultdict(int)  # (.., new rank, choice)
    cases = 0
    for c0, seen, other, c1 in permutations(shoe, 4):
        cases += 1
        dealer = (seen, other)
        info = (c0 >> 2, seen >> 2)
        for i, d in enumerate(KEEPS):
            keep[(*info, i)] += settled(c0, dealer, tuple(d))
        for i, d in enumerate(TRADES):
            trade[(*info, c1 >> 2, i)] += settled(c1, dealer, tuple(d))
    total = 0
    for info in {k[:2] for k in keep}:
        after = {k[2] for k in trade if k[:2] == info}
        traded = sum(max(trade[(*info, r1, 0)], trade[(*info, r1, 1)]) for r1 in after)
        total += max(keep[(*info, 0)], keep[(*info, 1)], traded)
    return Fraction(total, cases), cases


def counts(shoe: list[int]) -> list[int]:
    out = [0] * 13
    for c in shoe:
        out[c >> 2] += 1
    return out


def test_edge_with_one_dealer_card_seen_equals_a_brute_force_of_live_settlements() -> None:
    figure = adv.one_card_seen(counts(SHOE))
    assert (figure.player_edge, figure.cases) == brute_force(SHOE)


def test_seeing_a_dealer_card_turns_the_six_deck_game_to_the_player() -> None:
    figure = adv.one_card_seen(decks=6)
    assert figure.cases == 312 * 311 * 310 * 309
    assert figure.player_edge > 0 > -math1.main_game(6).house_edge


@pytest.mark.slow
def test_edge_with_one_dealer_card_seen_on_one_deck_equals_a_brute_force() -> None:
    deck = list(range(52))
    figure = adv.one_card_seen(decks=1)
    assert (figure.player_edge, figure.cases) == brute_force(deck)
