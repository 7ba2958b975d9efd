"""Every decision's exact option values (``gamemath.decisions.value``) against known facts and
against an independent brute force that deals every ordered completion and settles it with the
rules engine's ``settle``."""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablectl.cards import card as parse_card
from tablectl.gamemath.decisions.sight import HIGH, LOW, is_high
from tablectl.gamemath.decisions.value import DecisionError, Sight, best_knowing_dealer, canonical, decision_values
from tablectl.gamemath.one_for_the_money import Strategy
from tablectl.rounds import RoundHands, SeatHand
from tablectl.rules.houserules import ThreeCardPokerRules
from tablectl.rules.settle import settle


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(t) for t in text.split())


def net(hands: RoundHands) -> Fraction:
    """The seat's net over every bet, per $1 Ante."""
    return Fraction(sum(r.net for r in settle(hands).results), 100)


def agrees(card: int, mark: object) -> bool:
    return not isinstance(mark, str) or is_high(card) == (mark == HIGH)


def completions(dealer: tuple[object, ...], size: int, unseen: list[int]) -> list[list[int]]:
    """Every ordered way to deal the dealer's unknown cards that agrees with the marks."""
    slots = list(dealer) + [None] * (size - len(dealer))
    free = [i for i, s in enumerate(slots) if not isinstance(s, int)]
    out = []
    for picked in permutations(unseen, len(free)):
        if all(agrees(c, slots[i]) for i, c in zip(free, picked)):
            hand = list(slots)
            for i, c in zip(free, picked):
                hand[i] = c
            out.append(hand)  # type: ignore[arg-type]
    return out


# --- Three Card Poker ------------------------------------------------------------------------


@pytest.mark.parametrize("game, play", [("three-card-poker", "play"), ("three-card-poker-florida", "raise")])
def test_without_information_q64_plays_and_q63_folds(game: str, play: str) -> None:
    options = (play, "fold")
    assert decision_values(game, options, Sight(cards("Qc 6d 4h"))).best == play
    assert decision_values(game, options, Sight(cards("Qc 6d 3h"))).best == "fold"


@pytest.mark.parametrize("game, play", [("three-card-poker", "play"), ("three-card-poker-florida", "raise")])
@pytest.mark.parametrize("own, dealer", [
    ("Jc 8d 2h", ("5s", LOW)),
    ("Kh Ks 3d", ("Ad", HIGH, None)),
    ("Qc 6d 3h", (None, "7c", "2s")),
])
def test_three_card_values_equal_settling_every_dealer_deal(game: str, play: str, own: str, dealer: tuple[str | None, ...]) -> None:
    seen_dealer = tuple(parse_card(d) if d not in (None, HIGH, LOW) else d for d in dealer)
    sight = Sight(cards(own), dealer=seen_dealer)
    unseen = [c for c in range(52) if c not in sight.seen()]
    deals = completions(seen_dealer, 3, unseen)
    brute = {o: sum((net(RoundHands(game, [SeatHand(1, list(sight.own), {"ante": 100}, [o])], dealer=d)) for d in deals),
                    Fraction(0)) / len(deals) for o in (play, "fold")}
    assert decision_values(game, (play, "fold"), sight).values == brute


def test_a_low_dealer_card_seen_makes_q63_play_knowing_all_three() -> None:
    sight = Sight(cards("Qc 6d 3h"))
    assert best_knowing_dealer("three-card-poker", ("play", "fold"), sight, cards("2s 5c 9d")) == "play"
    values = decision_values("three-card-poker", ("play", "fold"), sight)
    assert values.cost("fold") == 0 and values.cost("play") == values.values["fold"] - values.values["play"] > 0


def test_hands_alike_but_for_suit_names_share_one_value() -> None:
    a = Sight(cards("Qc 6c 3h"), dealer=(parse_card("Kc"),))
    b = Sight(cards("Qs 6s 3d"), dealer=(parse_card("Ks"),))
    assert canonical("three-card-poker", a) == canonical("three-card-poker", b)
    assert decision_values("three-card-poker", ("play", "fold"), a) == decision_values("three-card-poker", ("play", "fold"), b)


@settings(max_examples=40, deadline=None)
@given(st.permutations(range(52)), st.permutations(range(4)), st.integers(0, 3))
def test_renaming_suits_keeps_the_key_and_the_values_and_a_suited_hand_differs(deck: list[int], suits: list[int], hole: int) -> None:
    rename = lambda c: c & ~3 | suits[c & 3]  # noqa: E731
    sight = Sight(tuple(deck[:3]), dealer=tuple(deck[3 : 3 + hole]), others=tuple(deck[6:9]))
    renamed = Sight(tuple(map(rename, sight.own)), dealer=tuple(map(rename, sight.dealer)), others=tuple(map(rename, sight.others)))
    assert canonical("three-card-poker", sight) == canonical("three-card-poker", renamed)
    from tablectl.gamemath.decisions import threecard as decision_threecard

    assert decision_threecard.values("three-card-poker", ("play", "fold"), sight, ThreeCardPokerRules()) == \
        decision_threecard.values("three-card-poker", ("play", "fold"), renamed, ThreeCardPokerRules())
    assert canonical("three-card-poker", Sight(cards("2S 5S 9S"))) != canonical("three-card-poker", Sight(cards("2S 5S 9H")))


def test_a_card_seen_twice_is_refused_naming_it() -> None:
    with pytest.raises(DecisionError, match="seen twice"):
        decision_values("three-card-poker", ("play", "fold"), Sight(cards("Qc 6d 3h"), dealer=cards("Qc")))


# --- One for the Money ------------------------------------------------------------------------


