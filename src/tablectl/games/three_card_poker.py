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

from tablectl.games.procedure import GameDef, no_burns
from tablectl.games.three_card import three_card_budget, three_card_script
from tablectl.rules.three_card_poker import ANTE, FOLD_DECISION, GAME, PLAY_DECISION, WAGERS

OPTIONS = (PLAY_DECISION, FOLD_DECISION)


@dataclass(frozen=True, slots=True)
class ThreeCardPokerProcedure:
    """Procedure house rules: none beyond the sheet's (kept for a uniform config)."""


script = three_card_script(GAME, ANTE, OPTIONS)


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
    round_budget=three_card_budget,
)
