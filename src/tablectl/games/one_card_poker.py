"""One Card Poker: the table procedure.

- 6 decks from a card-reading shoe (a continuous shuffler if the config says so).
- One burn right after every shuffle and at every dealer change.
- A Designated Player (DP) banks; the button moves clockwise every hand to the next seat that
  wants it (Florida 61D-11.002(5)(b)). The DP plays no player hand.
- Deal: one card face up to each player seat clockwise, then one to the DP (house rule
  ``dp_card``: "last", since the published rules do not order the first deal and the war deals
  the player's card before the DP's; "first" reverses it).
- Rank ties are resolved one at a time from the dealer's right to left: the player surrenders
  or extends; if the player extends the DP matches or declines; each war is burn 3, a card to
  the player, burn 3, a card to the DP, repeated until the ranks differ.

Settlement (primary, war, tie) is ``tablectl.rules.one_card_poker``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from tablectl.games.procedure import (
    BURN_WAR,
    DP,
    GameDef,
    Phase,
    RoundContext,
    Script,
    burn_steps,
    deal_steps,
    decide,
    seat_positions,
    seat_to,
)
from tablectl.rounds import RoundHands, SeatHand
from tablectl.rules.hand1 import compare1
from tablectl.rules.one_card_poker import (
    DP_DECLINES,
    EXTEND,
    GAME,
    PRIMARY,
    SURRENDER,
    WAGERS,
)

PLAYER_OPTIONS = (EXTEND, SURRENDER)
DP_OPTIONS = (EXTEND, DP_DECLINES)


@dataclass(frozen=True, slots=True)
class OneCardPokerProcedure:
    """Procedure house rules. ``dp_card``: the DP's card after the players' ("last": the
    published rules leave the first deal's order open, and a war deals the player's card first)
    or before them ("first"). ``shuffle_burns`` / ``dealer_change_burns`` / ``war_burns``: burns
    after a shuffle, at a dealer change, and before each war card (the published rules: 1, 1,
    3). ``war_reserve``: wars a normal round is allowed for when the penetration cap decides the
    last round (3)."""

    dp_card: Literal["last", "first"] = "last"
    shuffle_burns: int = 1
    dealer_change_burns: int = 1
    war_burns: int = 3
    war_reserve: int = 3


@lru_cache(maxsize=256)
def first_deal(players: tuple[int, ...], dp_card: str) -> Phase:
    """A card face up to each player seat clockwise, and one to the DP: after the players' when
    ``dp_card`` is "last", else before them (a round start looks the phase up, once)."""
    seats = seat_positions(players)
    return deal_steps((*seats, DP) if dp_card == "last" else (DP, *seats))


@lru_cache(maxsize=256)
def war_steps(seat: int, burns: int) -> Phase:
    """One war: ``burns`` burns, a card to the player's seat, ``burns`` burns, a card to the DP."""
    burned = burn_steps(BURN_WAR, burns)
    return burned + deal_steps((seat_to(seat),)) + burned + deal_steps((DP,))


def script(ctx: RoundContext) -> Script:
    """The deal of one One Card Poker round."""
    rules: OneCardPokerProcedure = ctx.rules
    players = ctx.seats
    dp_card = rules.dp_card
    dealt = yield first_deal(players, dp_card)
    if dp_card == "last":
        dp = dealt[-1]
        cards = dealt  # zip stops before the DP's card
    else:
        dp = dealt[0]
        cards = dealt[1:]
    hands = [SeatHand(s, [c]) for s, c in zip(players, cards)]
    dp_rank = dp >> 2

    for hand in reversed(hands):  # ties one at a time, from the dealer's right to left
        if hand.cards[0] >> 2 != dp_rank:  # compare1(card, dp) != 0, without the call
            continue
        seat = hand.seat
        choice = yield decide(seat, PLAYER_OPTIONS)
        hand.decisions.append(choice)
        if choice == SURRENDER:
            continue
        assert ctx.banker is not None
        dp_choice = yield decide(ctx.banker, DP_OPTIONS, True)  # the banker's decision
        if dp_choice == DP_DECLINES:
            hand.decisions.append(DP_DECLINES)
            continue
        while True:
            war = yield war_steps(seat, rules.war_burns)
            pair = (war[rules.war_burns], war[-1])
            hand.war.append(pair)
            if compare1(*pair) != 0:
                break

    return RoundHands(GAME, hands, [dp])  # the DP's card as the dealer's


def round_budget(seats: int, rules: OneCardPokerProcedure) -> int:
    """A card per seat and the DP's, and ``war_reserve`` wars."""
    return seats + 1 + rules.war_reserve * 2 * (rules.war_burns + 1)


GAME_DEF = GameDef(
    id=GAME,
    title="One Card Poker",
    devices=("shoe", "csm"),
    decks=(6,),
    max_seats=7,
    banker="dp",
    bank_every=1,
    wagers=WAGERS,
    required=(PRIMARY,),
    limited=(PRIMARY,),
    procedure=OneCardPokerProcedure,
    script=script,
    shuffle_burns=lambda rules: rules.shuffle_burns,
    dealer_change_burns=lambda rules: rules.dealer_change_burns,
    round_budget=round_budget,
)
