"""Player-banked Three Card Poker settlement."""

from tablectl.cards import cards
from tablectl.rounds import BetResult, RoundHands, SeatHand
from tablectl.rules import three_card_poker as tcp
from tablectl.rules.houserules import ThreeCardPokerRules
from tablectl.rules.settle import settle

ANTE_ONLY = {tcp.ANTE: 100}


def play(
    player: str,
    dealer: str,
    decision: str = tcp.PLAY_DECISION,
    wagers: dict[str, int] | None = None,
    rules: ThreeCardPokerRules | None = None,
) -> list[BetResult]:
    seat = SeatHand(1, cards(player), wagers or ANTE_ONLY, [decision])
    return settle(RoundHands(tcp.GAME, [seat], dealer=cards(dealer)), rules).results


def summary(results: list[BetResult]) -> list[tuple[str, str, int]]:
    return [(r.bet, r.outcome, r.net) for r in results]


def test_dealer_below_queen_high_wins_the_ante_and_pushes_the_play() -> None:
    assert summary(play("2S 5H 9D", "JS 8H 4D")) == [("ante", "win", 100), ("play", "push", 0)]


def test_higher_hand_against_a_qualified_dealer_wins_ante_and_play() -> None:
    assert summary(play("KS KH 9D", "QS 8H 4D")) == [("ante", "win", 100), ("play", "win", 100)]


def test_lower_hand_against_a_qualified_dealer_loses_ante_and_play() -> None:
    assert summary(play("QC 8C 3D", "QS 8H 4D")) == [("ante", "lose", -100), ("play", "lose", -100)]


def test_equal_hands_push_ante_and_play() -> None:
    assert summary(play("QC 8C 4H", "QS 8H 4D")) == [("ante", "push", 0), ("play", "push", 0)]


def test_a_fold_forfeits_the_ante_and_makes_no_play() -> None:
    assert summary(play("2S 5H 9D", "JS 8H 4D", tcp.FOLD_DECISION)) == [("ante", "fold", -100)]


def test_ante_bonus_is_paid_on_a_straight_even_when_the_dealer_wins() -> None:
    results = play("4S 5H 6D", "7S 8S 9S")
    assert summary(results)[-1] == ("ante-bonus", "straight", 100)
    assert results[0].net == -100


def test_no_ante_bonus_after_a_fold() -> None:
    bets = [r.bet for r in play("4S 5H 6D", "7S 8S 9S", tcp.FOLD_DECISION)]
    assert tcp.ANTE_BONUS not in bets


def test_pairplus_pays_the_table_on_the_players_hand_alone() -> None:
    results = play("9S 9H 2D", "AS AH AD", wagers={tcp.ANTE: 100, tcp.PAIRPLUS: 50})
    assert summary(results)[2] == ("pairplus", "pair", 50)


def test_a_fold_forfeits_the_pairplus_by_default() -> None:
    results = play("9S 9H 2D", "AS KH 4D", tcp.FOLD_DECISION, {tcp.ANTE: 100, tcp.PAIRPLUS: 50})
    assert summary(results)[1] == ("pairplus", "fold", -50)


def test_house_rule_keeps_the_pairplus_in_play_after_a_fold() -> None:
    rules = ThreeCardPokerRules(fold_forfeits_pairplus=False)
    results = play("9S 9H 2D", "AS KH 4D", tcp.FOLD_DECISION, {tcp.ANTE: 100, tcp.PAIRPLUS: 50}, rules)
    assert summary(results)[1] == ("pairplus", "pair", 50)


def test_six_card_bonus_uses_the_players_and_the_player_dealers_cards() -> None:
    results = play("AS KS 2C", "QS JS TS", wagers={tcp.ANTE: 100, tcp.SIX_CARD_BONUS: 10})
    assert summary(results)[2] == ("six-card-bonus", "royal-flush", 10000)


