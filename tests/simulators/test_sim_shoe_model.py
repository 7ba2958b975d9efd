"""The card-reading shoe model: determinism, composition, cut card, card faults."""

from __future__ import annotations

from collections import Counter

from tablectl.cards import card, cards
from tablectl.drivers.events import CardDrawn, CutCardReached, Fault, FaultKind, ShoeEmpty, ShoeLoaded
from tablectl.simulators.faults import FaultPlan
from tablectl.simulators.shoe import ShoeModel


def draw_all(shoe: ShoeModel) -> list[int | None]:
    out: list[int | None] = []
    while shoe.cards_in_device:
        out += [e.card for e in shoe.draw() if isinstance(e, CardDrawn)]
    return out


def test_same_seed_same_order_and_another_seed_another() -> None:
    a, b, c = ShoeModel(seed=7), ShoeModel(seed=7), ShoeModel(seed=8)
    for s in (a, b, c):
        s.load()
    order_a = draw_all(a)
    assert order_a == draw_all(b)
    assert order_a != draw_all(c)


def test_a_shoe_holds_exactly_n_full_decks() -> None:
    shoe = ShoeModel(decks=6, seed=1)
    (loaded,) = shoe.load()
    assert loaded == ShoeLoaded(1, 1, 6, 312)
    drawn = draw_all(shoe)
    assert len(drawn) == 312
    assert Counter(drawn) == {c: 6 for c in range(52)}


def test_cut_card_comes_out_once_at_the_penetration() -> None:
    shoe = ShoeModel(decks=1, seed=3, penetration=0.5)
    shoe.load()
    events = []
    for _ in range(52):
        events += shoe.draw()
    cut = [i for i, e in enumerate(events) if isinstance(e, CutCardReached)]
    assert len(cut) == 1
    assert sum(isinstance(e, CardDrawn) for e in events[: cut[0]]) == 26
    assert isinstance(events[-1], ShoeEmpty)
    assert isinstance(shoe.draw()[0], ShoeEmpty)  # drawing from an empty shoe says so again


def test_event_numbers_count_up_from_one() -> None:
    shoe = ShoeModel(seed=1)
    numbers = [e.event_no for e in shoe.load() + shoe.draw() + shoe.press_button() + shoe.draw()]
    assert numbers == [1, 2, 3, 4]


def test_explicit_order_is_dealt_first_card_first() -> None:
    order = [int(c) for c in cards("AS KH 2C 7D")]
    shoe = ShoeModel(decks=1, seed=0, order=order)
    assert shoe.load()[0].cards == 4
    assert draw_all(shoe) == order


def test_misread_reports_none_and_the_card_still_leaves() -> None:
    shoe = ShoeModel(decks=1, seed=2, faults=FaultPlan(at={"misread": {3}}))
    shoe.load()  # event 1
    first = shoe.draw()  # event 2
    second = shoe.draw()  # event 3: misread
    assert first[0].card is not None and second == [CardDrawn(3, None)]
    assert shoe.cards_in_device == 50


def test_foreign_card_goes_beyond_the_composition() -> None:
    shoe = ShoeModel(decks=1, seed=4, faults=FaultPlan(at={"foreign": {30}}))
    shoe.load()
    drawn = [c for c in draw_all(shoe) if c is not None]
    counts = Counter(drawn)
    assert len(drawn) == 53
    assert max(counts.values()) == 2  # one card seen twice in a single deck


def test_missing_card_leaves_the_shoe_short() -> None:
    shoe = ShoeModel(decks=1, seed=5, faults=FaultPlan(at={"missing": {10}}))
    shoe.load()
    drawn = draw_all(shoe)
    assert len(drawn) == 51 and len(set(drawn)) == 51


def test_jam_stops_the_shoe_until_cleared() -> None:
    import pytest

    from tablectl.simulators.model import DeviceRefused

    shoe = ShoeModel(decks=1, seed=6, faults=FaultPlan(rates={"jam": 1.0}))
    shoe.load()
    assert shoe.draw() == [Fault(2, FaultKind.JAM, False, "card jam")]
    with pytest.raises(DeviceRefused):
        shoe.draw()
    shoe.faults.rates.clear()
    assert shoe.clear_fault() == [Fault(3, FaultKind.JAM, True, "cleared")]
    assert isinstance(shoe.draw()[0], CardDrawn)
    assert shoe.cards_in_device == 51  # the jammed card did not come out


def test_fault_rates_do_not_change_the_card_order() -> None:
    plain, noisy = ShoeModel(seed=9), ShoeModel(seed=9, faults=FaultPlan(rates={"door": 0.0, "misread": 0.2}, seed=9))
    plain.load()
    noisy.load()
    a, b = draw_all(plain), draw_all(noisy)
    assert any(c is None for c in b)
    assert all(y is None or x == y for x, y in zip(a, b, strict=True))


def test_card_text_helpers_agree() -> None:
    assert card("QH") == cards("QH")[0]
