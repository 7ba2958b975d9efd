"""Three Card Poker's Ante and Play with hidden information: exact best strategy and edge.

The player holds three cards and plays (raises 1x the Ante) or folds (loses the Ante). Kinds of
information, each a separate figure (``tablectl.gamemath.advantage``):

- none: own cards only (the baseline: the best play is Q-6-4, today's figure);
- hole-card, one, two or three of the dealer's cards seen (each of the C(3, j) sets of j cards
  equally likely to be the one seen, so a deal is C(3, j) cases);
- edge-sort, the dealer's cards told apart high (Q, K, A) or low one, two or three at a time (the
  player knows, for the j cards he can read, whether each is high; C(3, j) cases per deal);
- shared-cards, one other player's three cards seen (they are not in the dealer's hand). Two or
  more hands seen is not computed: the best decision depends on every set of 6+ removed cards
  (C(49, 6) = 14M sets per player hand), beyond an exact count in reasonable time.

Counting: player hands are taken up to a renaming of suits (1,755 classes, each with its number
of hands; every figure is invariant under it). For a class representative P, every dealer hand
D from the other 49 cards is settled once: the showdown against each dealer value (vectorised,
checked against ``three_card_poker.showdown`` by the tests), the rules' own payouts per showdown
result, and the Ante bonus by the rules' function; the cases are grouped by what the
player knows (a card, a pair of cards, a high/low count...) with integer sums of the Play net and
case counts, and in each group the player plays when the sum beats folding (-1 per case). With
one other hand R seen, the sum over the dealer hands avoiding R is found by inclusion-exclusion
over R's cards from sums over the dealer hands holding one, two or all three of them.

All sums are integers; figures are exact ``Fraction`` s. ``deck`` (default: 52 cards) lets the
tests count a reduced deck against a brute force.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations, permutations

import numpy as np

from tablectl.cards import RANKS
from tablectl.gamemath.advantage import AdvantageFigure, rank_runs
from tablectl.rules import three_card_poker as tcp
from tablectl.rules.hand3 import CATEGORY_NAMES, HIGH_CARD, PAIR, QUEEN_HIGH, category3, value3
from tablectl.rules.paytables import AnteBonusTable

HIGH_RANKS = frozenset((10, 11, 12))
"""Q, K, A: the cards an edge sorter reads as high."""
PAIRS3 = ((0, 1), (0, 2), (1, 2))
SHOWDOWN_NAMES = ("the dealer does not qualify", "you beat the dealer", "you tie the dealer", "the dealer beats you")
BONUS_LINES = ("", "straight", "three-of-a-kind", "straight-flush")

Bonus = Callable[[int], int]


def ante_bonus(table: AnteBonusTable | None = None) -> Bonus:
    """The Ante bonus a hand that plays earns, per unit of Ante (the player-banked game)."""
    table = table or AnteBonusTable()

    def pay(player: int) -> int:
        payout = tcp.ante_bonus_payout(player, table)
        return _integer(payout.odds) if payout else 0

    return pay


def no_bonus(_: int) -> int:
    """No Ante bonus (the Florida variant)."""
    return 0


def _integer(value: Fraction | int) -> int:
    value = Fraction(value)
    if value.denominator != 1:
        raise ValueError(f"a Three Card Poker Ante/Play pay of {value} is not whole: exact integer sums need whole pays")
    return int(value)


def showdown_net(result: str) -> int:
    """Ante plus Play net per unit of Ante for a hand that plays, before any Ante bonus, by the
    showdown's result."""
    ante, play = tcp.ante_play_payouts(result)
    return _integer(ante.odds + (play.odds if play else 0))


SHOWDOWNS = (tcp.NOT_QUALIFIED, "win", "push", "lose")
SHOWDOWN_NET = np.array([showdown_net(result) for result in SHOWDOWNS], dtype=np.int64)


def showdown_index(player: int, dealers: np.ndarray) -> np.ndarray:
    """The index in ``SHOWDOWNS`` of ``tcp.showdown(player, dealer)`` for each dealer value
    (vectorised; the tests check it against the function on every pair of values)."""
    return np.where(dealers < QUEEN_HIGH, 0, np.where(player > dealers, 1, np.where(player == dealers, 2, 3)))


def describe(value: int) -> str:
    """A hand value in words: ``Q-6-4``, ``pair of 5s``, ``flush``..."""
    category = category3(value)
    a, b, c = (value >> 8) & 15, (value >> 4) & 15, value & 15
    if category == HIGH_CARD:
        return f"{RANKS[a]}-{RANKS[b]}-{RANKS[c]}"
    if category == PAIR:
        return f"pair of {RANKS[a]}s"
    return CATEGORY_NAMES[category]


