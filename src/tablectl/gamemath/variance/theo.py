"""The exact spread of one round's house result about its theoretical win (pure):
``theo_variance(hands, rules, decks, theo)``.

A round's theoretical win (``analytics.export.judging``) is what the house expects given the wagers and
the decisions the players made from what they saw. Its spread is taken given what the players saw,
all seats together: every seat's cards (One for the Money: the card traded and the new one), the
board (Texas Hold'em Bonus) and every decision are fixed as logged, and the dealer's cards are
every hand the unseen cards can make (one deck: every set of the cards no seat holds and the board
does not show; a shoe: ordered deals from the shoe's counts less the seats' cards). Each is
settled by the rules engine (``tablectl.rules.settle``) on the whole round (or seat by seat,
below) -- so the seats' shared dealer hand (their covariance), a player-dealer's limited stake and
every side bet are exact -- and the figure is

    E[(X - theo)^2 | what the players saw] = Var(X | seen) + (E[X | seen] - theo)^2

with X the house result (minus the players' net). Over rounds this is the variance of
``actual - theo`` (its expectation is exactly the variance of X - theo, theo being fixed by what is
conditioned on: the second term carries the luck of the players' own cards, which the theoretical
win leaves out). Texas Hold'em Bonus's theoretical win values each decision from the cards out at
it (the hole cards before the flop, then the flop, then the turn), so there the second term also
carries the luck of the board. For a table whose every decision is the strategy's it averages to
the optimal-play variance of the round.

Dealer hands that settle alike are settled once: Three Card Poker's by whether the hand qualifies
and, per seat, whether it beats, ties or loses to the seat's (and the category of the six cards,
a royal apart, per seat with a 6 Card Bonus: the line the pay table pays for it), One for the Money's by the higher card's
rank (and the line the side bet pays, per seat with one). Where no bank's limited stake ties the
seats together (``rules.settle.cover_binds``) each seat is settled alone, once per class of its own
part (its showdown and its line), and the seats' results are summed per class. Texas Hold'em
Bonus's dealer hands settle alike by the showdown per seat that played on and whether the dealer
holds two aces, each seat settled alone (``theo_variance_holdem``).
One Card Poker is not covered (None): its wars are not enumerated here.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np

from tablectl.gamemath.decisions.threecard_sets import subsets
from tablectl.gamemath.holdem.tables import RANK_KEY, flush, ranks
from tablectl.gamemath.variance.theo_holdem import Class, holdem_classes
from tablectl.rounds import RoundHands
from tablectl.rules import one_for_the_money as oftm
from tablectl.rules import texas_holdem_bonus as thb
from tablectl.rules import three_card_poker as tcp
from tablectl.rules import three_card_poker_florida as fl
from tablectl.rules.hand3 import QUEEN_HIGH, value3
from tablectl.rules.hand7 import ROYAL_FLUSH, pack5
from tablectl.rules.settle import cover_binds, max_bank_pay, settle

COVERED = (tcp.GAME, fl.GAME, oftm.GAME, thb.GAME)

Deal = tuple[tuple[int, ...], int]  # (the dealer's cards, how many deals give a hand settling alike)


def _seats_cards(hands: RoundHands) -> list[int]:
    out: list[int] = []
    for seat in hands.seats:
        if seat.seat == hands.banker_seat:  # a banker's hand is the dealer's, unknown here
            continue
        out += seat.cards
        out += seat.traded
    return out


@cache
def _three_card_keys() -> tuple[np.ndarray, np.ndarray]:
    """Per three-card set (``subsets(3)``): its ranks' key sum and, per suit, its ranks' bits."""
    sets = subsets(3)[0]
    r, s = sets >> 2, sets & 3
    bits = np.stack([np.where(s == suit, np.left_shift(1, r), 0).sum(axis=1) for suit in range(4)])
    return RANK_KEY[r].sum(axis=1), bits


@cache
def _six_lines(table: Any) -> np.ndarray:
    """The 6 Card Bonus line paid, numbered, by category * 2 + royal (the pay table pays by them)."""
    names: dict[str, int] = {}
    return np.array([names.setdefault(tcp.six_card_bonus_payout(ROYAL_FLUSH if royal else pack5(category), table).outcome,
                                      len(names)) for category in range(10) for royal in (0, 1)], dtype=np.int64)


@cache
def _grades() -> tuple[np.ndarray, np.ndarray]:
    """``ranks(6)`` and ``flush()`` (``holdem.tables``) graded as ``_six_lines`` takes them,
    category * 2 + royal. A grade is monotone in the value: the better of two hands has the
    greater grade, so the grades of a seat's six cards can be compared as their values are."""
    def graded(values: np.ndarray) -> np.ndarray:
        values = values.astype(np.int64)
        return (values >> 20) * 2 + (values == ROYAL_FLUSH)

    return graded(ranks(6)), graded(flush())