@pytest.mark.parametrize("decks", [1, 6])
def test_one_for_the_money_best_option_is_the_strategy_everywhere(decks: int) -> None:
    strategy = Strategy(decks)
    for r0 in range(13):
        first = decision_values("one-for-the-money", ("check", "raise", "trade"), Sight((r0 * 4,)), decks=decks).best
        assert first == ("trade" if strategy.first[r0] is None else strategy.first[r0][0]), r0
        for r1 in range(13):
            after = Sight((r0 * 4, r1 * 4 + 1), made=("trade",))
            assert decision_values("one-for-the-money", ("stand", "raise"), after, decks=decks).best == strategy.after[r0][r1][1]


def _oftm_round(first: int, dealer: list[int], decisions: list[str], new: int | None) -> RoundHands:
    seat = SeatHand(1, [new if new is not None else first], {"ante": 100}, decisions, traded=[first] if new is not None else [])
    return RoundHands("one-for-the-money", [seat], dealer=dealer)


@pytest.mark.parametrize("own, dealer", [("7h", ("Ks", None)), ("9c", (LOW, "3d")), ("Jd", ("2c", HIGH))])
def test_one_for_the_money_values_equal_settling_every_deal_one_deck(own: str, dealer: tuple[str | None, ...]) -> None:
    first = parse_card(own)
    seen_dealer = tuple(parse_card(d) if d not in (None, HIGH, LOW) else d for d in dealer)
    sight = Sight((first,), dealer=seen_dealer)
    unseen = [c for c in range(52) if c not in sight.seen()]
    deals = completions(seen_dealer, 2, unseen)
    brute = {o: sum((net(_oftm_round(first, d, [o], None)) for d in deals), Fraction(0)) / len(deals) for o in ("check", "raise")}
    total, count = Fraction(0), 0
    for new in unseen:  # the trade: the new card seen, then stand or raise, whichever is worth more
        later = completions(seen_dealer, 2, [c for c in unseen if c != new])
        total += max(sum((net(_oftm_round(first, d, ["trade", a], new)) for d in later), Fraction(0)) for a in ("stand", "raise"))
        count += len(later)
    brute["trade"] = total / count
    assert decision_values("one-for-the-money", ("check", "raise", "trade"), sight, decks=1).values == brute


# --- One Card Poker ---------------------------------------------------------------------------


def test_one_card_poker_war_is_worth_nothing_and_surrender_half_a_wager() -> None:
    values = decision_values("one-card-poker", ("extend", "surrender"), Sight(cards("7h"), dealer=cards("7s")), decks=6)
    assert values.values == {"extend": 0, "surrender": Fraction(-1, 2)}
    assert values.best == "extend"


# --- Texas Hold'em Bonus ----------------------------------------------------------------------


def _thb(hole: tuple[int, ...], dealer: list[int], board: list[int], decisions: list[str]) -> Fraction:
    seat = SeatHand(1, list(hole), {"ante": 100}, decisions)
    return net(RoundHands("texas-holdem-bonus", [seat], dealer=dealer, board=board))


def test_holdem_river_decision_equals_settling_every_river_and_dealer_card() -> None:
    hole, board, known = cards("Ah 9h"), cards("Kh 4h 9c 2d"), parse_card("Qs")
    sight = Sight(hole, board=board, dealer=(known, None), made=("flop", "check"))
    unseen = [c for c in range(52) if c not in sight.seen()]
    brute = {}
    for option, decisions in (("river", ["flop", "check", "river"]), ("check", ["flop", "check", "check"])):
        results = [_thb(hole, [known, d], [*board, r], decisions) for r in unseen for d in unseen if d != r]
        brute[option] = sum(results, Fraction(0)) / len(results)
    assert decision_values("texas-holdem-bonus", ("river", "check"), sight).values == brute


def test_holdem_turn_decision_equals_settling_every_turn_and_river_with_the_river_bet_optimal() -> None:
    hole, board, dealer = cards("Jc Td"), cards("9s 8h 2c"), list(cards("Kd Kc"))
    sight = Sight(hole, board=board, dealer=tuple(dealer), made=("flop",))
    unseen = [c for c in range(52) if c not in sight.seen()]
    brute = {}
    for option in ("turn", "check"):
        total = Fraction(0)
        for t in unseen:
            rivers = [r for r in unseen if r != t]
            total += max(sum((_thb(hole, dealer, [*board, t, r], ["flop", option, river]) for r in rivers), Fraction(0))
                         for river in ("river", "check"))
        brute[option] = total / (len(unseen) * (len(unseen) - 1))
    assert decision_values("texas-holdem-bonus", ("turn", "check"), sight).values == brute


@pytest.mark.parametrize("dealer", [("7c", HIGH), (HIGH, LOW)])
def test_holdem_river_decision_with_edge_sorted_dealer_cards_equals_settling_every_deal(dealer: tuple[str, ...]) -> None:
    hole, board = cards("Qd Jd"), cards("Td 9c 3s 3h")
    seen_dealer = tuple(d if d in (HIGH, LOW) else parse_card(d) for d in dealer)
    sight = Sight(hole, board=board, dealer=seen_dealer, made=("flop", "turn"))
    unseen = [c for c in range(52) if c not in sight.seen()]
    brute = {}
    for option, last in (("river", "river"), ("check", "check")):
        results = [_thb(hole, d, [*board, r], ["flop", "turn", last])
                   for r in unseen for d in completions(seen_dealer, 2, [c for c in unseen if c != r])]
        brute[option] = sum(results, Fraction(0)) / len(results)
    assert decision_values("texas-holdem-bonus", ("river", "check"), sight).values == brute