def suit_classes(deck: Sequence[int]) -> list[tuple[tuple[int, int, int], int]]:
    """Three-card hands from ``deck`` up to a renaming of suits that maps the deck onto itself:
    (representative, number of hands). With the full deck, 1,755 classes of 22,100 hands."""
    cards = set(deck)
    renamings = [p for p in permutations(range(4)) if {(c & ~3) | p[c & 3] for c in cards} == cards]
    classes: dict[tuple[int, ...], int] = {}
    for hand in combinations(sorted(cards), 3):
        key = min(tuple(sorted((c & ~3) | p[c & 3] for c in hand)) for p in renamings)
        classes[key] = classes.get(key, 0) + 1
    return [((k[0], k[1], k[2]), n) for k, n in sorted(classes.items())]


@dataclass
class _Groups:
    """Per group of what the player knows: the lowest hand he plays and the highest he folds."""

    names: list[str]
    prefix: str = ""
    lowest_played: list[int] = field(default_factory=list)
    highest_folded: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.lowest_played = [1 << 30] * len(self.names)
        self.highest_folded = [-1] * len(self.names)

    def note(self, value: int, groups: np.ndarray, played: np.ndarray) -> None:
        size = len(self.names)
        for g in np.flatnonzero(np.bincount(groups[played], minlength=size)):
            self.lowest_played[g] = min(self.lowest_played[g], value)
        for g in np.flatnonzero(np.bincount(groups[~played], minlength=size)):
            self.highest_folded[g] = max(self.highest_folded[g], value)

    def lines(self) -> list[str]:
        """One line per distinct rule, naming the groups it applies to (in their order)."""
        by_rule: dict[str, list[str]] = {}
        for name, low, high in zip(self.names, self.lowest_played, self.highest_folded):
            if low == 1 << 30 and high < 0:
                continue
            if low == 1 << 30:
                rule = "fold everything"
            elif high < 0:
                rule = "play every hand"
            elif high < low:
                rule = f"play {describe(low)} or better"
            else:
                rule = f"play {describe(low)} or better, but fold some hands up to {describe(high)} (card removal)"
            by_rule.setdefault(rule, []).append(name)
        return [f"{self.prefix}{_names(names)}: {rule}" for rule, names in by_rule.items()]


def _names(names: list[str]) -> str:
    """Group names joined; single ranks as ranges (``2-J``)."""
    if all(len(n) == 1 and n in RANKS for n in names):
        return rank_runs(names)
    return ", ".join(names)


@dataclass
class _Figure:
    """A figure being counted: totals and the strategy by group."""

    kind: str
    information: str
    groups: _Groups
    net: int = 0
    cases: int = 0
    played: int = 0

    def add(self, value: int, weight: int, sums: np.ndarray, counts: np.ndarray, groups: np.ndarray) -> None:
        """One player hand (``weight`` hands of its class): per key of what the player knows, the
        Play net summed over the key's cases and their number; ``groups`` per key."""
        seen = counts > 0
        sums, counts, groups = sums[seen], counts[seen], groups[seen]
        played = sums > -counts
        self.net += weight * int(np.where(played, sums, -counts).sum())
        self.cases += weight * int(counts.sum())
        self.played += weight * int(counts[played].sum())
        self.groups.note(value, groups, played)

    def result(self, bet: str, extra: Sequence[str] = ()) -> AdvantageFigure:
        share = f"plays {self.played / self.cases:.2%} of the time"
        lines = (share, *extra, *self.groups.lines())
        return AdvantageFigure(bet, self.kind, self.information, self.cases, Fraction(self.net), self.played, lines)


def _count(keys: np.ndarray, size: int, weights: np.ndarray | None = None) -> np.ndarray:
    """Integer bincount (the float sums are exact: every partial sum is a small integer)."""
    return np.rint(np.bincount(keys, weights=weights, minlength=size)).astype(np.int64)


