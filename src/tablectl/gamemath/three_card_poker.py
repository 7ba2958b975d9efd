"""Three Card Poker, player-banked and Florida: exact analyses under the Q-6-4 raise rule.

Ante/Play pairs every player hand with every dealer hand (``threecard.matchups``, 407,170,400
deals); the player-banked Pair Plus looks at the player's 22,100 hands alone; the 6 Card Bonus
counts the 20,358,520 six-card sets (``sixcard``). Every deal is settled by the rules' own
outcome functions.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from tablectl.gamemath.sixcard import six_card_values
from tablectl.gamemath.table import BetAnalysis, Tally
from tablectl.gamemath.threecard import matchups
from tablectl.rules import three_card_poker as tcp
from tablectl.rules import three_card_poker_florida as florida
from tablectl.rules.hand3 import QUEEN_HIGH, QUEEN_SIX_FOUR, value3
from tablectl.rules.houserules import FloridaRules, ThreeCardPokerRules

STRATEGY = ("raise (play) with Q-6-4 or better, fold otherwise",)
DECK = range(52)


def raises(player: int) -> bool:
    """The conventional strategy: raise with Q-6-4 or better."""
    return player >= QUEEN_SIX_FOUR


def _ante_play(player: int, dealer: int) -> tuple[str, Fraction]:
    """(outcome label, net per Ante) of the Ante and Play, shared by both variants."""
    if not raises(player):
        ante, _ = tcp.ante_play_payouts(None)
        return "fold", ante.odds
    result = tcp.showdown(player, dealer)
    ante, play = tcp.ante_play_payouts(result)
    return result, ante.odds + (play.odds if play else 0)


def ante_play(
    rules: ThreeCardPokerRules | None = None, deals: dict[tuple[int, int], int] | None = None
) -> BetAnalysis:
    """Player-banked Ante and Play, with the Ante bonus, per unit of Ante. ``deals``: the
    ``matchups`` to count (default: one full deck)."""
    rules = rules or ThreeCardPokerRules()
    tally = Tally()
    for (player, dealer), n in (deals or matchups(DECK, [QUEEN_HIGH])).items():
        label, net = _ante_play(player, dealer)
        bonus = tcp.ante_bonus_payout(player, rules.ante_bonus) if raises(player) else None
        if bonus is not None:
            label, net = f"{label} + ante bonus {bonus.outcome}", net + bonus.odds
        tally.add(label, net, n)
    return tally.analysis("ante", {"ante_bonus": rules.ante_bonus.describe()}, STRATEGY)


def pairplus(rules: ThreeCardPokerRules | None = None) -> BetAnalysis:
    """Player-banked Pair Plus: the player's three cards alone."""
    rules = rules or ThreeCardPokerRules()
    tally = Tally()
    for hand in combinations(DECK, 3):
        payout = tcp.pairplus_payout(value3(hand), rules.pairplus)
        tally.add(payout.outcome, payout.odds, 1)
    return tally.analysis("pairplus", {"pay_table": rules.pairplus.describe()})


def six_card_bonus(rules: ThreeCardPokerRules | None = None) -> BetAnalysis:
    """The 6 Card Bonus on the player's and the player-dealer's six cards."""
    rules = rules or ThreeCardPokerRules()
    tally = Tally()
    for value, n in six_card_values().items():
        payout = tcp.six_card_bonus_payout(value, rules.six_card_bonus)
        tally.add(payout.outcome, payout.odds, n)
    return tally.analysis("six-card-bonus", {"pay_table": rules.six_card_bonus.describe()})


def florida_ante(deals: dict[tuple[int, int], int] | None = None) -> BetAnalysis:
    """Florida Ante and Play (no Ante bonus), per unit of Ante."""
    tally = Tally()
    for (player, dealer), n in (deals or matchups(DECK, [QUEEN_HIGH])).items():
        label, net = _ante_play(player, dealer)
        tally.add(label, net, n)
    return tally.analysis("ante", {"ante_bonus": "none"}, STRATEGY)


def florida_pairplus(rules: FloridaRules, deals: dict[tuple[int, int], int] | None = None) -> BetAnalysis:
    """Florida Pairplus (a pair or better that beats the dealer)."""
    tally = Tally()
    for (player, dealer), n in (deals or matchups(DECK, [QUEEN_HIGH])).items():
        payout = florida.pairplus_payout(player, dealer, rules)
        tally.add(payout.outcome, payout.odds, n)
    rule_set = {"pay_table": rules.pairplus.describe(), "pairplus_tie_below_pair": rules.pairplus_tie_below_pair}
    return tally.analysis("pairplus", rule_set)


def player_banked() -> list[BetAnalysis]:
    return [ante_play(), pairplus(), six_card_bonus()]


def florida_variant() -> list[BetAnalysis]:
    deals = matchups(DECK, [QUEEN_HIGH])
    return [
        florida_ante(deals),
        florida_pairplus(FloridaRules(pairplus_tie_below_pair="lose"), deals),
        florida_pairplus(FloridaRules(pairplus_tie_below_pair="push"), deals),
    ]
