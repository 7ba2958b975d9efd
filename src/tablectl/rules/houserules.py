"""House rules: one frozen dataclass per game, defaulting to each game's published rules.

Where the published rules are silent or contradict themselves, the house's choice is a named field
here (each field's text states the rule, the default and why), so a casino can change it.
Build from a config table with ``rules_from_dict(game, data)`` (or ``Cls.from_dict(data)``); omitted
settings keep their defaults, unknown ones are errors. Pay tables nest as tables, e.g.
``{"pairplus": {"pair": 2}}``, or by preset name (``three_card_bonus = "2"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar, Union

from tablectl.rules.configure import from_mapping
from tablectl.rules.paytables import (
    AnteBonusTable,
    FloridaPairplusTable,
    HoldemBonusTable,
    PairPlusTable,
    PerfectMatchTable,
    SixCardBonusTable,
    ThreeCardBonusTable,
    TieWagerTable,
)

R = TypeVar("R", bound="_FromDict")


class _FromDict:
    __slots__ = ()

    @classmethod
    def from_dict(cls: type[R], data: Mapping[str, Any]) -> R:
        return from_mapping(cls, data)


@dataclass(frozen=True, slots=True)
class OneCardPokerRules(_FromDict):
    """One Card Poker (player-banked by a Designated Player, DP).

    ``dp_declines_war``: what the player's primary does when the player extends a rank tie and
    the DP declines to go to war on it: "push" (the published rules let the DP decline but leave
    the primary open); "player-wins" pays it 1:1.
    ``tie_pays_without_extension``: the Tie wager's Any/Black/Ace Tie pay even when the hand is
    not extended (True). The published rules contradict themselves: one says the player must
    extend the hand to win the Tie wager, a later and more specific one pays Any, Black and Ace
    Tie without extending (only Double, Triple and Quad Tie need the war); the default follows
    the later one. False applies the first: a Tie wager on a hand not extended loses.
    ``limit_to_banker_stake``: cap payouts at the DP's stake in settlement order (off by default:
    the published rules say the room does not require the DP to cover every wager).
    """

    tie_wager: TieWagerTable = field(default_factory=TieWagerTable)
    dp_declines_war: Literal["push", "player-wins"] = "push"
    tie_pays_without_extension: bool = True
    limit_to_banker_stake: bool = False
    losses_extend_cover: bool = False


@dataclass(frozen=True, slots=True)
class ThreeCardPokerRules(_FromDict):
    """Three Card Poker, player-banked.

    ``fold_forfeits_pairplus``: a fold loses the Pair Plus too (conventional; True).
    ``fold_forfeits_six_card_bonus``: a fold loses the 6 Card Bonus too (False: it is settled on
    the six cards whatever the player does).
    ``limit_to_banker_stake``: payouts are limited to the player-dealer's stake, settling from the
    dealer's left; once it is exhausted the remaining bets are returned (the published rules;
    True).
    ``losses_extend_cover``: bets the player-dealer wins add to what it can pay (False: the
    published rules limit payouts "to the maximum amount bet by the player-dealer").
    """

    ante_bonus: AnteBonusTable = field(default_factory=AnteBonusTable)
    pairplus: PairPlusTable = field(default_factory=PairPlusTable)
    six_card_bonus: SixCardBonusTable = field(default_factory=SixCardBonusTable)
    fold_forfeits_pairplus: bool = True
    fold_forfeits_six_card_bonus: bool = False
    limit_to_banker_stake: bool = True
    losses_extend_cover: bool = False


@dataclass(frozen=True, slots=True)
class FloridaRules(_FromDict):
    """Three Card Poker, Florida variant.

    ``pairplus_tie_below_pair``: equal hands below a pair on the Pairplus: "lose" or "push". The
    published rules leave it open (rooms differ); "lose" is the default because the Pairplus
    needs both a pair or better and the higher hand, and such a tie has neither.
    ``fold_forfeits_pairplus``: a fold of the Ante loses the Pairplus too (conventional; True).
    ``limit_to_banker_stake`` / ``losses_extend_cover``: as in ``ThreeCardPokerRules``, off by
    default (the variant's published rules name no coverage limit).
    """

    pairplus: FloridaPairplusTable = field(default_factory=FloridaPairplusTable)
    pairplus_tie_below_pair: Literal["lose", "push"] = "lose"
    fold_forfeits_pairplus: bool = True
    limit_to_banker_stake: bool = False
    losses_extend_cover: bool = False


@dataclass(frozen=True, slots=True)
class OneForTheMoneyRules(_FromDict):
    """One for the Money. ``side_bet``: which side bet the table offers on the "bonus" wager,
    "three-card-bonus" (pay table ``three_card_bonus``, the published pay table 1 by default) or
    "perfect-match"."""

    side_bet: Literal["three-card-bonus", "perfect-match"] = "three-card-bonus"
    three_card_bonus: ThreeCardBonusTable = field(default_factory=ThreeCardBonusTable)
    perfect_match: PerfectMatchTable = field(default_factory=PerfectMatchTable)


@dataclass(frozen=True, slots=True)
class TexasHoldemBonusRules(_FromDict):
    """Texas Hold'em Bonus.

    ``ante_pays_from``: the least winning hand that wins the Ante (the published rules:
    "straight"; some rooms use "flush"); below it a winning Ante pushes.
    ``fold_forfeits_bonus``: a fold loses the Bonus bet too (False: it is settled on the hole
    cards whatever the player does).
    """

    bonus: HoldemBonusTable = field(default_factory=HoldemBonusTable)
    ante_pays_from: Literal["straight", "flush"] = "straight"
    fold_forfeits_bonus: bool = False


GameRules = Union[
    OneCardPokerRules, ThreeCardPokerRules, FloridaRules, OneForTheMoneyRules, TexasHoldemBonusRules
]

RULES_BY_GAME: dict[str, type[GameRules]] = {
    "one-card-poker": OneCardPokerRules,
    "three-card-poker": ThreeCardPokerRules,
    "three-card-poker-florida": FloridaRules,
    "one-for-the-money": OneForTheMoneyRules,
    "texas-holdem-bonus": TexasHoldemBonusRules,
}


def rules_from_dict(game: str, data: Mapping[str, Any] | None = None) -> GameRules:
    """The house rules of ``game`` from a config table (``None``: all defaults)."""
    try:
        cls = RULES_BY_GAME[game]
    except KeyError:
        raise ValueError(f"unknown game {game!r} (expected one of {', '.join(RULES_BY_GAME)})") from None
    return from_mapping(cls, data or {})
