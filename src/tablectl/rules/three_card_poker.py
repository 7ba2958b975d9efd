"""Three Card Poker, player-banked: a player-dealer banks, one 52-card deck, up to eight players.

Round input (``RoundHands``): each seat's ``cards`` = its three cards; ``dealer`` = the
player-dealer's three; ``banker_seat`` / ``banker_stake`` = the player-dealer's seat and stake;
``wagers``: ``ANTE`` (required by the game), optionally ``PAIRPLUS`` and ``SIX_CARD_BONUS``;
``decisions``: ``[PLAY_DECISION]`` ("play") or ``[FOLD_DECISION]`` ("fold") when there is an
Ante. ``PLAY`` (stake = Ante) and ``ANTE_BONUS`` (paid on the Ante stake) are not wagers placed
before the deal.

Settlement runs from the dealer's left (seat 1 first); per seat: Ante, Play, Pair Plus, 6 Card
Bonus, then the Ante bonus (the published order is the Ante, the Play, the Pair Plus, the 6 Card
Bonus, "and the Ante wager": that last, paid on the Ante stake, is the Ante bonus). Payouts are
limited to the player-dealer's stake (``ThreeCardPokerRules.limit_to_banker_stake``).

``showdown`` and ``ante_play_payouts`` are shared with the Florida variant.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from tablectl.rounds import BetResult, RoundHands, Settlement
from tablectl.rules import hand7, seats
from tablectl.rules.coverage import Cover
from tablectl.rules.hand3 import (
    FLUSH,
    PAIR,
    QUEEN_HIGH,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    category3,
    value3,
)
from tablectl.rules.hand7 import ROYAL_FLUSH, best_five, category5
from tablectl.rules.houserules import ThreeCardPokerRules
from tablectl.rules.payout import FOLD, LOSE, PUSH, WIN, Payout, pays, top
from tablectl.rules.paytables import AnteBonusTable, PairPlusTable, SixCardBonusTable

GAME = "three-card-poker"

ANTE = "ante"
PLAY = "play"
PAIRPLUS = "pairplus"
SIX_CARD_BONUS = "six-card-bonus"
ANTE_BONUS = "ante-bonus"
WAGERS = (ANTE, PAIRPLUS, SIX_CARD_BONUS)
BETS = (ANTE, PLAY, PAIRPLUS, SIX_CARD_BONUS, ANTE_BONUS)

FOLD_DECISION = "fold"
PLAY_DECISION = PLAY
DECISIONS = (PLAY_DECISION, FOLD_DECISION)
ANTE_PLAYS = ((PLAY_DECISION,), (FOLD_DECISION,))
"""A seat's decisions when it has an Ante."""
NO_DECISION = ((),)
"""A seat's decisions without an Ante."""

NOT_QUALIFIED = "dealer-not-qualified"
SHOWDOWNS = (NOT_QUALIFIED, "win", "push", "lose")

_LINES3 = {
    STRAIGHT_FLUSH: "straight-flush",
    THREE_OF_A_KIND: "three-of-a-kind",
    STRAIGHT: "straight",
    FLUSH: "flush",
    PAIR: "pair",
}
_BONUS_LINES = {c: _LINES3[c] for c in (STRAIGHT_FLUSH, THREE_OF_A_KIND, STRAIGHT)}
_LINES5 = {
    hand7.STRAIGHT_FLUSH: "straight-flush",
    hand7.FOUR_OF_A_KIND: "four-of-a-kind",
    hand7.FULL_HOUSE: "full-house",
    hand7.FLUSH: "flush",
    hand7.STRAIGHT: "straight",
    hand7.THREE_OF_A_KIND: "three-of-a-kind",
}


_EVEN_MONEY = {"win": WIN, "push": PUSH, "lose": LOSE}


def showdown(player: int, dealer: int) -> str:
    """A played hand against the dealer's (three-card values): ``"dealer-not-qualified"`` below
    queen-high, else ``"win"``, ``"push"`` or ``"lose"``."""
    if dealer < QUEEN_HIGH:
        return NOT_QUALIFIED
    return "win" if player > dealer else "lose" if player < dealer else "push"


