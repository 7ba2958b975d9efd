"""One for the Money settlement."""

from collections.abc import Sequence

import pytest

from tablectl.cards import card, cards
from tablectl.rounds import RoundHands, SeatHand
from tablectl.rules import one_for_the_money as oftm
from tablectl.rules.errors import SettlementError
from tablectl.rules.houserules import OneForTheMoneyRules, rules_from_dict
from tablectl.rules.settle import settle


def results(
    final: str,
    dealer: str,
    decisions: Sequence[str] = (oftm.CHECK,),
    traded: Sequence[str] = (),
    wagers: dict[str, int] | None = None,
    rules: OneForTheMoneyRules | None = None,
) -> list[tuple[str, str, int]]:
    seat = SeatHand(1, [card(final)], wagers or {oftm.ANTE: 100}, list(decisions), traded=cards(" ".join(traded)))
    return [(r.bet, r.outcome, r.net) for r in settle(RoundHands(oftm.GAME, [seat], dealer=cards(dealer)), rules).results]


def test_the_dealer_plays_the_higher_of_two_cards() -> None:
    assert results("QH", "2S KD") == [("ante", "lose", -100)]


def test_a_card_above_both_dealer_cards_wins() -> None:
    assert results("AH", "2S KD") == [("ante", "win", 100)]


def test_the_same_rank_as_the_dealers_card_pushes() -> None:
    assert results("KH", "2S KD") == [("ante", "push", 0)]


def test_a_raise_wins_or_loses_with_the_ante() -> None:
    assert results("AH", "2S KD", [oftm.RAISE]) == [("ante", "win", 100), ("raise", "win", 100)]


def test_a_trade_then_raise_puts_three_antes_in_action() -> None:
    outcome = results("3H", "2S KD", [oftm.TRADE, oftm.RAISE], ["9C"])
    assert outcome == [("ante", "lose", -100), ("trade", "lose", -100), ("raise", "lose", -100)]


def test_a_trade_must_name_the_traded_card() -> None:
    with pytest.raises(SettlementError):
        results("3H", "2S KD", [oftm.TRADE, oftm.STAND])


def test_a_trade_after_a_raise_is_refused() -> None:
    with pytest.raises(SettlementError):
        results("3H", "2S KD", [oftm.RAISE, oftm.TRADE], ["9C"])


def bonus(final: str, dealer: str, rules: OneForTheMoneyRules | None = None) -> tuple[str, int]:
    outcome = results(final, dealer, wagers={oftm.ANTE: 100, oftm.BONUS: 10}, rules=rules)
    return outcome[-1][1:]


def test_three_card_bonus_table_one_pays_forty_on_a_straight_flush() -> None:
    assert bonus("4H", "5H 6H") == ("straight-flush", 400)


def test_three_card_bonus_counts_ace_two_three_as_a_straight() -> None:
    assert bonus("AH", "2S 3D") == ("straight", 100)


def test_three_card_bonus_table_two_pays_nine_on_every_line() -> None:
    rules = rules_from_dict(oftm.GAME, {"three_card_bonus": "2"})
    assert bonus("4H", "5H 6H", rules) == ("straight-flush", 90)
    assert bonus("4H", "9H KH", rules) == ("flush", 90)


def test_three_card_bonus_loses_on_a_pair() -> None:
    assert bonus("4H", "4S KD") == ("lose", -10)


def test_three_card_bonus_pays_suited_three_of_a_kind_as_three_of_a_kind() -> None:
    assert bonus("4H", "4H 4H") == ("three-of-a-kind", 300)


PERFECT_MATCH = OneForTheMoneyRules(side_bet="perfect-match")


def test_perfect_match_pays_a_hundred_on_three_identical_cards() -> None:
    assert bonus("7D", "7D 7D", PERFECT_MATCH) == ("suited-three-of-a-kind", 1000)


def test_perfect_match_pays_thirty_on_three_of_a_kind() -> None:
    assert bonus("7D", "7S 7D", PERFECT_MATCH) == ("three-of-a-kind", 300)


def test_perfect_match_pays_ten_when_a_dealer_card_is_identical() -> None:
    assert bonus("7D", "KS 7D", PERFECT_MATCH) == ("identical-match", 100)


def test_perfect_match_pays_three_when_a_dealer_card_has_the_same_rank() -> None:
    assert bonus("7D", "KS 7C", PERFECT_MATCH) == ("rank-match", 30)


def test_perfect_match_ignores_a_pair_in_the_dealers_hand_alone() -> None:
    assert bonus("7D", "KS KS", PERFECT_MATCH) == ("lose", -10)


def test_seats_settle_from_the_dealers_right_to_left() -> None:
    seats = [SeatHand(n, [card("AH")], {oftm.ANTE: 100}, [oftm.CHECK]) for n in (1, 2, 3)]
    settled = settle(RoundHands(oftm.GAME, seats, dealer=cards("2S 3D"))).results
    assert [r.seat for r in settled] == [3, 2, 1]
