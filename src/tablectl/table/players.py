"""The virtual dealer's players: each decision by the strategy the game math assumes, with an
optional error rate.

The optimal play (:func:`optimal`):

- Three Card Poker and its Florida variant: play (raise) with Q-6-4 or better, fold otherwise
  (``gamemath.three_card_poker.raises``);
- One Card Poker: extend every tie, and the Designated Player accepts every war (the analysis of
  ``gamemath.one_card_poker.primary_extend``);
- One for the Money: the exact optimal strategy of ``gamemath.one_for_the_money.Strategy`` for
  the shoe's deck count (check, raise or trade on the first card; stand or raise after a trade);
- Texas Hold'em Bonus: the main game's optimal strategy is a minutes-long computation the table
  does not run, so these players decide at random among the legal options (the floor judges
  that game's main wager only where its analysis exists).

The error model (:class:`Players`): each decision is, with probability ``errors``, one of the
other legal options chosen uniformly at random instead of the optimal one; errors are independent
from decision to decision. A decision whose cards the dealer does not know (a misread card) is
random.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from tablectl.gamemath import one_for_the_money as oftm_math
from tablectl.gamemath import three_card_poker as tcp_math
from tablectl.rules import one_card_poker as ocp
from tablectl.rules import one_for_the_money as oftm
from tablectl.rules.hand3 import value3

THREE_CARD = ("three-card-poker", "three-card-poker-florida")


@cache
def _oftm_strategy(decks: int) -> oftm_math.Strategy:
    return oftm_math.Strategy(decks)


def optimal(game: str, options: Sequence[str], cards: Sequence[int], decks: int) -> str | None:
    """The optimal choice among ``options`` for a seat dealt ``cards`` this round, in the order
    dealt (One for the Money after a trade: the traded card, then the new one) at ``game`` from
    ``decks`` decks. None: no strategy for this decision (the caller chooses)."""
    if game in THREE_CARD:
        if len(cards) != 3:
            return None
        return options[0] if tcp_math.raises(value3(sorted(cards))) else options[1]
    if game == "one-card-poker":
        return ocp.EXTEND if ocp.EXTEND in options else None
    if game == "one-for-the-money" and cards:
        strategy = _oftm_strategy(decks)
        rank = cards[-1] >> 2
        if oftm.TRADE in options:  # the first decision: keep (check or raise) or trade
            keep = strategy.first[rank]
            return oftm.TRADE if keep is None else keep[0]
        if len(cards) < 2:
            return None
        return strategy.after[cards[0] >> 2][rank][1]
    return None


class Players:
    """The players at one table: :meth:`decide` for each decision the table asks of a seat
    (seeded by the ``rng`` given)."""

    def __init__(self, game: str, decks: int, rng: random.Random, *, errors: float = 0.0) -> None:
        if not 0.0 <= errors <= 1.0:
            raise ValueError(f"player error rate {errors!r}: not between 0 and 1")
        self.game = game
        self.decks = decks
        self.rng = rng
        self.errors = errors

    def decide(self, options: Sequence[str], cards: Sequence[int | None]) -> str:
        """One of ``options`` for a seat dealt ``cards`` this round (None: a card not known)."""
        known = [c for c in cards if c is not None]
        best = optimal(self.game, options, known, self.decks)
        guess = self.rng.choice(list(options))  # drawn always: a seed deals the same cards and bets whatever the strategy
        if best is None:
            return guess
        others = [o for o in options if o != best]
        if others and self.errors > 0 and self.rng.random() < self.errors:
            return self.rng.choice(others)
        return best
