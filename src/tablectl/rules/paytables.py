"""Pay tables, "to one", with their sources. Each is a frozen dataclass whose fields are its lines;
a config replaces any table (or any line) through ``tablectl.rules.configure.from_mapping``.

Where a game's published rules give a table it is the default; where they give none
(player-banked Three Card Poker's Ante bonus, Pair Plus and 6 Card Bonus; Texas Hold'em Bonus's
Bonus bet) the default is a conventional table, its source named on the class. docs/rules.md
lists them all.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import ClassVar


class PayTable:
    """Behaviour shared by the pay tables: line lookup by name ("three-of-a-kind")."""

    __slots__ = ()

    def pays(self, line: str) -> int:
        return int(getattr(self, line.replace("-", "_")))

    def lines(self) -> list[tuple[str, int]]:
        """(line, pays) in the table's order, best line first."""
        return [(line, getattr(self, name)) for name, line in _line_names(type(self))]

    def describe(self) -> str:
        """The pays joined by "/", best line first: "40/30/6/4/1"."""
        return "/".join(str(p) for _, p in self.lines())


@functools.cache
def _line_names(kind: type) -> tuple[tuple[str, str], ...]:
    """A pay table class's (field, line) names, in its order."""
    return tuple((f.name, f.name.replace("_", "-")) for f in dataclasses.fields(kind))


@dataclass(frozen=True, slots=True)
class AnteBonusTable(PayTable):
    """Three Card Poker's Ante bonus, paid to a player who plays, whatever the dealer holds.
    Source: the conventional Shuffle Master table (5/4/1), as printed e.g. by Pala Casino and
    analysed by Wizard of Odds ("Three Card Poker")."""

    straight_flush: int = 5
    three_of_a_kind: int = 4
    straight: int = 1


@dataclass(frozen=True, slots=True)
class PairPlusTable(PayTable):
    """Three Card Poker's Pair Plus on the player's three cards. Source: Derek Webb's original
    1-4-6-30-40 table (Wizard of Odds, "Three Card Poker", Pairplus pay table 1)."""

    straight_flush: int = 40
    three_of_a_kind: int = 30
    straight: int = 6
    flush: int = 4
    pair: int = 1


@dataclass(frozen=True, slots=True)
class SixCardBonusTable(PayTable):
    """The 6 Card Bonus: best five of the player's and the player-dealer's six cards.
    Source: the 1000/200/50/25/20/10/5 table of table-games-online.com ("Three Card Poker with
    6-Card Bonus", which gives its house advantage as 10.23%)."""

    royal_flush: int = 1000
    straight_flush: int = 200
    four_of_a_kind: int = 50
    full_house: int = 25
    flush: int = 20
    straight: int = 10
    three_of_a_kind: int = 5


@dataclass(frozen=True, slots=True)
class FloridaPairplusTable(PayTable):
    """Florida Three Card Poker's Pairplus (paid only when the hand also beats the dealer's).
    Source: the Florida variant's published Pairplus pay table."""

    mini_royal: int = 200
    straight_flush: int = 40
    three_of_a_kind: int = 30
    straight: int = 4
    flush: int = 3
    pair: int = 2


@dataclass(frozen=True, slots=True)
class TieWagerTable(PayTable):
    """One Card Poker's Tie wager (one payout, the largest that applies).
    Source: One Card Poker's published payout scale."""

    quad_tie: int = 200
    triple_tie: int = 150
    double_tie: int = 50
    ace_tie: int = 25
    black_tie: int = 10
    any_tie: int = 4


@dataclass(frozen=True, slots=True)
class ThreeCardBonusTable(PayTable):
    """One for the Money's 3 Card Bonus on the dealer's two cards and the player's final card.
    Source: the game's published pay table 1 (default) or 2 (presets "1" and "2")."""

    PRESETS: ClassVar[dict[str, ThreeCardBonusTable]]

    straight_flush: int = 40
    three_of_a_kind: int = 30
    straight: int = 10
    flush: int = 5


ThreeCardBonusTable.PRESETS = {"1": ThreeCardBonusTable(), "2": ThreeCardBonusTable(9, 9, 9, 9)}


@dataclass(frozen=True, slots=True)
class PerfectMatchTable(PayTable):
    """One for the Money's Perfect Match on the dealer's two cards and the player's final card.
    Source: the published pay table of the game's Perfect Match edition."""

    suited_three_of_a_kind: int = 100
    three_of_a_kind: int = 30
    identical_match: int = 10
    rank_match: int = 3


@dataclass(frozen=True, slots=True)
class HoldemBonusTable(PayTable):
    """Texas Hold'em Bonus's Bonus bet on the player's two hole cards (the top line also needs the
    dealer's). Source: the conventional SHFL table as posted e.g. by Rivers Casino Des Plaines
    ("Texas Hold'em Bonus Poker") and NagaWorld."""

    aces_against_aces: int = 1000
    aces: int = 30
    ace_king_suited: int = 25
    ace_queen_or_jack_suited: int = 20
    ace_king: int = 15
    kings_queens_or_jacks: int = 10
    ace_queen_or_jack: int = 5
    twos_to_tens: int = 3
