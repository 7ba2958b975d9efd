"""Three Card Poker's Ante and Play with hidden information: exact best strategy and edge.

The player holds three cards and plays (raises 1x the Ante) or folds (loses the Ante). Kinds of
information, each a separate figure (``tablectl.gamemath.advantage.figure``):

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
from fractions import Fraction
from itertools import combinations, permutations

import numpy as np

from tablectl.cards import RANKS
from tablectl.gamemath.advantage.figure import AdvantageFigure
from tablectl.gamemath.advantage.threshold import FigureTally, ThresholdGroups
from tablectl.rules import three_card_poker as tcp
from tablectl.rules.hand3 import QUEEN_HIGH, value3
from tablectl.rules.paytables import AnteBonusTable

HIGH_RANKS = frozenset((10, 11, 12))
"""Q, K, A: the cards an edge sorter reads as high."""
PAIRS3 = ((0, 1), (0, 2), (1, 2))
SHOWDOWN_NAMES = ("the dealer does not qualify", "you beat the dealer", "you tie the dealer", "the dealer beats you")
BONUS_LINES = ("", "straight", "three-of-a-kind", "straight-flush")

Bonus = Callable[[int], int]
Progress = Callable[[float], None]  # told the share of the count done, 0 to 1


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


def _count(keys: np.ndarray, size: int, weights: np.ndarray | None = None) -> np.ndarray:
    """Integer bincount (the float sums are exact: every partial sum is a small integer)."""
    return np.rint(np.bincount(keys, weights=weights, minlength=size)).astype(np.int64)


class _DealerHands:
    """Every three-card hand of the deck, indexed for taking those that avoid a player hand."""

    def __init__(self, deck: Sequence[int]) -> None:
        self.hands = np.array(list(combinations(deck, 3)), dtype=np.int64).reshape(-1, 3)
        self.masks = (np.int64(1) << self.hands).sum(axis=1)
        values = np.array([value3(tuple(int(c) for c in h)) for h in self.hands], dtype=np.int64)
        self.values = np.unique(values)
        """The distinct hand values, ascending."""
        self.value_index = np.searchsorted(self.values, values)
        self.pair_keys = np.stack([self.hands[:, a] * 52 + self.hands[:, b] for a, b in PAIRS3], axis=1)
        """Per hand, its three pairs of cards as ``low * 52 + high``."""


def _tallies() -> dict[str, FigureTally]:
    """The figures to count, each with the groups its strategy is summarised by."""
    shows = "the dealer shows "
    pair_names = [RANKS[a] + RANKS[b] for a in range(13) for b in range(13)]
    showdowns = [f"{s}{', holding a ' + b if b else ''}" for s in SHOWDOWN_NAMES for b in BONUS_LINES]
    read = "dealer cards read high (Q, K, A) or low"
    return {
        "none": FigureTally("none", "own cards only", ThresholdGroups(["own cards only"])),
        "seen1": FigureTally("hole-card", "one dealer card seen", ThresholdGroups(list(RANKS), shows)),
        "seen2": FigureTally("hole-card", "two dealer cards seen", ThresholdGroups(pair_names, shows)),
        "seen3": FigureTally("hole-card", "all three dealer cards seen", ThresholdGroups(showdowns)),
        "sort1": FigureTally("edge-sort", "one dealer card read high (Q, K, A) or low",
                             ThresholdGroups(["it is low", "it is high"])),
        "sort2": FigureTally("edge-sort", f"two {read}", ThresholdGroups([f"{n} of the two high" for n in range(3)])),
        "sort3": FigureTally("edge-sort", f"all three {read}",
                             ThresholdGroups([f"{n} of the three high" for n in range(4)])),
        "shared1": FigureTally("shared-cards", "one other player's three cards seen",
                               ThresholdGroups([f"{n} of the other hand's cards Q, K or A" for n in range(4)])),
    }


_HIGH = np.array([(c >> 2) in HIGH_RANKS for c in range(52)], dtype=np.int64)
_RANK_OF_CARD = np.arange(52) // 4
_PAIR_GROUP = (_RANK_OF_CARD[:, None] * 13 + _RANK_OF_CARD[None, :]).reshape(-1)


def ante_play(deck: Iterable[int] = range(52), bonus: Bonus | None = None, bet: str = "ante",
              progress: Progress | None = None) -> list[AdvantageFigure]:
    """Every figure for the Ante and Play of the game whose Ante bonus is ``bonus`` (default:
    the player-banked game's 5/4/1; ``no_bonus`` for the Florida variant), dealt from ``deck``;
    ``progress`` told the share of the player's hands counted after each."""
    bonus = bonus or ante_bonus()
    deck = sorted(set(deck))
    every = _DealerHands(deck)
    figures = _tallies()
    rows: dict[int, np.ndarray] = {}
    classes = suit_classes(deck)
    for done, (cards, weight) in enumerate(classes, 1):
        player = value3(cards)
        if player not in rows:
            rows[player] = showdown_index(player, every.values)
        ok = (every.masks & sum(1 << c for c in cards)) == 0
        showdowns = rows[player][every.value_index[ok]]
        play_bonus = bonus(player)
        earned = tcp.ante_bonus_payout(player, AnteBonusTable())
        bonus_line = BONUS_LINES.index(earned.outcome) if earned and play_bonus else 0
        _count_hand(figures, player, weight, every.hands[ok], every.pair_keys[ok],
                    SHOWDOWN_NET[showdowns] + play_bonus, showdowns * 4 + bonus_line)
        if progress is not None:
            progress(done / len(classes))
    return [f.result(bet) for f in figures.values()]


def _count_hand(figures: dict[str, FigureTally], player: int, weight: int, dealer: np.ndarray,
                dealer_pairs: np.ndarray, net: np.ndarray, showdowns: np.ndarray) -> None:
    """Add one player hand (``weight`` hands of its class) to every figure: ``dealer`` the dealer
    hands it meets, ``net`` the Play's net against each, ``showdowns`` the seen3 group of each."""
    m = len(dealer)
    figures["none"].add(player, weight, np.array([net.sum()]), np.array([m]), np.array([0]))
    # one card seen: each of the three is a case
    flat = dealer.reshape(-1)
    repeated = np.repeat(net, 3)
    single_sum, single_count = _count(flat, 52, repeated), _count(flat, 52)
    figures["seen1"].add(player, weight, single_sum, single_count, _RANK_OF_CARD)
    # two cards seen: each of the three pairs is a case
    pairs = dealer_pairs.reshape(-1)
    pair_sum, pair_count = _count(pairs, 2704, repeated), _count(pairs, 2704)
    figures["seen2"].add(player, weight, pair_sum, pair_count, _PAIR_GROUP)
    # all three seen: grouped by the showdown and the Ante bonus line the hand earns
    figures["seen3"].add(player, weight, net, np.ones(m, dtype=np.int64), showdowns)
    # edge sorting: how many of the j cards read are high
    highs = _HIGH[dealer]
    one = highs.reshape(-1)
    figures["sort1"].add(player, weight, _count(one, 2, repeated), _count(one, 2), np.arange(2))
    two = np.stack([highs[:, a] + highs[:, b] for a, b in PAIRS3], axis=1).reshape(-1)
    figures["sort2"].add(player, weight, _count(two, 3, repeated), _count(two, 3), np.arange(3))
    three = highs.sum(axis=1)
    figures["sort3"].add(player, weight, _count(three, 4, net), _count(three, 4), np.arange(4))
    # one other hand seen (any hand from the cards the player does not hold): the dealer hands
    # avoiding it, by inclusion-exclusion over its cards
    other = dealer
    sums = net.sum() - single_sum[other].sum(axis=1) + pair_sum[dealer_pairs].sum(axis=1) - net
    counts = m - single_count[other].sum(axis=1) + pair_count[dealer_pairs].sum(axis=1) - 1
    figures["shared1"].add(player, weight, sums, counts, three)


def player_banked(progress: Progress | None = None) -> list[AdvantageFigure]:
    """The player-banked game's Ante and Play (Ante bonus 5/4/1): every kind of information."""
    return ante_play(bonus=ante_bonus(), bet="ante", progress=progress)


def florida(progress: Progress | None = None) -> list[AdvantageFigure]:
    """The Florida variant's Ante and Play (no Ante bonus): every kind of information."""
    return ante_play(bonus=no_bonus, bet="ante", progress=progress)
