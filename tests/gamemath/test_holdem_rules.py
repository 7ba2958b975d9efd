"""Texas Hold'em Bonus flop and turn rules: the classes a dealer reads off the cards, and the
rules derived from exact values with their agreement and cost."""

from __future__ import annotations

import numpy as np
import pytest

from tablectl.cards import cards
from tablectl.gamemath.holdem import rules as hr


@pytest.mark.parametrize(("hole", "board", "made", "draw"), [
    ("9S 8D", "7H 6C 2D", "no pair of one's own", "an open-ended straight draw"),
    ("AS 5D", "4H 3C 9D", "no pair of one's own", "a gutshot"),
    ("AS KS", "QS 7S 2D", "no pair of one's own", "four to a flush"),
    ("KS 7D", "KH 8C 2D", "top pair (a hole card pairs the top board card)", "no draw"),
    ("AS AD", "KH 7C 2D", "an overpair (a pocket pair over the board)", "no draw"),
    ("2S 2D", "KH 8C 3D", "a pocket pair under the top board card", "no draw"),
    ("8S 3D", "KH 8C 2D", "a lower pair (a hole card pairs a board card under the top)", "no draw"),
    ("KS 8D", "KH 8C 2D", "two pair using a hole card", "no draw"),
    ("7S 2D", "7H 7C 2H 9H", "a straight or better", "no draw"),
])  # fmt: skip
def test_the_class_is_what_a_dealer_reads_off_the_cards(hole: str, board: str, made: str, draw: str) -> None:
    assert hr.classify(cards(hole), cards(board))[:2] == (made, draw)


def test_a_pair_on_the_board_alone_is_no_pair_of_ones_own() -> None:
    made, _, overs = hr.classify(cards("AS KD"), cards("7H 7C 2D"))
    assert made == "no pair of one's own" and overs == "two overcards"


def test_a_straight_the_board_makes_alone_is_no_draw_of_ones_own() -> None:
    assert hr.classify(cards("2S 2D"), cards("9H 8C 7D 6S"))[1] == "no draw"


def tally(**cells: tuple[int, int, int, int]) -> np.ndarray:
    out = np.zeros((hr.CELLS, 4), np.int64)
    for name, row in cells.items():
        out[int(name[1:])] = row
    return out


def test_a_class_is_bet_when_betting_gains_over_the_class_as_a_whole() -> None:
    # class 12 (top pair, no draw, no overcard): 100 situations, 70 bet exactly, gaining 700
    # where betting is right and losing 100 where it is not; class 105 (no pair, no draw, no
    # overcard): 200 situations, 20 bet, gaining 40 and losing 900
    rules = hr.derive("flop", tally(c60=(100, 70, 700, 100), c105=(200, 20, 40, 900)), unit=10)
    assert rules.bet_with == [hr.MADE[4]]
    assert rules.agreement == pytest.approx((70 + 180) / 300)
    assert rules.ev_cost == pytest.approx((100 + 40) / 300 / 10)


def test_the_rules_read_back_as_text_bet_in_the_classes_they_name() -> None:
    rules = hr.derive("flop", tally(c60=(100, 70, 700, 100), c105=(200, 20, 40, 900)), unit=10)
    assert hr.rule_bets(rules, cards("KS 7D"), cards("KH 8C 2D"))
    assert not hr.rule_bets(rules, cards("4S 3D"), cards("KH 8C 2D"))


def test_a_class_bet_only_with_some_overcards_names_them() -> None:
    # no pair of one's own with an open-ended straight draw (cells 111-113): bet with two overcards only
    rules = hr.derive("turn", tally(c111=(10, 0, 0, 5), c113=(10, 10, 9, 0)), unit=1)
    assert rules.bet_with == ["an open-ended straight draw, with two overcards"]
    assert hr.rule_bets(rules, cards("JS TD"), cards("9H 8C 2D 3S"))
    assert rules.sentence().startswith("turn: bet the River (1x) with an open-ended straight draw")
