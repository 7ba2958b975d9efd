"""The exact spread of one round's house result about its theoretical win (pure):
``theo_variance(hands, rules, decks, theo)``.

A round's theoretical win (``analytics.judging``) is what the house expects given the wagers and
the decisions the players made from what they saw. Its spread is taken given what the players saw,
all seats together: every seat's cards (One for the Money: the card traded and the new one) and
every decision are fixed as logged, and the dealer's cards are every hand the unseen cards can make
(one deck: every set of the cards no seat holds; a shoe: ordered deals from the shoe's counts less
the seats' cards). Each is settled by the rules engine (``tablectl.rules.settle``) on the whole
round -- so the seats' shared dealer hand (their covariance), a player-dealer's limited stake and
every side bet are exact -- and the figure is

    E[(X - theo)^2 | what the players saw] = Var(X | seen) + (E[X | seen] - theo)^2

with X the house result (minus the players' net). Over rounds this is the variance of
``actual - theo`` (its expectation is exactly the variance of X - theo: the second term carries
the luck of the players' own cards, which the theoretical win leaves out). For a table whose every
decision is the strategy's it averages to the optimal-play variance of the round.

Dealer hands that settle alike are settled once: Three Card Poker's by the hand's value (and the
six-card hand's value of each seat with a 6 Card Bonus), One for the Money's by the pair of cards.
Texas Hold'em Bonus and One Card Poker are not covered (None): their unknown cards (the board,
the wars) are not enumerated here.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from fractions import Fraction
from itertools import combinations
from typing import Any

from tablectl.rounds import RoundHands
from tablectl.rules import one_for_the_money as oftm
from tablectl.rules import three_card_poker as tcp
from tablectl.rules import three_card_poker_florida as fl
from tablectl.rules.hand3 import value3
from tablectl.rules.hand7 import best_five
from tablectl.rules.settle import settle

COVERED = (tcp.GAME, fl.GAME, oftm.GAME)

Deal = tuple[tuple[int, ...], int]  # (the dealer's cards, how many deals give a hand settling alike)


def _seats_cards(hands: RoundHands) -> list[int]:
    out: list[int] = []
    for seat in hands.seats:
        if seat.seat == hands.banker_seat:  # a banker's hand is the dealer's, unknown here
            continue
        out += seat.cards
        out += seat.traded
    return out


def _threecard_deals(hands: RoundHands) -> Iterator[Deal]:
    """Every dealer hand from the cards no seat holds, one per class settling alike."""
    held = set(_seats_cards(hands))
    unseen = [c for c in range(52) if c not in held]
    sixes = [s.cards for s in hands.seats if s.wagers.get(tcp.SIX_CARD_BONUS) and s.seat != hands.banker_seat]
    groups: dict[Hashable, list[Any]] = {}
    for dealer in combinations(unseen, 3):
        key: Hashable = value3(dealer)
        if sixes:
            key = (key, *(best_five([*cards, *dealer]) for cards in sixes))
        found = groups.get(key)
        if found is None:
            groups[key] = [dealer, 1]
        else:
            found[1] += 1
    for dealer, n in groups.values():
        yield tuple(dealer), n


def _shoe_deals(hands: RoundHands, decks: int, size: int) -> Iterator[Deal]:
    """Every set of ``size`` dealer cards from a shoe of ``decks`` decks less the seats' cards, each
    with the number of ordered deals giving it."""
    counts = [decks] * 52
    for c in _seats_cards(hands):
        counts[c] -= 1
        if counts[c] < 0:
            raise ValueError(f"card {c} held more often than {decks} deck(s) hold it")
    live = [c for c in range(52) if counts[c]]
    if size != 2:
        raise ValueError(f"shoe deals of {size} cards not enumerated")
    for i, a in enumerate(live):
        if counts[a] > 1:
            yield (a, a), counts[a] * (counts[a] - 1)
        for b in live[i + 1:]:
            yield (a, b), 2 * counts[a] * counts[b]


def deals(hands: RoundHands, decks: int) -> list[Deal] | None:
    """The dealer's possible hands given every seat's cards, with their weights (None: the game's
    unknown cards are not enumerated)."""
    if hands.game in (tcp.GAME, fl.GAME):
        return list(_threecard_deals(hands))
    if hands.game == oftm.GAME:
        return list(_shoe_deals(hands, decks, 2))
    return None


def house_result(hands: RoundHands, rules: Any, dealer: Sequence[int]) -> int:
    """The house's (bank's) result in cents had the dealer held ``dealer``: minus the players' net."""
    saved = hands.dealer
    hands.dealer = list(dealer)
    try:
        return -sum(r.net for r in settle(hands, rules).results)
    finally:
        hands.dealer = saved


def conditional_moments(hands: RoundHands, rules: Any, decks: int) -> tuple[Fraction, Fraction] | None:
    """(E[X], E[X^2]) of the house result X in cents given every seat's cards and decisions, the
    dealer's cards unknown (None: not enumerated for this game)."""
    found = deals(hands, decks)
    if found is None:
        return None
    total = first = second = 0
    for dealer, n in found:
        x = house_result(hands, rules, dealer)
        total += n
        first += n * x
        second += n * x * x
    if not total:
        raise ValueError("no dealer hand agrees with the seats' cards")
    return Fraction(first, total), Fraction(second, total)


def theo_variance(hands: RoundHands, rules: Any, decks: int, theo: Fraction | float) -> float | None:
    """E[(X - theo)^2 | the seats' cards and decisions], cents squared (see the module docstring);
    None where the game's unknown cards are not enumerated."""
    moments = conditional_moments(hands, rules, decks)
    if moments is None:
        return None
    mean, square = moments
    t = Fraction(theo)
    return float(square - 2 * t * mean + t * t)


__all__ = ["COVERED", "conditional_moments", "deals", "house_result", "theo_variance"]
