"""Texas Hold'em Bonus: the table procedure.

- One 52-card deck: from a hand-forming shuffler (two-card packets to each seat, then the
  dealer's, then the board as packets) or hand-dealt from a card-reading shoe loaded with one
  deck (two rounds of one card to each seat clockwise and the dealer).
- Hole cards are face down. Each player: Flop bet (2x Ante) or fold. Flop: three board cards.
  Each player still in: Turn bet or check; the turn card. River bet or check; the river card.
- Burns: none by default (the published rules name none). House rule
  ``burn_before_community`` adds one burn before each of flop, turn and river (common practice).
- If every seat folds, no board is dealt.
- The dealer's hole cards are turned up, then the hands still in.

Settlement (best five of seven, the Ante from a straight, the Bonus on the hole cards) is
``tablectl.rules.texas_holdem_bonus``.
"""

from __future__ import annotations

from dataclasses import dataclass

from tablectl.games.procedure import (
    BOARD,
    BURN_HOUSE_RULE,
    DEALER,
    Discard,
    GameDef,
    Phase,
    RoundContext,
    Script,
    burn_steps,
    deal_steps,
    decide,
    no_burns,
    reveal,
    seat_positions,
    seat_to,
)
from tablectl.rounds import RoundHands, SeatHand
from tablectl.rules.texas_holdem_bonus import ANTE, CHECK, FLOP, FOLD_DECISION, GAME, RIVER, TURN, WAGERS

HOLE = 2
#: each street: the options of the decision every seat still in makes before it, its board cards
_STREETS = (((FLOP, FOLD_DECISION), 3), ((TURN, CHECK), 1), ((RIVER, CHECK), 1))


@dataclass(frozen=True, slots=True)
class TexasHoldemBonusProcedure:
    """``burn_before_community``: one burn before each of flop, turn and river (False: the
    published rules name no burns)."""

    burn_before_community: bool = False


def _community(ctx: RoundContext, count: int) -> Phase:
    burn: Phase = burn_steps(BURN_HOUSE_RULE, 1) if ctx.rules.burn_before_community else ()
    return burn + deal_steps((BOARD,), True, count)


def script(ctx: RoundContext) -> Script:
    """The deal of one Texas Hold'em Bonus round."""
    players = ctx.seats
    seat_places = seat_positions(players)
    positions = (*seat_places, DEALER)
    if ctx.packets:
        dealt = yield deal_steps(positions, False, HOLE)
        held = {p: list(dealt[i * HOLE : (i + 1) * HOLE]) for i, p in enumerate(positions)}
    else:
        dealt = yield deal_steps(positions * HOLE, False)
        n = len(positions)
        held = {p: [dealt[i], dealt[n + i]] for i, p in enumerate(positions)}
    hands = {s: SeatHand(s, held[p]) for s, p in zip(players, seat_places)}

    board: list[int] = []
    still_in = list(players)
    for options, count in _STREETS:
        for seat in still_in:
            hands[seat].decisions.append((yield decide(seat, options)))
        still_in = [s for s in still_in if hands[s].decisions != [FOLD_DECISION]]
        if not still_in:
            break
        dealt = yield _community(ctx, count)
        board += dealt[-count:]

    if ctx.packets:
        yield Discard()
    yield reveal(DEALER)
    for seat in still_in:
        yield reveal(seat_to(seat))
    return RoundHands(GAME, [hands[s] for s in players], dealer=held[DEALER], board=board)


GAME_DEF = GameDef(
    id=GAME,
    title="Texas Hold'em Bonus",
    devices=("shuffler", "shoe"),
    decks=(1,),
    max_seats=7,
    banker=None,
    bank_every=0,
    wagers=WAGERS,
    required=(ANTE,),
    limited=(ANTE,),
    procedure=TexasHoldemBonusProcedure,
    script=script,
    shuffle_burns=no_burns,
    dealer_change_burns=no_burns,
    round_budget=lambda seats, rules: HOLE * (seats + 1) + 5 + (3 if rules.burn_before_community else 0),
)