def ante_play_payouts(result: str | None) -> tuple[Payout, Payout | None]:
    """Ante and Play for a showdown result (``None``: the player folded, and has no Play)."""
    if result is None:
        return FOLD, None
    if result == NOT_QUALIFIED:
        return WIN, PUSH
    both = _EVEN_MONEY[result]
    return both, both


def ante_bonus_payout(player: int, table: AnteBonusTable) -> Payout | None:
    """The Ante bonus of a hand that played (``None`` when the hand earns none)."""
    line = _BONUS_LINES.get(category3(player))
    return pays(line, table.pays(line)) if line else None


def pairplus_payout(player: int, table: PairPlusTable) -> Payout:
    """Pair Plus on the player's three cards alone."""
    line = _LINES3.get(category3(player))
    return pays(line, table.pays(line)) if line else LOSE


def six_card_bonus_payout(best: int, table: SixCardBonusTable) -> Payout:
    """The 6 Card Bonus on the best five-card value of the player's and player-dealer's cards."""
    line = "royal-flush" if best == ROYAL_FLUSH else _LINES5.get(category5(best))
    return pays(line, table.pays(line)) if line else LOSE


def max_bank_pay(wagers: Iterable[Mapping[str, int]], rules: ThreeCardPokerRules) -> int:
    """The most the player-dealer could pay on ``wagers`` (each seat's wagers placed before the
    deal, cents) whatever the cards and decisions: per seat the Ante won, the Play (stake = Ante)
    won and the Ante bonus's top line, the Pair Plus's and the 6 Card Bonus's top lines. A bank
    staking at least this settles exactly as with no limit."""
    ante_bonus, pairplus, six = (top(t) for t in (rules.ante_bonus, rules.pairplus, rules.six_card_bonus))
    total = 0
    for stakes in wagers:
        ante = stakes.get(ANTE, 0)
        total += 2 * WIN.net(ante) + ante_bonus.net(ante)
        total += pairplus.net(stakes.get(PAIRPLUS, 0)) + six.net(stakes.get(SIX_CARD_BONUS, 0))
    return total


def settle_round(hands: RoundHands, rules: ThreeCardPokerRules) -> Settlement:
    """Settle a player-banked Three Card Poker round (see the module docstring for the input)."""
    dealer_cards = seats.exactly(hands.dealer, 3, "the player-dealer")
    dealer = value3(dealer_cards)
    cover = Cover(hands.banker_stake if rules.limit_to_banker_stake else None, rules.losses_extend_cover)
    results: list[BetResult] = []
    for seat in seats.players(hands):
        stakes = seats.wagers(seat, WAGERS)
        if not stakes:
            continue
        n = seat.seat
        cards = seats.hand(seat, 3)
        player = value3(cards)
        folded = False
        if ANTE in stakes:
            folded = seats.decisions(seat, ANTE_PLAYS) == (FOLD_DECISION,)
        else:
            seats.decisions(seat, NO_DECISION)

        if ANTE in stakes:
            ante = stakes[ANTE]
            ante_payout, play = ante_play_payouts(None if folded else showdown(player, dealer))
            results.append(cover.apply(ante_payout.result(n, ANTE, ante), forfeited=folded))
            if play is not None:
                results.append(cover.apply(play.result(n, PLAY, ante)))
        if PAIRPLUS in stakes:
            if folded and rules.fold_forfeits_pairplus:
                results.append(cover.apply(FOLD.result(n, PAIRPLUS, stakes[PAIRPLUS]), forfeited=True))
            else:
                payout = pairplus_payout(player, rules.pairplus)
                results.append(cover.apply(payout.result(n, PAIRPLUS, stakes[PAIRPLUS])))
        if SIX_CARD_BONUS in stakes:
            if folded and rules.fold_forfeits_six_card_bonus:
                results.append(cover.apply(FOLD.result(n, SIX_CARD_BONUS, stakes[SIX_CARD_BONUS]), forfeited=True))
            else:
                payout = six_card_bonus_payout(best_five(cards + dealer_cards), rules.six_card_bonus)
                results.append(cover.apply(payout.result(n, SIX_CARD_BONUS, stakes[SIX_CARD_BONUS])))
        if ANTE in stakes and not folded:
            bonus = ante_bonus_payout(player, rules.ante_bonus)
            if bonus is not None:
                results.append(cover.apply(bonus.result(n, ANTE_BONUS, stakes[ANTE])))
    return Settlement(results)
