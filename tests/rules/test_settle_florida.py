"""Florida Three Card Poker settlement."""

from collections.abc import Sequence

from tablectl.cards import cards
from tablectl.rounds import RoundHands, SeatHand
from tablectl.rules import three_card_poker_florida as florida
from tablectl.rules.houserules import FloridaRules
from tablectl.rules.settle import settle


def results(
    player: str,
    dealer: str,
    decisions: Sequence[str] = (florida.RAISE,),
    wagers: dict[str, int] | None = None,
    rules: FloridaRules | None = None,
) -> dict[str, tuple[str, int]]:
    seat = SeatHand(1, cards(player), wagers or {florida.ANTE: 100, florida.PAIRPLUS: 10}, list(decisions))
    settled = settle(RoundHands(florida.GAME, [seat], dealer=cards(dealer)), rules).results
    return {r.bet: (r.outcome, r.net) for r in settled}


def test_ante_has_no_bonus_for_a_straight_flush() -> None:
    outcome = results("4S 5S 6S", "QS 8H 4D")
    assert outcome[florida.ANTE] == ("win", 100)
    assert set(outcome) == {florida.ANTE, florida.PLAY, florida.PAIRPLUS}


def test_dealer_not_qualifying_pays_the_ante_and_pushes_the_play() -> None:
    outcome = results("KS 9H 2D", "JS 8H 4D")
    assert (outcome[florida.ANTE], outcome[florida.PLAY]) == (("win", 100), ("push", 0))


def test_pairplus_pays_a_pair_that_beats_the_dealer_two_to_one() -> None:
    assert results("9S 9H 2D", "QS 8H 4D")[florida.PAIRPLUS] == ("pair", 20)


def test_pairplus_pays_even_when_the_dealer_does_not_qualify() -> None:
    assert results("9S 9H 2D", "JS 8H 4D")[florida.PAIRPLUS] == ("pair", 20)


def test_pairplus_loses_with_a_pair_below_the_dealers_hand() -> None:
    assert results("9S 9H 2D", "TS TH 4D")[florida.PAIRPLUS] == ("lose", -10)


def test_pairplus_loses_when_the_hand_beats_the_dealer_without_a_pair() -> None:
    assert results("AS 9H 2D", "QS 8H 4D")[florida.PAIRPLUS] == ("lose", -10)


def test_equal_hands_of_a_pair_or_better_push_the_pairplus() -> None:
    assert results("9S 9H 2D", "9C 9D 2H")[florida.PAIRPLUS] == ("push", 0)


def test_equal_hands_below_a_pair_lose_the_pairplus_by_default() -> None:
    assert results("AS 9H 2D", "AC 9D 2H")[florida.PAIRPLUS] == ("lose", -10)


def test_house_rule_pushes_equal_hands_below_a_pair() -> None:
    rules = FloridaRules(pairplus_tie_below_pair="push")
    assert results("AS 9H 2D", "AC 9D 2H", rules=rules)[florida.PAIRPLUS] == ("push", 0)


def test_mini_royal_pays_two_hundred() -> None:
    assert results("AH KH QH", "QS 8H 4D")[florida.PAIRPLUS] == ("mini-royal", 2000)


def test_other_straight_flushes_pay_forty() -> None:
    assert results("KH QH JH", "QS 8H 4D")[florida.PAIRPLUS] == ("straight-flush", 400)


def test_pairplus_alone_needs_no_decision() -> None:
    assert results("9S 9H 2D", "QS 8H 4D", (), {florida.PAIRPLUS: 10}) == {florida.PAIRPLUS: ("pair", 20)}


def test_a_fold_loses_the_ante_and_by_default_the_pairplus() -> None:
    outcome = results("9S 9H 2D", "QS 8H 4D", (florida.FOLD_DECISION,))
    assert outcome == {florida.ANTE: ("fold", -100), florida.PAIRPLUS: ("fold", -10)}