def ante_play(deck: Iterable[int] = range(52), bonus: Bonus | None = None, bet: str = "ante") -> list[AdvantageFigure]:
    """Every figure for the Ante and Play of the game whose Ante bonus is ``bonus`` (default:
    the player-banked game's 5/4/1; ``no_bonus`` for the Florida variant), dealt from ``deck``."""
    bonus = bonus or ante_bonus()
    deck = sorted(set(deck))
    hands = np.array(list(combinations(deck, 3)), dtype=np.int64).reshape(-1, 3)
    masks = (np.int64(1) << hands).sum(axis=1)
    values = np.array([value3(tuple(int(c) for c in h)) for h in hands], dtype=np.int64)
    high = np.array([(c >> 2) in HIGH_RANKS for c in range(52)], dtype=np.int64)
    rank_of_card = np.arange(52) // 4
    distinct = np.unique(values)
    value_index = np.searchsorted(distinct, values)
    pair_keys = np.stack([hands[:, a] * 52 + hands[:, b] for a, b in PAIRS3], axis=1)
    rank_names = list(RANKS)
    pair_names = [RANKS[a] + RANKS[b] for a in range(13) for b in range(13)]
    figures = {
        "none": _Figure("none", "own cards only", _Groups(["own cards only"])),
        "seen1": _Figure("hole-card", "one dealer card seen", _Groups(rank_names, "the dealer shows ")),
        "seen2": _Figure("hole-card", "two dealer cards seen", _Groups(pair_names, "the dealer shows ")),
        "seen3": _Figure("hole-card", "all three dealer cards seen", _Groups(
            [f"{s}{', holding a ' + b if b else ''}" for s in SHOWDOWN_NAMES for b in BONUS_LINES])),
        "sort1": _Figure("edge-sort", "one dealer card read high (Q, K, A) or low",
                         _Groups(["it is low", "it is high"])),
        "sort2": _Figure("edge-sort", "two dealer cards read high (Q, K, A) or low",
                         _Groups([f"{n} of the two high" for n in range(3)])),
        "sort3": _Figure("edge-sort", "all three dealer cards read high (Q, K, A) or low",
                         _Groups([f"{n} of the three high" for n in range(4)])),
        "shared1": _Figure("shared-cards", "one other player's three cards seen",
                           _Groups([f"{n} of the other hand's cards Q, K or A" for n in range(4)])),
    }
    pair_group = (rank_of_card[:, None] * 13 + rank_of_card[None, :]).reshape(-1)
    rows: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    for cards, weight in suit_classes(deck):
        player = value3(cards)
        if player not in rows:
            showdown_row = showdown_index(player, distinct)
            rows[player] = (SHOWDOWN_NET[showdown_row], showdown_row)
        net_row, showdown_row = rows[player]
        mask = sum(1 << c for c in cards)
        ok = (masks & mask) == 0
        dealer = hands[ok]
        net = net_row[value_index[ok]]
        play_bonus = bonus(player)
        net = net + play_bonus
        m = len(dealer)
        one = np.ones(m, dtype=np.int64)
        # own cards only
        figures["none"].add(player, weight, np.array([net.sum()]), np.array([m]), np.array([0]))
        # one card seen
        flat = dealer.reshape(-1)
        repeated = np.repeat(net, 3)
        single_sum, single_count = _count(flat, 52, repeated), _count(flat, 52)
        figures["seen1"].add(player, weight, single_sum, single_count, rank_of_card)
        # two cards seen
        dealer_pairs = pair_keys[ok]
        pairs = dealer_pairs.reshape(-1)
        pair_sum, pair_count = _count(pairs, 2704, repeated), _count(pairs, 2704)
        figures["seen2"].add(player, weight, pair_sum, pair_count, pair_group)
        # all three seen: grouped by the showdown and the Ante bonus line the hand earns
        earned = tcp.ante_bonus_payout(player, AnteBonusTable())
        bonus_line = BONUS_LINES.index(earned.outcome) if earned and play_bonus else 0
        showdowns = showdown_row[value_index[ok]]
        figures["seen3"].add(player, weight, net, one, showdowns * 4 + bonus_line)
        # edge sorting: how many of the j cards read are high
        highs = high[dealer]
        figures["sort1"].add(player, weight, _count(highs.reshape(-1), 2, repeated),
                             _count(highs.reshape(-1), 2), np.arange(2))
        two = np.stack([highs[:, a] + highs[:, b] for a, b in PAIRS3], axis=1).reshape(-1)
        figures["sort2"].add(player, weight, _count(two, 3, repeated), _count(two, 3), np.arange(3))
        three = highs.sum(axis=1)
        figures["sort3"].add(player, weight, _count(three, 4, net), _count(three, 4), np.arange(4))
        # one other hand seen: inclusion-exclusion over its cards
        other = dealer  # the other hands: every hand from the cards the player does not hold
        sums = net.sum() - single_sum[other].sum(axis=1) + pair_sum[dealer_pairs].sum(axis=1) - net
        counts = m - single_count[other].sum(axis=1) + pair_count[dealer_pairs].sum(axis=1) - 1
        figures["shared1"].add(player, weight, sums, counts, high[other].sum(axis=1))
    return [f.result(bet) for f in figures.values()]


def player_banked() -> list[AdvantageFigure]:
    """The player-banked game's Ante and Play (Ante bonus 5/4/1): every kind of information."""
    return ante_play(bonus=ante_bonus(), bet="ante")


def florida() -> list[AdvantageFigure]:
    """The Florida variant's Ante and Play (no Ante bonus): every kind of information."""
    return ante_play(bonus=no_bonus, bet="ante")
