"""Three Card Poker, player-banked: the table procedure.

- One 52-card deck in a hand-forming shuffler: a three-card packet to each player seat
  clockwise, then one to the player-dealer's position; then the rest of the deck is discarded
  from the shuffler. Up to eight players.
- A player-dealer banks; the bank moves clockwise after every two hands.
- Every hand is dealt face down; each player looks at their own. From the dealer's left,
  clockwise, each player with an Ante plays (Play = Ante) or folds.
- The player-dealer's hand is turned up, then the hands that played.

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
    """Procedure house rules: none beyond the published rules (kept for a uniform config)."""


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
