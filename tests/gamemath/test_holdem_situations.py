"""Texas Hold'em Bonus situations up to suits: every dealt flop and turn has exactly one
canonical row, and dealt cards find it whatever their suits."""

from __future__ import annotations

import numpy as np
import pytest

from tablectl.cards import cards
from tablectl.gamemath.holdem import main as hm
from tablectl.gamemath.holdem import situations as hs

REPS, WEIGHTS, LABELS = hm.starting_hands()


def boards_of(label: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    c1, c2 = (int(c) for c in REPS[LABELS.index(label)])
    return hs.canonical_boards(c1, c2, n, hs.stabiliser(c1, c2), hm.BINOM)


@pytest.mark.slow
def test_the_canonical_flops_and_turns_of_all_169_hands_are_the_known_counts() -> None:
    assert sum(len(boards_of(label, 3)[0]) for label in LABELS) == 1_286_792
    assert sum(len(boards_of(label, 4)[0]) for label in LABELS) == 13_960_050
    assert sum(len(boards_of(label, 3)[0]) for label in LABELS) == 1_286_792


@pytest.mark.parametrize("label", ["AA", "AKs", "72o"])
@pytest.mark.parametrize("n", [3, 4])
def test_the_canonical_boards_stand_for_every_board_once(label: str, n: int) -> None:
    boards, sizes = boards_of(label, n)
    assert int(sizes.sum()) == int(hm.BINOM[50, n])


def test_dealt_cards_with_other_suits_find_the_same_row() -> None:
    one = hs.canonical(cards("AD KD"), cards("7D 8C 2S"))
    other = hs.canonical(cards("KH AH"), cards("2C 8S 7H"))
    assert one == other


def test_the_canonical_board_is_one_of_the_canonical_boards_listed() -> None:
    hole, board = hs.canonical(cards("QC QH"), cards("JC 9D 3C 3S"))
    boards, _ = boards_of("QQ", 4)
    listed = {hs.cards_text([int(c) for c in b]) for b in boards}
    assert hole == "QH QS" and board in listed


def test_every_suit_renaming_of_a_flop_finds_one_row() -> None:
    hole, flop = cards("9S 8S"), cards("7S 6H 2D")
    from itertools import permutations

    found = {hs.canonical([c >> 2 << 2 | p[c & 3] for c in hole], [c >> 2 << 2 | p[c & 3] for c in flop])
             for p in permutations(range(4))}
    assert len(found) == 1


def test_cards_are_written_as_the_log_writes_them_highest_first() -> None:
    assert hs.cards_text(cards("2C 8H 7H")) == "8H 7H 2C"
    assert hs.hand_name(*cards("7D 2C")) == "72o" and hs.hand_name(*cards("KS AS")) == "AKs"


def test_a_situation_with_a_card_twice_is_refused_naming_the_cards() -> None:
    with pytest.raises(ValueError, match="not a Texas Hold'em Bonus situation"):
        hs.canonical(cards("AS KS"), cards("AS 2D 3D"))


def test_pairs_fold_their_suit_swaps_into_one_row() -> None:
    boards, sizes = boards_of("AA", 3)
    rows = {hs.cards_text([int(c) for c in b]): int(s) for b, s in zip(boards, sizes)}
    # 4S 3S 2S and 4H 3H 2H are one situation beside AS AH: one row standing for both
    assert rows["4S 3S 2S"] == 2 and "4H 3H 2H" not in rows
