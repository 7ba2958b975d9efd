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

Seats given a profile (``tablectl.table.simulated.profiles``: basic, recreational, hole-card, edge-sort,
team) decide instead from the exact option values of ``gamemath.decisions.value`` and what their
profile sees; their own random draws (the recreational player's choice, whether a part-time
hole-carder sees the card this round) come from a generator of their own, so a seed gives the
same shuffles and bets with or without profiles (a decision that takes cards -- a trade, a war --
still changes which cards follow). Each profiled decision is reported to ``on_decision``
(the simulation's truth, ``tablectl.table.simulated.truth``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from tablectl.gamemath import one_for_the_money as oftm_math
from tablectl.gamemath import three_card_poker as tcp_math
from tablectl.games.procedure import BOARD, DEALER, DP
from tablectl.rules import one_card_poker as ocp
from tablectl.rules import one_for_the_money as oftm
from tablectl.rules.hand3 import value3
from tablectl.table.simulated.profiles import HIDDEN, Profile, choose, sight_for

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
    (seeded by the ``rng`` given); ``profiles``: seats that play a profile."""

    def __init__(
        self, game: str, decks: int, rng: random.Random, *, errors: float = 0.0,
        profiles: Mapping[int, Profile] | None = None, rules: Any = None, profile_seed: int | None = None,
        on_decision: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        if not 0.0 <= errors <= 1.0:
            raise ValueError(f"player error rate {errors!r}: not between 0 and 1")
        self.game = game
        self.decks = decks
        self.rng = rng
        self.errors = errors
        self.profiles = dict(profiles or {})
        self.rules = rules
        self.profile_rng = random.Random(profile_seed)
        self.on_decision = on_decision
        self.round: int | None = None
        self.hidden: dict[int, bool] = {}
        self._made: dict[int, list[str]] = {}

    def new_round(self, number: int) -> None:
        """A round starts: draw, per profiled seat, whether it has its hidden information."""
        self.round = number
        self._made = {}
        self.hidden = {seat: p.kind in HIDDEN and self.profile_rng.random() < p.share
                       for seat, p in sorted(self.profiles.items())}

    def decide(self, options: Sequence[str], cards: Sequence[int | None], *, seat: int | None = None,
               table: Mapping[str, Sequence[int | None]] | None = None) -> str:
        """One of ``options`` for a seat dealt ``cards`` this round (None: a card not known);
        ``table``: every position's cards dealt so far (what a profile may see)."""
        known = [c for c in cards if c is not None]
        best = optimal(self.game, options, known, self.decks)
        guess = self.rng.choice(list(options))  # drawn always: a seed deals the same cards and bets whatever the strategy
        others = [o for o in options if o != best] if best is not None else []
        wrong = bool(others) and self.errors > 0 and self.rng.random() < self.errors  # drawn as without profiles
        profile = self.profiles.get(seat) if seat is not None else None
        choice = None
        if profile is not None and len(known) == len(cards) and known:
            choice = self._profiled(profile, options, known, table or {})
        if choice is None:
            choice = guess if best is None else self.rng.choice(others) if wrong else best
        if profile is not None:
            self._made.setdefault(profile.seat, []).append(choice)
        return choice

    def _profiled(self, profile: Profile, options: Sequence[str], own: list[int],
                  table: Mapping[str, Sequence[int | None]]) -> str | None:
        from tablectl.cards import text
        from tablectl.gamemath.decisions.value import DecisionError, decision_values

        team = [c for s, p in self.profiles.items() if p.kind == "team" and s != profile.seat and profile.kind == "team"
                for c in table.get(f"seat:{s}", []) if c is not None]
        made = self._made.get(profile.seat, [])
        if self.game == oftm.GAME and len(own) == 2:
            made = [oftm.TRADE]
        hidden = self.hidden.get(profile.seat, False)
        exposed = self.game == ocp.GAME  # a tie is decided with the DP's card face up
        dealer = list(table.get(DP, [])[:1]) if exposed else list(table.get(DEALER, []))
        sight = sight_for(profile, own=own, board=[c for c in table.get(BOARD, []) if c is not None],
                          dealer=dealer, team=team, made=made, hidden=hidden, dealer_exposed=exposed)
        try:
            values = decision_values(self.game, tuple(options), sight, self.rules, self.decks)
        except DecisionError:
            return None
        choice = choose(profile, values, self.profile_rng)
        if choice is not None and self.on_decision is not None:
            self.on_decision({
                "round": self.round, "seat": profile.seat, "profile": profile.label(), "hidden": hidden,
                "saw": [c if c is None or isinstance(c, str) else text(c) for c in sight.dealer],
                "partners": sorted(s for s, p in self.profiles.items() if p.kind == "team" and s != profile.seat)
                if profile.kind == "team" else [],
                "options": list(options), "chose": choice, "best": values.best,
                "values": {o: str(v) for o, v in values.values.items()},
            })
        return choice
