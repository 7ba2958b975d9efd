"""The deal both Three Card Poker games share: from a hand-forming shuffler, a three-card packet
face down to each player seat clockwise, then one to the dealer (or player-dealer); the rest of
the deck discarded; each player with an Ante decides from the dealer's left (a player with no
Ante has no decision); the dealer's hand turned up, then every hand that did not fold.

Each game names its own decisions (``tablectl.games.three_card_poker`` and
``three_card_poker_florida``); settlement is the rules engine's.
"""

from __future__ import annotations

from collections.abc import Callable

from tablectl.games.procedure import (
    DEALER,
    Discard,
    RoundContext,
    Script,
    deal_steps,
    decide,
    reveal,
    seat_positions,
)
from tablectl.rounds import RoundHands, SeatHand

HAND = 3


def three_card_script(game: str, ante: str, options: tuple[str, str]) -> Callable[[RoundContext], Script]:
    """The round script of a Three Card Poker game whose players choose between ``options``
    (``(play-or-raise, fold)``) when they have an ``ante`` wager."""
    fold = options[1]

    def script(ctx: RoundContext) -> Script:
        players = ctx.seats
        positions = seat_positions(players)
        dealt = yield deal_steps((*positions, DEALER), False, HAND)
        hands = {s: SeatHand(s, list(dealt[i * HAND : (i + 1) * HAND])) for i, s in enumerate(players)}
        dealer = list(dealt[-HAND:])
        if ctx.packets:
            yield Discard()

        for seat in players:
            if ctx.has_bet(seat, ante):
                hands[seat].decisions.append((yield decide(seat, options)))

        yield reveal(DEALER)
        for seat, position in zip(players, positions):
            if hands[seat].decisions != [fold]:
                yield reveal(position)
        return RoundHands(game, [hands[s] for s in players], dealer=dealer)

    return script


def three_card_budget(seats: int, rules: object) -> int:
    """Cards a round takes: a hand for each player and the dealer."""
    return HAND * (seats + 1)
