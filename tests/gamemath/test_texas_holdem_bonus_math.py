"""Exact Texas Hold'em Bonus Bonus-bet math against hand counts."""

from fractions import Fraction
from math import comb

from tablectl.gamemath import texas_holdem_bonus as math1


def test_bonus_lines_match_hand_counts() -> None:
    dealer = comb(50, 2)
    expected = {
        "aces-against-aces": comb(4, 2) * comb(2, 2),
        "aces": comb(4, 2) * dealer - comb(4, 2),
        "ace-king-suited": 4 * dealer,
        "ace-queen-or-jack-suited": 2 * 4 * dealer,
        "ace-king": 4 * 3 * dealer,
        "kings-queens-or-jacks": 3 * comb(4, 2) * dealer,
        "ace-queen-or-jack": 2 * 4 * 3 * dealer,
        "twos-to-tens": 9 * comb(4, 2) * dealer,
    }
    expected["lose"] = comb(52, 2) * dealer - sum(expected.values())
    found = {line.outcome: line.combinations for line in math1.bonus().outcomes}
    assert found == expected


def test_bonus_house_edge_follows_from_the_hand_counts() -> None:
    # per player hand out of 1,326 (the 1,000:1 line needs the dealer's aces too: 1 in 1,225)
    pays = 6 * (Fraction(1, 1225) * 1000 + Fraction(1224, 1225) * 30) + 4 * 25 + 8 * 20 + 12 * 15 + 18 * 10 + 24 * 5 + 54 * 3
    losers = 1326 - (6 + 4 + 8 + 12 + 18 + 24 + 54)
    assert math1.bonus().house_edge == (losers - pays) / 1326
