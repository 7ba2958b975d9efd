"""Three Card Poker, Florida variant (GAMES.md section 4; seeds/three-card-poker-florida.txt).

- One 52-card deck in a hand-forming shuffler: three cards face down to each player seat
  clockwise, then three face down to the dealer; the rest of the deck is discarded.
- Each player with an Ante folds or raises (Play = Ante), from the dealer's left; a player with
  only a Pairplus has no decision.
- The dealer turns the hand up, then the hands still in.

Settlement (qualifying with queen-high, Pairplus only when beating the dealer, the tie below a
pair house rule) is ``tablectl.rules.three_card_poker_florida``.
"""

from __future__ import annotations

from dataclasses import dataclass

from tablectl.games.procedure import (
    DEALER,
    Deal,
    Decide,
    Discard,
    GameDef,
    Reveal,
    RoundContext,
    Script,
    no_burns,
    seat_to,
)
from tablectl.rounds import RoundHands, SeatHand
from tablectl.rules.three_card_poker_florida import ANTE, FOLD_DECISION, GAME, PAIRPLUS, RAISE, WAGERS

OPTIONS = (RAISE, FOLD_DECISION)
HAND = 3


@dataclass(frozen=True, slots=True)
class FloridaProcedure:
    """Procedure house rules: none beyond the sheet's (kept for a uniform config)."""


def script(ctx: RoundContext) -> Script:
    """The deal of one Florida Three Card Poker round."""
    players = ctx.seats
    steps = tuple(Deal(seat_to(s), face_up=False) for s in players for _ in range(HAND))
    dealt = yield steps + tuple(Deal(DEALER, face_up=False) for _ in range(HAND))
    hands = {s: SeatHand(s, list(dealt[i * HAND : (i + 1) * HAND])) for i, s in enumerate(players)}
    dealer = list(dealt[-HAND:])
    if ctx.packets:
        yield Discard()

    for seat in players:
        if ctx.has_bet(seat, ANTE):
            hands[seat].decisions.append((yield Decide(seat, OPTIONS)))

    yield Reveal(DEALER)
    for seat in players:
        if hands[seat].decisions != [FOLD_DECISION]:
            yield Reveal(seat_to(seat))
    return RoundHands(GAME, [hands[s] for s in players], dealer=dealer)


GAME_DEF = GameDef(
    id=GAME,
    title="Three Card Poker (Florida)",
    devices=("shuffler",),
    decks=(1,),
    max_seats=7,
    banker=None,
    bank_every=0,
    wagers=WAGERS,
    required=(ANTE, PAIRPLUS),
    limited=(ANTE, PAIRPLUS),
    procedure=FloridaProcedure,
    script=script,
    shuffle_burns=no_burns,
    dealer_change_burns=no_burns,
    round_budget=lambda seats, rules: HAND * (seats + 1),
)
