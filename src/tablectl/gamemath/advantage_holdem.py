"""Texas Hold'em Bonus with the dealer's hole cards seen: exact best strategy and edge, one
figure with one of the dealer's two cards seen and one with both.

The count runs per *triple*: the player's two hole cards and the one dealer card seen, taken up
to a renaming of suits (each canonical triple stands for the triples its renamings give; every
figure is invariant under it). ``holdem_hole_card_kernel.triple`` counts one triple exactly, over
every unseen dealer card and every board, for both kinds of information at once. With one card
seen a deal is two cases (either card may be the one seen); with both seen a case is a deal.

``figures(deck)`` counts a reduced deck in one go (the tests compare it with a brute force of
live settlements); ``Run`` counts the full deck triple by triple into a resumable file of
results (hours of CPU: ``tablectl math texas-holdem-bonus --advantage``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from itertools import combinations, permutations

import numpy as np

from tablectl.gamemath.advantage import AdvantageFigure
from tablectl.gamemath.holdem_hole_card_kernel import CASES, NET, PLAYED, RIVER_BETS, SLOTS, TURN_BETS, binomials, triple
from tablectl.gamemath.holdem_tables import RANK_KEY, flush, ranks
from tablectl.rules.hand7 import FLUSH, STRAIGHT

ANTE_FROM = {"straight": STRAIGHT, "flush": FLUSH}
ONE_SEEN = "one of the dealer's two hole cards seen"
BOTH_SEEN = "both of the dealer's hole cards seen"
Triple = tuple[int, int, int]  # the player's two cards (ascending) and the seen dealer card


def _suit_maps(deck: Sequence[int]) -> list[tuple[int, ...]]:
    """The renamings of suits that map ``deck`` onto itself."""
    cards = set(deck)
    return [p for p in permutations(range(4)) if {(c & ~3) | p[c & 3] for c in cards} == cards]


def canonical_triples(deck: Sequence[int]) -> list[tuple[Triple, int]]:
    """Every triple of ``deck`` up to a renaming of suits: a representative (card ids) and how
    many triples it stands for, in a fixed order."""
    maps = _suit_maps(deck)
    counts: Counter[Triple] = Counter()
    for a, b in combinations(sorted(deck), 2):
        for d in deck:
            if d in (a, b):
                continue
            images = []
            for p in maps:
                x, y, z = ((c & ~3) | p[c & 3] for c in (a, b, d))
                images.append((min(x, y), max(x, y), z))
            counts[min(images)] += 1
    return sorted(counts.items())


def count_triple(deck: Sequence[int], rep: Triple, ante_pays_from: str = "straight") -> np.ndarray:
    """The kernel's sums for one triple (``int64[2, SLOTS]``: one card seen, both seen)."""
    cards = np.array(sorted(deck), dtype=np.int64)
    position = {int(c): i for i, c in enumerate(cards)}
    out = np.zeros((2, SLOTS), dtype=np.int64)
    triple(cards, position[rep[0]], position[rep[1]], position[rep[2]], ANTE_FROM[ante_pays_from], RANK_KEY,
           ranks(7), flush(), binomials(len(cards)), out)
    return out


def totals(results: Iterable[tuple[int, np.ndarray]]) -> list[list[int]]:
    """Weighted sums of triples' results (weight, ``int64[2, SLOTS]``), as Python ints."""
    total = [[0] * SLOTS for _ in range(2)]
    for weight, out in results:
        for kind in range(2):
            for slot in range(SLOTS):
                total[kind][slot] += weight * int(out[kind, slot])
    return total


def from_totals(total: list[list[int]]) -> list[AdvantageFigure]:
    """The two figures from the weighted sums (both seen: every deal was counted twice)."""
    out = []
    for kind, information, per_deal in ((0, ONE_SEEN, 1), (1, BOTH_SEEN, 2)):
        t = total[kind]
        cases, played = t[CASES] // per_deal, t[PLAYED] // per_deal
        strategy = (
            f"bet the Flop in {_share(t[PLAYED], t[CASES])} of cases, fold the rest",
            f"of the cases played: Turn bet in {_share(t[TURN_BETS], t[PLAYED])}, River bet in {_share(t[RIVER_BETS], t[PLAYED])}",
        )
        out.append(AdvantageFigure("main game", "hole-card", information, cases, Fraction(t[NET], per_deal), played, strategy))
    return out


def _share(part: int, whole: int) -> str:
    return f"{part / whole:.2%}" if whole else "0%"


def figures(deck: Sequence[int] | None = None, ante_pays_from: str = "straight",
            on_triple: Callable[[int, int], None] | None = None) -> list[AdvantageFigure]:
    """Both figures for ``deck`` (default: 52 cards) in one go; ``on_triple(done, of)`` is told
    of each triple counted."""
    deck = list(range(52)) if deck is None else list(deck)
    reps = canonical_triples(deck)
    results = []
    for i, (rep, weight) in enumerate(reps):
        results.append((weight, count_triple(deck, rep, ante_pays_from)))
        if on_triple:
            on_triple(i + 1, len(reps))
    return from_totals(totals(results))
