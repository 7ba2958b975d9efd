"""Cards: text forms and multi-deck composition."""

import pytest

from tablectl.cards import CardError, Composition, card, cards, full_deck, is_black, rank, suit, text


def test_every_card_round_trips_through_its_text() -> None:
    assert [card(text(c)) for c in full_deck()] == full_deck()


def test_ten_reads_as_t_or_10_in_any_case() -> None:
    assert card("10d") == card("TD") == card("td")
    assert text(card("10D")) == "TD"


def test_rank_orders_deuce_lowest_and_ace_highest() -> None:
    assert rank(card("2C")) == 0
    assert rank(card("AS")) == 12
    assert rank(card("KH")) > rank(card("QH")) > rank(card("JH")) > rank(card("TH"))


def test_suits_follow_the_spades_hearts_diamonds_clubs_order() -> None:
    assert [suit(c) for c in cards("AS AH AD AC")] == [0, 1, 2, 3]


def test_spades_and_clubs_are_black() -> None:
    assert [is_black(c) for c in cards("2S 2H 2D 2C")] == [True, False, False, True]


@pytest.mark.parametrize("bad", ["", "1S", "AX", "11H", "Q", "QHH", "10"])
def test_bad_card_text_is_refused_with_the_text_named(bad: str) -> None:
    with pytest.raises(CardError, match="not a card"):
        card(bad)


def test_composition_accepts_each_card_once_per_deck() -> None:
    comp = Composition(decks=2)
    ace = card("AS")
    assert comp.see(ace) and comp.see(ace)
    assert not comp.see(ace)  # a third ace of spades in two decks is foreign
    assert comp.seen(ace) == 2
    assert comp.drawn == 2


def test_composition_counts_a_returned_card_back_in() -> None:
    comp = Composition(decks=1)
    comp.see(card("QH"))
    comp.give_back(card("QH"))
    assert comp.remaining(card("QH")) == 1 and comp.drawn == 0


def test_composition_refuses_to_take_back_a_card_that_was_not_out() -> None:
    with pytest.raises(ValueError, match="QH was not out"):
        Composition(decks=1).give_back(card("QH"))


def test_composition_size_is_decks_times_52() -> None:
    assert Composition(decks=6).size == 312


def test_composition_needs_at_least_one_deck() -> None:
    with pytest.raises(ValueError):
        Composition(decks=0)