@cache
def _by_value() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The three-card sets of ``subsets(3)`` in order of their value: the sets, their masks, their
    values, their ranks' key sums and, per suit, their ranks' bits."""
    sets, masks, _, values = subsets(3)
    order = np.argsort(values, kind="stable")
    sums, bits = _three_card_keys()
    return sets[order], masks[order], values[order], sums[order], bits[:, order]


def _six_card_lines(cards: Sequence[int], kept: np.ndarray, lines: np.ndarray) -> np.ndarray:
    """The 6 Card Bonus line (``_six_lines``) of ``cards`` with each set of ``_by_value`` at ``kept``."""
    _, _, _, sums, bits = _by_value()
    by_ranks, by_flush = _grades()
    grade = by_ranks[sums[kept] + int(sum(RANK_KEY[c >> 2] for c in cards))]
    for suit in range(4):
        mine = [c >> 2 for c in cards if c & 3 == suit]
        if len(mine) >= 2:  # five of a suit in six cards: two or more of them the seat's
            grade = np.maximum(grade, by_flush[bits[suit][kept] | sum(1 << r for r in mine)])
    return lines[grade]


def _threecard_classes(hands: RoundHands, rules: Any) -> Iterator[Class]:
    """Every dealer hand from the cards no seat holds, one per class settling alike: the hand's
    showdown (whether the hand qualifies; per seat, whether it beats, ties or loses to the seat's)
    and, per seat with a 6 Card Bonus, the line its six cards pay. Each seat's own class is its
    part of that: the qualification, its showdown and its line."""
    held = 0
    for c in _seats_cards(hands):
        held |= 1 << c
    sets, masks, values, _, _ = _by_value()
    kept = np.flatnonzero((masks & np.uint64(held)) == 0)  # the dealer's possible sets, by value
    players = [seat for seat in hands.seats if seat.seat != hands.banker_seat]
    shown = {seat.seat: value3(seat.cards) for seat in players if len(seat.cards) == 3}
    # the showdown is the same over each run of values between these cuts
    cuts = {0, len(values)}
    for v in (QUEEN_HIGH, *shown.values()):
        cuts.add(int(np.searchsorted(values, v, "left")))
        cuts.add(int(np.searchsorted(values, v, "right")))
    bounds = sorted(cuts)
    runs = np.searchsorted(kept, bounds).tolist()  # each run's first place in kept
    showdowns: list[dict[int, int]] = []  # per run: each seat's own class of the showdown
    for start, stop in zip(bounds, bounds[1:]):
        dealer = int(values[start])
        unqualified = int(dealer < QUEEN_HIGH)
        showdowns.append({seat.seat: unqualified * 3 + (value > dealer) - (value < dealer) + 1
                          if (value := shown.get(seat.seat)) is not None else unqualified for seat in players})
    sixes = [seat for seat in players if hands.game == tcp.GAME and seat.wagers.get(tcp.SIX_CARD_BONUS)
             and seat.seat in shown]
    if not sixes:
        for run, mine in enumerate(showdowns):
            n = runs[run + 1] - runs[run]
            if n:
                yield tuple(sets[kept[runs[run]]].tolist()), n, mine
        return
    table = _six_lines(rules.six_card_bonus)
    radix = int(table.max()) + 1
    counts = np.diff(runs)
    code = np.repeat(np.arange(len(counts)), counts)  # per kept set: its class, numbered densely
    lines = {}
    for seat in sixes:
        lines[seat.seat] = line = _six_card_lines(seat.cards, kept, table)
        code = code * radix + line
        present = np.zeros(int(code.max()) + 1, dtype=bool)
        present[code] = True
        code = (np.cumsum(present) - 1)[code]
    weights = np.bincount(code).tolist()
    first = np.empty(len(weights), dtype=np.int64)
    first[code] = np.arange(len(code))  # any set of each class stands for it
    run_of = np.searchsorted(runs, first, "right") - 1
    seat_lines = {seat: line[first].tolist() for seat, line in lines.items()}
    for k, (i, n) in enumerate(zip(first.tolist(), weights)):
        mine = dict(showdowns[run_of[k]])
        for seat, line in seat_lines.items():
            mine[seat] = mine[seat] * 20 + line[k]
        yield tuple(sets[kept[i]].tolist()), n, mine


_side_tables: dict[tuple[Any, int], np.ndarray] = {}


def _side_lines(player: int, rules: Any) -> np.ndarray:
    """52 x 52: the line the side bet of a seat holding ``player`` pays against each pair of dealer
    cards, numbered (the numbers differ exactly where the lines do)."""
    found = _side_tables.get((rules, player))
    if found is None:
        names: dict[str, int] = {}
        found = np.array([[names.setdefault(oftm.side_bet_payout(player, (a, b), rules).outcome, len(names))
                           for b in range(52)] for a in range(52)], dtype=np.int64)
        _side_tables[rules, player] = found
    return found


def _oftm_classes(hands: RoundHands, decks: int, rules: Any) -> Iterator[Class]:
    """The dealer's two cards, one per class settling alike: the higher card's rank (the
    showdown) and, per seat with a Bonus, the line it pays. Each seat's own class is its part of
    that: the rank and its line."""
    counts = np.full(52, decks, dtype=np.int64)
    for c in _seats_cards(hands):
        counts[c] -= 1
    if (counts < 0).any():
        raise ValueError(f"a card held more often than {decks} deck(s) hold it")
    a, b = np.triu_indices(52)  # every pair a <= b; ordered deals: n_a n_b twice, or n_a (n_a - 1)
    weight = np.where(a == b, counts[a] * (counts[a] - 1), 2 * counts[a] * counts[b])
    a, b, weight = a[weight > 0], b[weight > 0], weight[weight > 0]
    high = np.maximum(a, b) >> 2
    code = high
    mine: dict[int, np.ndarray] = {}
    for seat in hands.seats:
        if seat.wagers.get(oftm.BONUS) and len(seat.cards) == 1:
            line = _side_lines(seat.cards[0], rules)[a, b]
            code = code * 16 + line
            mine[seat.seat] = high * 16 + line
    _, first, back = np.unique(code, return_index=True, return_inverse=True)
    totals = np.bincount(back, weights=weight)  # weights < 2**53: exact
    seats = {seat.seat: mine.get(seat.seat, high)[first].tolist() for seat in hands.seats if seat.seat != hands.banker_seat}
    for k, (i, n) in enumerate(zip(first.tolist(), totals.tolist())):
        yield (int(a[i]), int(b[i])), int(n), {seat: codes[k] for seat, codes in seats.items()}


def _classes(hands: RoundHands, decks: int, rules: Any) -> list[Class] | None:
    if hands.game == thb.GAME:
        return list(holdem_classes(hands, decks))
    if hands.game in (tcp.GAME, fl.GAME):
        return list(_threecard_classes(hands, rules))
    if hands.game == oftm.GAME:
        return list(_oftm_classes(hands, decks, rules))
    return None


def deals(hands: RoundHands, decks: int, rules: Any) -> list[Deal] | None:
    """The dealer's possible hands given every seat's cards, with their weights, one per class of
    hands the round settles alike under ``rules`` (None: the game's unknown cards are not
    enumerated)."""
    found = _classes(hands, decks, rules)
    return None if found is None else [(dealer, n) for dealer, n, _ in found]


def house_result(hands: RoundHands, rules: Any, dealer: Sequence[int]) -> int:
    """The house's (bank's) result in cents had the dealer held ``dealer``: minus the players' net."""
    saved = hands.dealer
    hands.dealer = list(dealer)
    try:
        return -sum(r.net for r in settle(hands, rules).results)
    finally:
        hands.dealer = saved


