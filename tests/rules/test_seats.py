"""The round-input checks settlement shares: the fast path for right input gives what the full
check gives, and wrong input is refused with the same messages whichever path it takes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tablectl.rounds import RoundHands, SeatHand
from tablectl.rules import seats
from tablectl.rules.errors import SettlementError

ALLOWED = ("ante", "bonus")


def full_check(wagers: dict[str, object]) -> dict[str, object]:
    """What ``seats.wagers`` returns, spelt out: every wager checked, zero stakes dropped."""
    for bet, stake in wagers.items():
        if bet not in ALLOWED or not isinstance(stake, int) or stake < 0:
            raise AssertionError("not a valid wager")
    return {bet: stake for bet, stake in wagers.items() if stake}


@pytest.mark.parametrize(
    "wagers",
    [{}, {"ante": 500}, {"ante": 500, "bonus": 100}, {"bonus": 100}, {"ante": 0}, {"ante": 500, "bonus": 0}, {"ante": True}],
)
def test_valid_wagers_are_what_the_full_check_gives(wagers: dict[str, object]) -> None:
    assert dict(seats.wagers(SeatHand(1, [], wagers), ALLOWED)) == full_check(wagers)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("wagers", "message"),
    [
        ({"ante": 500, "side": 5}, "seat 4: unknown wager 'side' (expected ante, bonus)"),
        ({"ante": -5}, "seat 4: wager ante must be whole cents >= 0, got -5"),
        ({"ante": 2.5}, "seat 4: wager ante must be whole cents >= 0, got 2.5"),
        ({"ante": 0, "bonus": "10"}, "seat 4: wager bonus must be whole cents >= 0, got '10'"),
    ],
)
def test_invalid_wagers_are_refused(wagers: dict[str, object], message: str) -> None:
    with pytest.raises(SettlementError) as e:
        seats.wagers(SeatHand(4, [], wagers), ALLOWED)  # type: ignore[arg-type]
    assert str(e.value) == message


def round_of(*numbers: int, banker: int | None = None) -> RoundHands:
    return RoundHands("one-card-poker", [SeatHand(n, [n]) for n in numbers], banker_seat=banker)


@pytest.mark.parametrize("numbers", [(1, 2, 5), (5, 1, 2), (2, 5, 1), (3,), ()])
@pytest.mark.parametrize("descending", [False, True])
def test_players_come_in_seat_order_whatever_the_input_order(numbers: tuple[int, ...], descending: bool) -> None:
    hands = round_of(*numbers, banker=2)
    expected = sorted((n for n in numbers if n != 2), reverse=descending)
    assert [s.seat for s in seats.players(hands, descending)] == expected


@pytest.mark.parametrize("numbers", [(1, 1), (1, 3, 3), (3, 1, 3), (3, 3, 1)])
def test_a_seat_twice_is_refused_in_any_order(numbers: tuple[int, ...]) -> None:
    with pytest.raises(SettlementError) as e:
        seats.players(round_of(*numbers))
    assert str(e.value) == f"a seat appears twice: {sorted(numbers)}"


def test_a_seats_cards_are_checked_like_any_cards() -> None:
    seat = SeatHand(3, [0, 51])
    assert seats.hand(seat, 2) == seats.exactly(seat.cards, 2, "seat 3") == [0, 51]
    for cards in ([0], [0, 52], [0, None]):
        with pytest.raises(SettlementError) as by_seat:
            seats.hand(SeatHand(3, cards), 2)  # type: ignore[arg-type]
        with pytest.raises(SettlementError) as by_name:
            seats.exactly(cards, 2, "seat 3")  # type: ignore[arg-type]
        assert str(by_seat.value) == str(by_name.value)
    with pytest.raises(SettlementError, match=r"^seat 3's traded card: expected 0 cards, got \[2S\]$"):
        seats.traded(SeatHand(3, [5], traded=[0]), 0)


def test_a_seats_one_card_is_the_card_of_its_one_card_hand() -> None:
    assert seats.card(SeatHand(3, [51])) == seats.hand(SeatHand(3, [51]), 1)[0] == 51


@pytest.mark.parametrize("cards", [[], [0, 1], [52], [-1], [None], ["AS"], [2.0]])
def test_a_seat_without_exactly_one_card_is_refused_as_its_one_card_hand_is(cards: list[object]) -> None:
    with pytest.raises(SettlementError) as one:
        seats.card(SeatHand(3, cards))  # type: ignore[arg-type]
    with pytest.raises(SettlementError) as hand:
        seats.hand(SeatHand(3, cards), 1)  # type: ignore[arg-type]
    assert str(one.value) == str(hand.value)


@given(st.lists(st.integers(1, 9), max_size=8), st.one_of(st.none(), st.integers(1, 9)), st.booleans())
def test_players_are_the_other_seats_in_seat_order_and_a_seat_twice_is_refused(
    numbers: list[int], banker: int | None, descending: bool
) -> None:
    hands = round_of(*numbers, banker=banker)
    players = [n for n in numbers if n != banker]
    if len(set(players)) != len(players):
        with pytest.raises(SettlementError, match="a seat appears twice"):
            seats.players(hands, descending)
    else:
        assert [s.seat for s in seats.players(hands, descending)] == sorted(players, reverse=descending)
