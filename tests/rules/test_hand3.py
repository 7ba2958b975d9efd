"""Three-card poker evaluation (SF > trips > straight > flush > pair > high card)."""

from collections import Counter
from itertools import combinations, combinations_with_replacement
from math import comb, prod

from tablectl.cards import cards
from tablectl.rules.hand3 import (
    FLUSH,
    HIGH_CARD,
    MINI_ROYAL,
    PAIR,
    QUEEN_HIGH,
    QUEEN_SIX_FOUR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    category3,
    value3,
)


def v(text: str) -> int:
    return value3(cards(text))


def test_category_frequencies_over_one_deck_match_wizard_of_odds() -> None:
    # Wizard of Odds, "Three Card Poker": of C(52,3) = 22,100 hands, SF 48, trips 52,
    # straight 720, flush 1,096, pair 3,744, high card 16,440.
    counts = Counter(category3(value3(h)) for h in combinations(range(52), 3))
    assert counts == {
        STRAIGHT_FLUSH: 48,
        THREE_OF_A_KIND: 52,
        STRAIGHT: 720,
        FLUSH: 1096,
        PAIR: 3744,
        HIGH_CARD: 16440,
    }


def test_category_frequencies_over_two_decks_match_wizard_of_odds() -> None:
    # Wizard of Odds, blackjack side bet "Flush", two-deck return table: of C(104,3) = 182,104
    # hands, straight flush 384, three of a kind 728, straight 5,760, flush 10,016.
    shoe = [c for c in range(52) for _ in range(2)]
    counts = Counter(category3(value3(h)) for h in combinations(shoe, 3))
    assert sum(counts.values()) == 182_104
    assert [counts[c] for c in (STRAIGHT_FLUSH, THREE_OF_A_KIND, STRAIGHT, FLUSH)] == [384, 728, 5760, 10016]


def test_category_frequencies_over_four_decks_match_wizard_of_odds() -> None:
    # Same source, four-deck table: SF 3,072, trips 7,280, straight 46,080, flush 85,120.
    counts: Counter[int] = Counter()
    for identities in combinations_with_replacement(range(52), 3):
        physical = prod(comb(4, m) for m in Counter(identities).values())
        counts[category3(value3(identities))] += physical
    assert [counts[c] for c in (STRAIGHT_FLUSH, THREE_OF_A_KIND, STRAIGHT, FLUSH)] == [3072, 7280, 46080, 85120]


def test_ace_two_three_is_the_lowest_straight() -> None:
    assert category3(v("AS 2H 3D")) == STRAIGHT
    assert v("AS 2H 3D") < v("2S 3H 4D")


def test_ace_king_queen_is_the_highest_straight() -> None:
    straights = [value3(h) for h in combinations(range(52), 3) if category3(value3(h)) == STRAIGHT]
    assert max(straights) == v("AS KH QD") > v("KS QH JD")


def test_king_ace_two_is_not_a_straight() -> None:
    assert category3(v("KS AH 2D")) == HIGH_CARD


def test_categories_rank_in_the_games_order() -> None:
    ladder = ["2S 3S 4S", "2S 2H 2D", "AS KH QD", "AS KS JS", "AS AH KD", "AS KH JD"]
    values = [v(h) for h in ladder]
    assert values == sorted(values, reverse=True)


def test_suits_never_break_a_tie() -> None:
    assert v("AS 9H 4D") == v("AC 9D 4H")
    assert v("KS KH 3D") == v("KC KD 3S")


def test_higher_kicker_wins_between_equal_pairs() -> None:
    assert v("8S 8H 5D") > v("8C 8D 4S")


def test_suited_three_of_a_kind_counts_as_three_of_a_kind() -> None:
    assert category3(value3([cards("7H")[0]] * 3)) == THREE_OF_A_KIND


def test_suited_pair_counts_as_a_flush() -> None:
    seven, nine = cards("7H 9H")
    assert category3(value3([seven, seven, nine])) == FLUSH


def test_queen_high_qualifies_and_jack_high_does_not() -> None:
    assert v("QS 3H 2D") >= QUEEN_HIGH
    assert v("JS TH 8D") < QUEEN_HIGH


def test_queen_six_four_is_the_raise_threshold() -> None:
    assert v("QS 6H 4D") == QUEEN_SIX_FOUR
    assert v("QS 6H 3D") < QUEEN_SIX_FOUR < v("QS 6H 5D")


def test_mini_royal_is_suited_ace_king_queen() -> None:
    assert v("AH KH QH") == MINI_ROYAL
    assert v("AH KH QS") != MINI_ROYAL
