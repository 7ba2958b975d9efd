"""One for the Money: the table procedure.

- Six or eight decks, from a continuous shuffler (preferred) or a shoe (penetration cap 90%).
- Deal: one card face up to each player seat clockwise, then two face down to the dealer.
- Each player in turn, clockwise: check, raise, or trade; a trade sends the player's card to the
  discards and the next card replaces it, after which the player stands or raises.
- The dealer turns both cards up and plays the higher.

Settlement (Ante, Trade, Raise, the side bet) is ``tablectl.rules.one_for_the_money``.
"""

from __future__ import annotations

from dataclasses import dataclass

from tablectl.games.procedure import (
    DEALER,
    GameDef,
    RoundContext,
    Script,
    Trade,
    deal_steps,
    decide,
    no_burns,
    reveal,
    seat_positions,
    seat_to,
)
from tablectl.rounds import RoundHands, SeatHand
from tablectl.rules.one_for_the_money import ANTE, CHECK, GAME, RAISE, STAND, TRADE, WAGERS

FIRST_OPTIONS = (CHECK, RAISE, TRADE)
AFTER_TRADE = (STAND, RAISE)


@dataclass(frozen=True, slots=True)
class OneForTheMoneyProcedure:
    """Procedure house rules: none beyond the published rules (kept for a uniform config)."""


def script(ctx: RoundContext) -> Script:
    """The deal of one One for the Money round."""
    players = ctx.seats
    dealt = yield deal_steps(seat_positions(players)) + deal_steps((DEALER,), False, 2)
    hands = {s: SeatHand(s, [c]) for s, c in zip(players, dealt)}
    dealer = list(dealt[-2:])

    for seat in players:
        hand = hands[seat]
        choice = yield decide(seat, FIRST_OPTIONS)
        hand.decisions.append(choice)
        if choice != TRADE:
            continue
        yield Trade(seat, hand.cards[0])
        hand.traded.append(hand.cards[0])
        (hand.cards[0],) = yield deal_steps((seat_to(seat),))
        hand.decisions.append((yield decide(seat, AFTER_TRADE)))

    yield reveal(DEALER)
    return RoundHands(GAME, [hands[s] for s in players], dealer=dealer)


GAME_DEF = GameDef(
    id=GAME,
    title="One for the Money",
    devices=("csm", "shoe"),
    decks=(6, 8),
    max_seats=7,
    banker=None,
    bank_every=0,
    wagers=WAGERS,
    required=(ANTE,),
    limited=(ANTE,),
    procedure=OneForTheMoneyProcedure,
    script=script,
    shuffle_burns=no_burns,
    dealer_change_burns=no_burns,
    round_budget=lambda seats, rules: 2 * seats + 2,
)
