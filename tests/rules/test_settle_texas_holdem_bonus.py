"""Texas Hold'em Bonus settlement."""

from collections.abc import Sequence

import pytest

from tablectl.cards import cards
from tablectl.rounds import RoundHands, SeatHand
from tablectl.rules import texas_holdem_bonus as thb
from tablectl.rules.errors import SettlementError
from tablectl.rules.houserules import TexasHoldemBonusRules
from tablectl.rules.settle import settle

ALL_IN = [thb.FLOP, thb.TURN, thb.RIVER]


def results(
    hole: str,
    dealer: str,
    board: str,
    decisions: Sequence[str] = ALL_IN,
    wagers: dict[str, int] | None = None,
    rules: TexasHoldemBonusRules | None = None,
) -> list[tuple[str, str, int, int]]:
    seat = SeatHand(1, cards(hole), wagers or {thb.ANTE: 100}, list(decisions))
    hands = RoundHands(thb.GAME, [seat], dealer=cards(dealer), board=cards(board))
    return [(r.bet, r.outcome, r.stake, r.net) for r in settle(hands, rules).results]


def test_a_fold_loses_the_ante_only() -> None:
    assert results("7S 2D", "AS AH", "", [thb.FOLD_DECISION]) == [("ante", "fold", 100, -100)]


def test_winning_below_a_straight_pushes_the_ante_and_pays_the_raises() -> None:
    assert results("KS KD", "QS QD", "2C 7H 9S TD 4C") == [
        ("ante", "push", 100, 0),
        ("flop", "win", 200, 200),
        ("turn", "win", 100, 100),
        ("river", "win", 100, 100),
    ]


def test_winning_with_a_straight_pays_the_ante_too() -> None:
    assert results("8S JD", "QS QD", "2C 7H 9S TD 4C")[0] == ("ante", "win", 100, 100)


def test_house_rule_can_require_a_flush_to_pay_the_ante() -> None:
    rules = TexasHoldemBonusRules(ante_pays_from="flush")
    assert results("8S JD", "QS QD", "2C 7H 9S TD 4C", rules=rules)[0] == ("ante", "push", 100, 0)


def test_checked_streets_have_no_bet() -> None:
    bets = [r[0] for r in results("KS KD", "QS QD", "2C 7H 9S TD 4C", [thb.FLOP, thb.CHECK, thb.CHECK])]
    assert bets == ["ante", "flop"]


def test_a_dealer_hand_that_ranks_higher_loses_every_bet() -> None:
    assert {r[3] for r in results("QS QD", "KS KD", "2C 7H 9S TD 4C")} == {-100, -200}


def test_equal_hands_push_every_bet() -> None:
    assert {r[3] for r in results("3S 2D", "3H 2C", "AC AH KS KD QC")} == {0}


def test_the_bonus_pays_on_the_hole_cards_whatever_the_hand_does() -> None:
    outcome = results("AS KS", "QS QD", "2C 7H 9S TD 4C", [thb.FOLD_DECISION], {thb.ANTE: 100, thb.BONUS: 10})
    assert outcome[-1] == ("bonus", "ace-king-suited", 10, 250)


@pytest.mark.parametrize(
    ("hole", "dealer", "line"),
    [
        ("AS AH", "AD AC", "aces-against-aces"),
        ("AS AH", "KD KC", "aces"),
        ("AS QS", "KD KC", "ace-queen-or-jack-suited"),
        ("AS KH", "KD KC", "ace-king"),
        ("JS JH", "KD KC", "kings-queens-or-jacks"),
        ("AS JH", "KD KC", "ace-queen-or-jack"),
        ("TS TH", "KD KC", "twos-to-tens"),
    ],
)
def test_bonus_lines(hole: str, dealer: str, line: str) -> None:
    outcome = results(hole, dealer, "", [thb.FOLD_DECISION], {thb.ANTE: 100, thb.BONUS: 10})
    assert outcome[-1][1] == line


def test_the_bonus_loses_without_a_paying_hand() -> None:
    outcome = results("AS TH", "KD KC", "", [thb.FOLD_DECISION], {thb.ANTE: 100, thb.BONUS: 10})
    assert outcome[-1] == ("bonus", "lose", 10, -10)


def test_a_turn_bet_needs_a_flop_bet_first() -> None:
    with pytest.raises(SettlementError):
        results("KS KD", "QS QD", "2C 7H 9S TD 4C", [thb.TURN])


def test_house_rule_can_make_a_fold_forfeit_the_bonus() -> None:
    rules = TexasHoldemBonusRules(fold_forfeits_bonus=True)
    outcome = results("AS KS", "QS QD", "", [thb.FOLD_DECISION], {thb.ANTE: 100, thb.BONUS: 10}, rules)
    assert outcome[-1] == ("bonus", "fold", 10, -10)
