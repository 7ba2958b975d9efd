"""Three Card Poker, Florida variant: every bet must beat an opponent (no Ante bonus, and the
Pairplus needs the higher hand).

Round input (``RoundHands``): each seat's ``cards`` = its three cards; ``dealer`` = the dealer's
three; ``wagers``: ``ANTE`` and/or ``PAIRPLUS``; ``decisions``: ``[RAISE]`` or ``[FOLD]`` when
there is an Ante. ``PLAY`` (the raise, stake = Ante) is not a wager placed before the deal.

The Ante plays as in Three Card Poker without an Ante bonus (``three_card_poker.showdown`` and
``ante_play_payouts``); the Pairplus pays only a pair or better that beats the dealer's hand.
Settlement runs from the dealer's left; per seat: Ante, Play, Pairplus.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from tablectl.rounds import BetResult, RoundHands, Settlement
from tablectl.rules import seats
from tablectl.rules.coverage import Cover
from tablectl.rules.hand3 import MINI_ROYAL, PAIR, category3, category_name3, value3
from tablectl.rules.houserules import FloridaRules
from tablectl.rules.payout import FOLD, LOSE, PUSH, WIN, Payout, pays, top
from tablectl.rules.three_card_poker import ante_play_payouts, showdown

GAME = "three-card-poker-florida"

ANTE = "ante"
PLAY = "play"
PAIRPLUS = "pairplus"
WAGERS = (ANTE, PAIRPLUS)
BETS = (ANTE, PLAY, PAIRPLUS)

RAISE = "raise"
FOLD_DECISION = "fold"
DECISIONS = (RAISE, FOLD_DECISION)
ANTE_PLAYS = ((RAISE,), (FOLD_DECISION,))
"""A seat's decisions when it has an Ante."""
NO_DECISION = ((),)
"""A seat's decisions without an Ante."""


def pairplus_payout(player: int, dealer: int, rules: FloridaRules) -> Payout:
    """Pairplus: a pair or better that beats the dealer's hand wins the pay table; equal hands of
    a pair or better push; equal hands below a pair follow ``pairplus_tie_below_pair``."""
    made = category3(player) >= PAIR
    if player > dealer and made:
        line = "mini-royal" if player == MINI_ROYAL else category_name3(player)
        return pays(line, rules.pairplus.pays(line))
    if player == dealer and (made or rules.pairplus_tie_below_pair == "push"):
        return PUSH
    return LOSE


def max_bank_pay(wagers: Iterable[Mapping[str, int]], rules: FloridaRules) -> int:
    """The most the bank could pay on ``wagers`` (each seat's wagers placed before the deal,
    cents) whatever the cards and decisions: per seat the Ante and the Play (stake = Ante) won and
    the Pairplus's top line. A bank staking at least this settles exactly as with no limit."""
    best = top(rules.pairplus)
    return sum(2 * WIN.net(s.get(ANTE, 0)) + best.net(s.get(PAIRPLUS, 0)) for s in wagers)


def settle_round(hands: RoundHands, rules: FloridaRules) -> Settlement:
    """Settle a Florida Three Card Poker round (see the module docstring for the input)."""
    dealer = value3(seats.exactly(hands.dealer, 3, "the dealer"))
    cover = Cover(hands.banker_stake if rules.limit_to_banker_stake else None, rules.losses_extend_cover)
    results: list[BetResult] = []
    for seat in seats.players(hands):
        stakes = seats.wagers(seat, WAGERS)
        if not stakes:
            continue
        player = value3(seats.hand(seat, 3))
        folded = False
        if ANTE in stakes:
            folded = seats.decisions(seat, ANTE_PLAYS) == (FOLD_DECISION,)
            ante, play = ante_play_payouts(None if folded else showdown(player, dealer))
            results.append(cover.apply(ante.result(seat.seat, ANTE, stakes[ANTE]), forfeited=folded))
            if play is not None:
                results.append(cover.apply(play.result(seat.seat, PLAY, stakes[ANTE])))
        else:
            seats.decisions(seat, NO_DECISION)
        if PAIRPLUS in stakes:
            if folded and rules.fold_forfeits_pairplus:
                results.append(cover.apply(FOLD.result(seat.seat, PAIRPLUS, stakes[PAIRPLUS]), forfeited=True))
            else:
                payout = pairplus_payout(player, dealer, rules)
                results.append(cover.apply(payout.result(seat.seat, PAIRPLUS, stakes[PAIRPLUS])))
    return Settlement(results)
