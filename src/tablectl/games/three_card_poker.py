"""Three Card Poker, player-banked (GAMES.md section 2; seeds/three-card-poker-player-banked.txt).

- One 52-card deck in a hand-forming shuffler: a three-card packet to each player seat
  clockwise, then one to the player-dealer's position; then the rest of the deck is discarded
  from the shuffler (dealing procedure 3). Up to eight players.
- A player-dealer banks; the bank moves clockwise after every two hands (round of play 10).
- Every hand is dealt face down; each player looks at their own. From the dealer's left,
  clockwise, each player with an Ante plays (Play = Ante) or folds (round of play 3).
- The player-dealer's hand is turned up, then the hands that played (round of play 5-6).

Settlement (qualifying, Ante bonus, Pair Plus, 6 Card Bonus, the banker's coverage) is
``tablectl.rules.three_card_poker``.
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
from tablectl.rules.three_card_poker import ANTE, FOLD_DECISION, GAME, PLAY_DECISION, WAGERS

OPTIONS = (PLAY_DECISION, FOLD_DECISION)
HAND = 3


@dataclass(frozen=True, slots=True)
class ThreeCardPokerProcedure:
    """Procedure house rules: none beyond the sheet's (kept for a uniform config)."""


def script(ctx: RoundContext) -> Script:
    """The deal of one player-banked Three Card Poker round."""
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
    title="Three Card Poker (player-banked)",
    devices=("shuffler",),
    decks=(1,),
    max_seats=8,
    banker="player-dealer",
    bank_every=2,
    wagers=WAGERS,
    required=(ANTE,),
    limited=(ANTE,),
    procedure=ThreeCardPokerProcedure,
    script=script,
    shuffle_burns=no_burns,
    dealer_change_burns=no_burns,
    round_budget=lambda seats, rules: HAND * (seats + 1),
)
