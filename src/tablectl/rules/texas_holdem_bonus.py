"""Texas Hold'em Bonus: one 52-card deck, each player against the dealer.

Round input (``RoundHands``): each seat's ``cards`` = its two hole cards; ``dealer`` = the
dealer's two; ``board`` = the five community cards (may be short when every seat folded);
``wagers``: ``ANTE`` and, optionally, ``BONUS``; ``decisions``: ``[FOLD]`` or
``[FLOP, TURN or CHECK, RIVER or CHECK]``. The Flop (2x Ante), Turn and River (1x each) bets are
not wagers placed before the deal.

Best five of seven for player and dealer. Settlement runs from the dealer's left; per seat: Ante,
Flop, Turn, River, Bonus.
"""

from __future__ import annotations

from collections.abc import Sequence

from tablectl.rounds import BetResult, RoundHands, Settlement
from tablectl.rules import seats
from tablectl.rules.hand7 import FLUSH, STRAIGHT, best_five, category5
from tablectl.rules.houserules import TexasHoldemBonusRules
from tablectl.rules.payout import FOLD, LOSE, PUSH, WIN, Payout, by_sign, pays
from tablectl.rules.paytables import HoldemBonusTable

GAME = "texas-holdem-bonus"

ANTE = "ante"
BONUS = "bonus"
FLOP = "flop"
TURN = "turn"
RIVER = "river"
WAGERS = (ANTE, BONUS)
BETS = (ANTE, FLOP, TURN, RIVER, BONUS)
MULTIPLE = {ANTE: 1, FLOP: 2, TURN: 1, RIVER: 1}
"""Each main-game bet's stake as a multiple of the Ante."""

FOLD_DECISION = "fold"
CHECK = "check"
DECISIONS = (FOLD_DECISION, FLOP, TURN, RIVER, CHECK)
PLAYS = ((FOLD_DECISION,),) + tuple((FLOP, turn, river) for turn in (TURN, CHECK) for river in (RIVER, CHECK))
NO_DECISION = ((),)
"""A seat's decisions without an Ante."""

_ANTE_FROM = {"straight": STRAIGHT, "flush": FLUSH}
_ACE, _KING, _QUEEN, _JACK, _TEN = 12, 11, 10, 9, 8


def main_payouts(
    player: int, dealer: int, decisions: Sequence[str], rules: TexasHoldemBonusRules
) -> list[tuple[str, Payout]]:
    """Ante, Flop, Turn and River of a hand that did not fold, from the best-five values."""
    raised = [bet for bet in (FLOP, TURN, RIVER) if bet in decisions]
    if player <= dealer:
        payout = by_sign(player - dealer)
        return [(bet, payout) for bet in [ANTE, *raised]]
    ante = WIN if category5(player) >= _ANTE_FROM[rules.ante_pays_from] else PUSH
    return [(ANTE, ante)] + [(bet, WIN) for bet in raised]


def bonus_line(player: Sequence[int], dealer: Sequence[int]) -> str | None:
    """The Bonus pay-table line of the player's hole cards (the top line also needs the dealer's)."""
    high, low = sorted((c >> 2 for c in player), reverse=True)
    suited = (player[0] & 3) == (player[1] & 3)
    if high == low:
        if high == _ACE:
            return "aces-against-aces" if all(c >> 2 == _ACE for c in dealer) else "aces"
        return "kings-queens-or-jacks" if high >= _JACK else "twos-to-tens"
    if high != _ACE:
        return None
    if low == _KING:
        return "ace-king-suited" if suited else "ace-king"
    if low in (_QUEEN, _JACK):
        return "ace-queen-or-jack-suited" if suited else "ace-queen-or-jack"
    return None


def bonus_payout(player: Sequence[int], dealer: Sequence[int], table: HoldemBonusTable) -> Payout:
    """The Bonus bet."""
    line = bonus_line(player, dealer)
    return pays(line, table.pays(line)) if line else LOSE


def settle_round(hands: RoundHands, rules: TexasHoldemBonusRules) -> Settlement:
    """Settle a Texas Hold'em Bonus round (see the module docstring for the input)."""
    dealer_hole = seats.exactly(hands.dealer, 2, "the dealer")
    dealer: int | None = None
    results: list[BetResult] = []
    for seat in seats.players(hands):
        stakes = seats.wagers(seat, WAGERS)
        if not stakes:
            continue
        hole = seats.hand(seat, 2)
        folded = False
        if ANTE in stakes:
            made = seats.decisions(seat, PLAYS)
            folded = made == (FOLD_DECISION,)
            if folded:
                payouts = [(ANTE, FOLD)]
            else:
                board = seats.exactly(hands.board, 5, "the board")
                if dealer is None:
                    dealer = best_five(dealer_hole + board)
                payouts = main_payouts(best_five(hole + board), dealer, made, rules)
            for bet, payout in payouts:
                results.append(payout.result(seat.seat, bet, stakes[ANTE] * MULTIPLE[bet]))
        else:
            seats.decisions(seat, NO_DECISION)
        if BONUS in stakes:
            payout = FOLD if folded and rules.fold_forfeits_bonus else bonus_payout(hole, dealer_hole, rules.bonus)
            results.append(payout.result(seat.seat, BONUS, stakes[BONUS]))
    return Settlement(results)
