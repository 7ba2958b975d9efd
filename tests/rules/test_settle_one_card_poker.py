"""One Card Poker settlement."""

from collections.abc import Sequence

import pytest

from tablectl.cards import card
from tablectl.rounds import RoundHands, SeatHand, Settlement
from tablectl.rules import one_card_poker as ocp
from tablectl.rules.errors import SettlementError
from tablectl.rules.houserules import OneCardPokerRules
from tablectl.rules.settle import settle


def round_of(
    player: str,
    dp: str,
    decisions: Sequence[str] = (),
    wars: Sequence[tuple[str, str]] = (),
    wagers: dict[str, int] | None = None,
    rules: OneCardPokerRules | None = None,
    seat: int = 1,
) -> Settlement:
    hand = SeatHand(
        seat,
        [card(player)],
        wagers or {ocp.PRIMARY: 1000},
        list(decisions),
        war=[(card(p), card(d)) for p, d in wars],
    )
    return settle(RoundHands(ocp.GAME, [hand], dealer=[card(dp)], banker_seat=7, banker_stake=3_000_000), rules)


def nets(settlement: Settlement) -> dict[str, int]:
    return {r.bet: r.net for r in settlement.results}


def test_higher_rank_wins_the_primary_even_money() -> None:
    assert nets(round_of("KH", "QS")) == {ocp.PRIMARY: 1000}


def test_lower_rank_loses_the_primary() -> None:
    assert nets(round_of("2H", "3S")) == {ocp.PRIMARY: -1000}


def test_suits_never_break_a_rank_tie() -> None:
    with pytest.raises(SettlementError):
        round_of("AS", "AH")  # a tie needs the player's decision


def test_surrender_loses_half_the_primary() -> None:
    settlement = round_of("9S", "9D", [ocp.SURRENDER])
    assert [(r.outcome, r.net) for r in settlement.results] == [("surrender", -500)]


def test_a_won_war_wins_the_primary_and_the_war_bet() -> None:
    settlement = round_of("9S", "9D", [ocp.EXTEND], wars=[("TC", "4H")])
    assert nets(settlement) == {ocp.PRIMARY: 1000, ocp.WAR: 1000}
    assert settlement.results[1].stake == 1000


def test_a_lost_war_loses_the_primary_and_the_war_bet() -> None:
    assert nets(round_of("9S", "9D", [ocp.EXTEND], wars=[("4C", "TH")])) == {ocp.PRIMARY: -1000, ocp.WAR: -1000}


def test_a_tied_war_goes_on_until_the_ranks_differ() -> None:
    assert nets(round_of("9S", "9D", [ocp.EXTEND], wars=[("5C", "5H"), ("KC", "2H")]))[ocp.WAR] == 1000


def test_a_war_still_tied_cannot_be_settled() -> None:
    with pytest.raises(SettlementError):
        round_of("9S", "9D", [ocp.EXTEND], wars=[("5C", "5H")])


def test_war_cards_after_the_deciding_pair_are_refused() -> None:
    with pytest.raises(SettlementError):
        round_of("9S", "9D", [ocp.EXTEND], wars=[("KC", "2H"), ("5C", "6H")])


def test_primary_pushes_when_the_dp_declines_the_war_by_default() -> None:
    settlement = round_of("9S", "9D", [ocp.EXTEND, ocp.DP_DECLINES])
    assert [(r.bet, r.net) for r in settlement.results] == [(ocp.PRIMARY, 0)]


def test_house_rule_can_pay_the_primary_when_the_dp_declines() -> None:
    rules = OneCardPokerRules(dp_declines_war="player-wins")
    assert nets(round_of("9S", "9D", [ocp.EXTEND, ocp.DP_DECLINES], rules=rules)) == {ocp.PRIMARY: 1000}