def _seat_by_seat(hands: RoundHands, rules: Any) -> bool:
    """Whether the round's house result is the sum of each seat settled alone: always where no
    bank's stake limits the payouts (``rules.settle.cover_binds``)."""
    if hands.game == oftm.GAME:
        return True
    players = [s for s in hands.seats if s.seat != hands.banker_seat]
    return not cover_binds(hands.banker_stake, max_bank_pay(hands.game, [s.wagers for s in players], rules), rules)


def _results(hands: RoundHands, rules: Any, found: list[Class]) -> Iterator[tuple[int, int]]:
    """Each class's house result and weight: the round settled whole per class, or, where seats
    settle apart, each seat settled alone once per class of its own, the seats' results summed."""
    if not _seat_by_seat(hands, rules):
        for dealer, n, _ in found:
            yield house_result(hands, rules, dealer), n
        return
    alone = {seat.seat: RoundHands(hands.game, [seat], board=hands.board, banker_seat=hands.banker_seat,
                                   banker_stake=hands.banker_stake) for seat in hands.seats if seat.seat != hands.banker_seat}
    settled: dict[tuple[int, int], int] = {}
    for dealer, n, mine in found:
        x = 0
        for seat, own in mine.items():
            result = settled.get((seat, own))
            if result is None:
                result = settled[seat, own] = house_result(alone[seat], rules, dealer)
            x += result
        yield x, n


