"""Texas Hold'em Bonus with the dealer's hole cards seen: exact best strategy and edge, one
figure with one of the dealer's two cards seen and one with both.

Two kinds of unit are counted, each taken up to a renaming of suits (a representative stands for
the units its renamings give; every figure is invariant under it):

- one card seen: a *triple*, the player's two hole cards and the dealer card seen (5,083
  canonical triples of the 66,300), counted by ``holdem_hole_card_kernel.one_seen`` over every
  unseen dealer card and every board; a deal is two cases (either card may be the one seen);
- both seen: a *pair* of hands, the player's and the dealer's (93,769 canonical pairs of the
  1,624,350), counted by ``holdem_hole_card_kernel.pair`` over every board; a case is a deal.

``figures(deck)`` counts a reduced deck in one go (the tests compare it with a brute force of
live settlements); ``advantage_holdem_run`` counts the full deck unit by unit into a resumable
file of results (hours of CPU: ``tablectl math texas-holdem-bonus --advantage``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from itertools import combinations, permutations

import numpy as np

from tablectl.cards import RANKS
from tablectl.gamemath.advantage.figure import AdvantageFigure
from tablectl.gamemath.holdem.hole_card_kernel import (
    CASES,
    NET,
    PLAYED,
    RIVER_BETS,
    SLOTS,
    TURN_BETS,
    binomials,
    one_seen,
    pair,
)
from tablectl.gamemath.holdem.tables import RANK_KEY, flush, ranks
from tablectl.rules.hand7 import FLUSH, STRAIGHT

ANTE_FROM = {"straight": STRAIGHT, "flush": FLUSH}
ONE_SEEN = "one of the dealer's two hole cards seen"
BOTH_SEEN = "both of the dealer's hole cards seen"
ONE, BOTH = "one", "both"  # the two kinds of unit counted
Triple = tuple[int, int, int]  # the player's two cards (ascending) and the seen dealer card
Pair = tuple[int, int, int, int]  # the player's two cards and the dealer's two (each ascending)


def _suit_maps(deck: Sequence[int]) -> list[tuple[int, ...]]:
    """The renamings of suits that map ``deck`` onto itself."""
    cards = set(deck)
    return [p for p in permutations(range(4)) if {(c & ~3) | p[c & 3] for c in cards} == cards]


def _image(p: tuple[int, ...], cards: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted((c & ~3) | p[c & 3] for c in cards))


def _orbits(items: Iterable[tuple[int, ...]], maps: list[tuple[int, ...]]) -> list[tuple[tuple[int, ...], int]]:
    """Each orbit of ``items`` (sorted card tuples) under ``maps``: its least member and size."""
    seen: set[tuple[int, ...]] = set()
    out = []
    for item in items:
        if item in seen:
            continue
        orbit = {_image(p, item) for p in maps}
        seen |= orbit
        out.append((min(orbit), len(orbit)))
    return sorted(out)


def _holes(deck: Sequence[int]) -> list[tuple[tuple[int, ...], int, list[tuple[int, ...]]]]:
    """The player's hole cards up to a renaming of suits: representative, how many hands it
    stands for, and the renamings that leave it unchanged."""
    maps = _suit_maps(deck)
    return [(rep, n, [p for p in maps if _image(p, rep) == rep]) for rep, n in _orbits(combinations(sorted(deck), 2), maps)]


def canonical_triples(deck: Sequence[int]) -> list[tuple[Triple, int]]:
    """Every (hole cards, seen dealer card) of ``deck`` up to a renaming of suits: a
    representative (card ids) and how many it stands for, in a fixed order."""
    out = []
    for hole, n, fixing in _holes(deck):
        for (seen,), k in _orbits(((c,) for c in sorted(deck) if c not in hole), fixing):
            out.append(((hole[0], hole[1], seen), n * k))
    return out


def canonical_pairs(deck: Sequence[int]) -> list[tuple[Pair, int]]:
    """Every (hole cards, dealer's hole cards) of ``deck`` up to a renaming of suits."""
    out = []
    for hole, n, fixing in _holes(deck):
        rest = [c for c in sorted(deck) if c not in hole]
        for dealer, k in _orbits(combinations(rest, 2), fixing):
            out.append(((hole[0], hole[1], dealer[0], dealer[1]), n * k))
    return out


def _kernel_args(deck: Sequence[int], ante_pays_from: str) -> tuple[np.ndarray, dict[int, int], tuple]:
    cards = np.array(sorted(deck), dtype=np.int64)
    position = {int(c): i for i, c in enumerate(cards)}
    return cards, position, (ANTE_FROM[ante_pays_from], RANK_KEY, ranks(7), flush(), binomials(len(cards)))


def count_one_seen(deck: Sequence[int], rep: Triple, ante_pays_from: str = "straight") -> np.ndarray:
    """The kernel's sums (``int64[SLOTS]``) for one triple, one dealer card seen."""
    cards, position, args = _kernel_args(deck, ante_pays_from)
    out = np.zeros(SLOTS, dtype=np.int64)
    one_seen(cards, *(position[c] for c in rep), *args, out)
    return out


def count_pair(deck: Sequence[int], rep: Pair, ante_pays_from: str = "straight") -> np.ndarray:
    """The kernel's sums (``int64[SLOTS]``) for one pair of hands, both dealer cards seen."""
    cards, position, args = _kernel_args(deck, ante_pays_from)
    out = np.zeros(SLOTS, dtype=np.int64)
    pair(cards, *(position[c] for c in rep), *args, out)
    return out


def units(deck: Sequence[int]) -> list[tuple[str, tuple[int, ...], int]]:
    """Everything to count: (kind, representative, weight), the one-seen triples first."""
    return [(ONE, t, w) for t, w in canonical_triples(deck)] + [(BOTH, p, w) for p, w in canonical_pairs(deck)]


def count_unit(deck: Sequence[int], kind: str, rep: tuple[int, ...], ante_pays_from: str = "straight") -> np.ndarray:
    if kind == ONE:
        return count_one_seen(deck, (rep[0], rep[1], rep[2]), ante_pays_from)
    return count_pair(deck, (rep[0], rep[1], rep[2], rep[3]), ante_pays_from)


def totals(results: Iterable[tuple[str, tuple[int, ...], int, np.ndarray]]) -> dict[str, list[int]]:
    """Weighted sums of units' results (kind, representative, weight, ``int64[SLOTS]``), as Python
    ints: per kind, and, with one card seen, per rank seen (``"seen 2"`` to ``"seen A"``)."""
    total = {ONE: [0] * SLOTS, BOTH: [0] * SLOTS}
    for kind, rep, weight, out in results:
        rows = [total[kind]]
        if kind == ONE:
            rows.append(total.setdefault(f"seen {RANKS[rep[2] >> 2]}", [0] * SLOTS))
        for row in rows:
            for slot in range(SLOTS):
                row[slot] += weight * int(out[slot])
    return total


def from_totals(total: dict[str, list[int]]) -> list[AdvantageFigure]:
    """The two figures from the weighted sums."""
    out = []
    for kind, information in ((ONE, ONE_SEEN), (BOTH, BOTH_SEEN)):
        t = total[kind]
        strategy = [
            f"bet the Flop in {_share(t[PLAYED], t[CASES])} of cases, fold the rest",
            f"of the cases played: Turn bet in {_share(t[TURN_BETS], t[PLAYED])}, River bet in {_share(t[RIVER_BETS], t[PLAYED])}",
        ]
        if kind == ONE:
            seen = [(r, total[f"seen {r}"]) for r in RANKS if f"seen {r}" in total]
            strategy.append("the dealer shows " + ", ".join(
                f"{r}: fold {_share(row[CASES] - row[PLAYED], row[CASES])}" for r, row in seen))
        out.append(AdvantageFigure("main game", "hole-card", information, t[CASES], Fraction(t[NET]), t[PLAYED],
                                   tuple(strategy)))
    return out


def _share(part: int, whole: int) -> str:
    return f"{part / whole:.2%}" if whole else "0%"


def figures(deck: Sequence[int] | None = None, ante_pays_from: str = "straight") -> list[AdvantageFigure]:
    """Both figures for ``deck`` (default: 52 cards: hours) in one go."""
    deck = list(range(52)) if deck is None else list(deck)
    return from_totals(totals((kind, rep, w, count_unit(deck, kind, rep, ante_pays_from)) for kind, rep, w in units(deck)))