def tie_result(
    player: str,
    dp: str,
    decisions: Sequence[str] = (),
    wars: Sequence[tuple[str, str]] = (),
    rules: OneCardPokerRules | None = None,
) -> tuple[str, int]:
    settlement = round_of(player, dp, decisions, wars, {ocp.PRIMARY: 1000, ocp.TIE: 100}, rules)
    [tie] = [r for r in settlement.results if r.bet == ocp.TIE]
    return tie.outcome, tie.net


def test_tie_wager_loses_without_an_initial_tie() -> None:
    assert tie_result("KH", "QS") == ("lose", -100)


def test_any_tie_pays_four_to_one() -> None:
    assert tie_result("9H", "9S", [ocp.SURRENDER]) == ("any-tie", 400)


def test_black_tie_pays_ten_to_one() -> None:
    assert tie_result("9C", "9S", [ocp.SURRENDER]) == ("black-tie", 1000)


def test_ace_tie_pays_twenty_five_even_when_both_are_black() -> None:
    assert tie_result("AC", "AS", [ocp.SURRENDER]) == ("ace-tie", 2500)


def test_initial_tie_lines_pay_without_extension_by_default() -> None:
    assert tie_result("9H", "9S", [ocp.EXTEND, ocp.DP_DECLINES]) == ("any-tie", 400)


def test_rule_five_pays_the_tie_wager_only_when_the_hand_extends() -> None:
    rules = OneCardPokerRules(tie_pays_without_extension=False)
    assert tie_result("9H", "9S", [ocp.SURRENDER], rules=rules) == ("lose", -100)
    assert tie_result("9H", "9S", [ocp.EXTEND], [("KC", "2H")], rules=rules) == ("any-tie", 400)


def test_extended_tie_pays_the_initial_line_even_when_the_war_is_lost() -> None:
    assert tie_result("AH", "AS", [ocp.EXTEND], [("2C", "KH")]) == ("ace-tie", 2500)


def test_a_tied_war_makes_a_double_tie() -> None:
    assert tie_result("9H", "9S", [ocp.EXTEND], [("5C", "5H"), ("KC", "2H")]) == ("double-tie", 5000)


def test_two_tied_wars_make_a_triple_tie() -> None:
    wars = [("5C", "5H"), ("6C", "6H"), ("2C", "KH")]
    assert tie_result("9H", "9S", [ocp.EXTEND], wars) == ("triple-tie", 15000)


def test_three_tied_wars_make_a_quad_tie_and_more_pay_no_more() -> None:
    three = [("5C", "5H"), ("6C", "6H"), ("7C", "7H"), ("2C", "KH")]
    four = [("5C", "5H"), ("6C", "6H"), ("7C", "7H"), ("8C", "8H"), ("2C", "KH")]
    assert tie_result("9H", "9S", [ocp.EXTEND], three) == ("quad-tie", 20000)
    assert tie_result("9H", "9S", [ocp.EXTEND], four) == ("quad-tie", 20000)


def test_only_the_largest_tie_line_is_paid() -> None:
    # an ace tie (25) that doubles (50) pays the Double Tie alone
    assert tie_result("AH", "AS", [ocp.EXTEND], [("5C", "5H"), ("KC", "2H")]) == ("double-tie", 5000)


def test_seats_settle_from_the_dealers_right_to_left() -> None:
    seats = [SeatHand(n, [card("KH")], {ocp.PRIMARY: 100}) for n in (1, 3, 2)]
    settlement = settle(RoundHands(ocp.GAME, seats, dealer=[card("2S")]))
    assert [r.seat for r in settlement.results] == [3, 2, 1]


def test_a_dp_stake_limits_payouts_when_the_house_rule_says_so() -> None:
    seats = [SeatHand(n, [card("KH")], {ocp.PRIMARY: 100}) for n in (1, 2)]
    hands = RoundHands(ocp.GAME, seats, dealer=[card("2S")], banker_seat=5, banker_stake=150)
    settlement = settle(hands, OneCardPokerRules(limit_to_banker_stake=True))
    assert [(r.seat, r.outcome, r.net) for r in settlement.results] == [(2, "win", 100), (1, "win-capped", 50)]