def _sums(hands: RoundHands, rules: Any, decks: int) -> tuple[int, int, int] | None:
    """The dealer hands' total weight and the weighted sums of X and X^2 (None: not enumerated)."""
    found = _classes(hands, decks, rules)
    if found is None:
        return None
    total = first = second = 0
    for x, n in _results(hands, rules, found):
        total += n
        first += n * x
        second += n * x * x
    if not total:
        raise ValueError("no dealer hand agrees with the seats' cards")
    return total, first, second


def conditional_moments(hands: RoundHands, rules: Any, decks: int) -> tuple[Fraction, Fraction] | None:
    """(E[X], E[X^2]) of the house result X in cents given every seat's cards and decisions, the
    dealer's cards unknown (None: not enumerated for this game)."""
    sums = _sums(hands, rules, decks)
    if sums is None:
        return None
    total, first, second = sums
    return Fraction(first, total), Fraction(second, total)


def theo_variance(hands: RoundHands, rules: Any, decks: int, theo: Fraction | float) -> float | None:
    """E[(X - theo)^2 | the seats' cards and decisions], cents squared (see the module docstring);
    None where the game's unknown cards are not enumerated."""
    sums = _sums(hands, rules, decks)
    if sums is None:
        return None
    total, first, second = sums
    p, q = theo.as_integer_ratio()
    # (second - 2 theo first + theo^2 total) / total over one denominator: int / int rounds correctly,
    # as float(Fraction) does
    return (second * q * q - 2 * p * q * first + p * p * total) / (total * q * q)


__all__ = ["COVERED", "conditional_moments", "deals", "house_result", "theo_variance"]