def test_six_card_bonus_is_settled_after_a_fold_by_default() -> None:
    results = play("AS KS 2C", "QS JS TS", tcp.FOLD_DECISION, {tcp.ANTE: 100, tcp.SIX_CARD_BONUS: 10})
    assert summary(results)[1] == ("six-card-bonus", "royal-flush", 10000)


def test_bets_settle_seat_by_seat_from_the_dealers_left_with_the_ante_bonus_last() -> None:
    wagers = {tcp.SIX_CARD_BONUS: 5, tcp.PAIRPLUS: 5, tcp.ANTE: 5}
    seats = [SeatHand(2, cards("4S 5H 6D"), dict(wagers), ["play"]), SeatHand(1, cards("4C 5C 6C"), dict(wagers), ["play"])]
    results = settle(RoundHands(tcp.GAME, seats, dealer=cards("QS 8H 2D"))).results
    order = [tcp.ANTE, tcp.PLAY, tcp.PAIRPLUS, tcp.SIX_CARD_BONUS, tcp.ANTE_BONUS]
    assert [(r.seat, r.bet) for r in results] == [(s, b) for s in (1, 2) for b in order]


def test_the_banker_seat_is_not_settled_against_itself() -> None:
    seats = [SeatHand(1, cards("KS KH 9D"), {tcp.ANTE: 100}, ["play"]), SeatHand(4, cards("QS 8H 4D"), {tcp.ANTE: 100}, ["play"])]
    results = settle(RoundHands(tcp.GAME, seats, dealer=cards("QS 8H 4D"), banker_seat=4)).results
    assert {r.seat for r in results} == {1}


def coverage_round(stake: int, rules: ThreeCardPokerRules | None = None) -> list[tuple[int, str, str, int]]:
    seats = [
        SeatHand(1, cards("KS KH 9D"), {tcp.ANTE: 100}, ["play"]),  # wins 200
        SeatHand(2, cards("2S 5H 9D"), {tcp.ANTE: 100}, ["fold"]),  # folds
        SeatHand(3, cards("AS AH 9C"), {tcp.ANTE: 100}, ["play"]),  # wins 200
        SeatHand(4, cards("3S 4H 7C"), {tcp.ANTE: 100}, ["play"]),  # loses 200
    ]
    hands = RoundHands(tcp.GAME, seats, dealer=cards("QS 8H 4D"), banker_seat=6, banker_stake=stake)
    return [(r.seat, r.bet, r.outcome, r.net) for r in settle(hands, rules).results]


def test_payouts_stop_at_the_player_dealers_stake_and_later_bets_are_returned() -> None:
    assert coverage_round(250) == [
        (1, "ante", "win", 100),
        (1, "play", "win", 100),
        (2, "ante", "fold", -100),
        (3, "ante", "win-capped", 50),
        (3, "play", "no-action", 0),
        (4, "ante", "no-action", 0),
        (4, "play", "no-action", 0),
    ]


def test_house_rule_lets_collected_losses_extend_the_cover() -> None:
    rules = ThreeCardPokerRules(losses_extend_cover=True)
    seats = [
        SeatHand(1, cards("3S 4H 7C"), {tcp.ANTE: 100}, ["play"]),  # loses 200 first
        SeatHand(2, cards("KS KH 9D"), {tcp.ANTE: 100}, ["play"]),  # wins 200
    ]
    hands = RoundHands(tcp.GAME, seats, dealer=cards("QS 8H 4D"), banker_seat=6, banker_stake=50)
    assert [r.net for r in settle(hands, rules).results] == [-100, -100, 100, 100]


def test_house_rule_can_make_a_fold_forfeit_the_six_card_bonus() -> None:
    rules = ThreeCardPokerRules(fold_forfeits_six_card_bonus=True)
    results = play("AS KS 2C", "QS JS TS", tcp.FOLD_DECISION, {tcp.ANTE: 100, tcp.SIX_CARD_BONUS: 10}, rules)
    assert summary(results)[1] == ("six-card-bonus", "fold", -10)
