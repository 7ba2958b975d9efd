"""Three Card Poker, Florida variant: the table procedure.

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

from tablectl.games.procedure import GameDef, no_burns
from tablectl.games.three_card import three_card_budget, three_card_script
from tablectl.rules.three_card_poker_florida import ANTE, FOLD_DECISION, GAME, PAIRPLUS, RAISE, WAGERS

OPTIONS = (RAISE, FOLD_DECISION)


@dataclass(frozen=True, slots=True)
class FloridaProcedure:
    """Procedure house rules: none beyond the published rules (kept for a uniform config)."""


script = three_card_script(GAME, ANTE, OPTIONS)


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
    round_budget=three_card_budget,
)
