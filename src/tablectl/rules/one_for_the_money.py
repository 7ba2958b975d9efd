"""One for the Money.

Round input (``RoundHands``): each seat's ``cards`` = [its final card] (after any trade),
``traded`` = [the card it gave up] when it traded; ``dealer`` = the dealer's two cards;
``wagers``: ``ANTE`` and, optionally, ``BONUS`` (the table's side bet: 3 Card Bonus or Perfect
Match, per ``OneForTheMoneyRules.side_bet``); ``decisions``: ``[CHECK]``, ``[RAISE]``,
``[TRADE, STAND]`` or ``[TRADE, RAISE]``. ``TRADE_BET`` and ``RAISE_BET`` (each 1x Ante) are not
wagers placed before the deal.

The dealer plays the higher of the two cards. Settlement runs from the dealer's right to left
(highest seat first); per seat: Ante, Trade, Raise, Bonus.
"""

from __future__ import annotations

from collections.abc import Sequence

from tablectl.rounds import BetResult, RoundHands, Settlement
from tablectl.rules import seats
from tablectl.rules.errors import SettlementError
from tablectl.rules.hand3 import FLUSH, STRAIGHT, STRAIGHT_FLUSH, THREE_OF_A_KIND, category3, category_name3, value3
from tablectl.rules.houserules import OneForTheMoneyRules
from tablectl.rules.payout import LOSE, Payout, by_sign, pays
from tablectl.rules.paytables import PerfectMatchTable, ThreeCardBonusTable

GAME = "one-for-the-money"

ANTE = "ante"
BONUS = "bonus"
TRADE_BET = "trade"
RAISE_BET = "raise"
WAGERS = (ANTE, BONUS)
BETS = (ANTE, TRADE_BET, RAISE_BET, BONUS)

CHECK = "check"
RAISE = "raise"
TRADE = "trade"
STAND = "stand"
DECISIONS = (CHECK, RAISE, TRADE, STAND)
PLAYS = ((CHECK,), (RAISE,), (TRADE, STAND), (TRADE, RAISE))

_BONUS_CATEGORIES = (STRAIGHT_FLUSH, THREE_OF_A_KIND, STRAIGHT, FLUSH)


def showdown(player: int, dealer: Sequence[int]) -> int:
    """``1`` if the player's card outranks the dealer's higher card, ``-1`` if lower, ``0`` if equal."""
    diff = (player >> 2) - (max(dealer) >> 2)  # cards are rank * 4 + suit: the highest card has the highest rank
    return (diff > 0) - (diff < 0)


def main_payouts(result: int, decisions: Sequence[str]) -> list[tuple[str, Payout]]:
    """Ante, and Trade and Raise when made: all win, lose or push together."""
    payout = by_sign(result)
    bets = [ANTE]
    if TRADE in decisions:
        bets.append(TRADE_BET)
    if RAISE in decisions:
        bets.append(RAISE_BET)
    return [(bet, payout) for bet in bets]


def three_card_bonus_payout(player: int, dealer: Sequence[int], table: ThreeCardBonusTable) -> Payout:
    """3 Card Bonus on the player's final card and the dealer's two (three-card poker order)."""
    value = value3((player, *dealer))
    if category3(value) not in _BONUS_CATEGORIES:
        return LOSE
    line = category_name3(value)
    return pays(line, table.pays(line))


def perfect_match_payout(player: int, dealer: Sequence[int], table: PerfectMatchTable) -> Payout:
    """Perfect Match on the player's final card against the dealer's two."""
    first, second = dealer
    ranks = {player >> 2, first >> 2, second >> 2}
    if player == first == second:
        line = "suited-three-of-a-kind"
    elif len(ranks) == 1:
        line = "three-of-a-kind"
    elif player in (first, second):
        line = "identical-match"
    elif player >> 2 in (first >> 2, second >> 2):
        line = "rank-match"
    else:
        return LOSE
    return pays(line, table.pays(line))


def side_bet_payout(player: int, dealer: Sequence[int], rules: OneForTheMoneyRules) -> Payout:
    """The table's side bet (the ``BONUS`` wager)."""
    if rules.side_bet == "perfect-match":
        return perfect_match_payout(player, dealer, rules.perfect_match)
    return three_card_bonus_payout(player, dealer, rules.three_card_bonus)


def settle_round(hands: RoundHands, rules: OneForTheMoneyRules) -> Settlement:
    """Settle a One for the Money round (see the module docstring for the input)."""
    dealer = seats.exactly(hands.dealer, 2, "the dealer")
    results: list[BetResult] = []
    for seat in seats.players(hands, descending=True):
        stakes = seats.wagers(seat, WAGERS)
        if not stakes:
            continue
        (player,) = seats.hand(seat, 1)
        if ANTE in stakes:
            made = seats.decisions(seat, PLAYS)
            seats.traded(seat, 1 if TRADE in made else 0)
            for bet, payout in main_payouts(showdown(player, dealer), made):
                results.append(payout.result(seat.seat, bet, stakes[ANTE]))
        elif seat.decisions or seat.traded:
            raise SettlementError(f"seat {seat.seat}: decisions without an Ante")
        if BONUS in stakes:
            results.append(side_bet_payout(player, dealer, rules).result(seat.seat, BONUS, stakes[BONUS]))
    return Settlement(results)
