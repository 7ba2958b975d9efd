"""The continuous shuffler model: dispense, return, reshuffle, lagging carousel."""

from __future__ import annotations

from collections import Counter

import pytest

from tablectl.cards import card
from tablectl.drivers.events import CardDrawn, CardReturned, ShuffleDone, ShuffleStarted
from tablectl.simulators.csm import CsmModel
from tablectl.simulators.faults import FaultPlan
from tablectl.simulators.model import DeviceRefused
from tablectl.simulators.shuffling import ShuffleQuality


def test_dispenses_every_card_of_its_decks_deterministically() -> None:
    a, b = CsmModel(decks=2, seed=11), CsmModel(decks=2, seed=11)
    out_a = [a.draw()[0].card for _ in range(104)]
    out_b = [b.draw()[0].card for _ in range(104)]
    assert out_a == out_b
    assert Counter(out_a) == {c: 2 for c in range(52)}
    with pytest.raises(DeviceRefused):
        a.draw()


def test_returned_cards_are_reported_and_counted_back_in() -> None:
    csm = CsmModel(decks=1, seed=1)
    drawn = [csm.draw()[0].card for _ in range(5)]
    assert csm.cards_in_device == 47
    events = csm.return_cards(drawn)
    assert [e.card for e in events] == drawn
    assert all(isinstance(e, CardReturned) for e in events)
    assert csm.cards_in_device == 52


def test_the_cards_out_are_those_dispensed_and_not_returned_yet() -> None:
    csm = CsmModel(decks=1, seed=1)
    drawn = [csm.draw()[0].card for _ in range(5)]
    csm.return_cards(drawn[1:3])
    assert csm.cards_out() == sorted([drawn[0], *drawn[3:]])


def test_a_card_it_never_dispensed_is_still_reported() -> None:
    csm = CsmModel(decks=1, seed=1)
    (event,) = csm.return_cards([int(card("AS"))])
    assert event.card == card("AS")
    assert csm.cards_in_device == 53


def test_reshuffle_reports_its_content_against_full_decks() -> None:
    csm = CsmModel(decks=1, seed=2)
    out = csm.draw()[0].card
    started, done = csm.start_shuffle()
    assert isinstance(started, ShuffleStarted) and isinstance(done, ShuffleDone)
    assert done.cards == 51 and done.missing == {out: 1} and not done.extra


def test_misread_on_the_way_in() -> None:
    csm = CsmModel(decks=1, seed=3, faults=FaultPlan(at={"misread": {2}}))
    c = csm.draw()[0].card  # event 1
    assert csm.return_cards([c]) == [CardReturned(2, None)]


def test_lagging_carousel_returns_cards_too_soon() -> None:
    def soon(quality: ShuffleQuality) -> int:
        csm = CsmModel(decks=6, seed=5, quality=quality)
        hits = 0
        for _ in range(200):
            c = csm.draw()[0].card
            csm.return_cards([c])
            nxt = [csm.draw()[0].card for _ in range(8)]
            hits += c in nxt
            csm.return_cards(nxt)
        return hits

    assert soon(ShuffleQuality(csm_lag=8)) > 150  # it always comes back within 8 draws
    assert soon(ShuffleQuality()) < 40


def test_foreign_card_dispensed_is_beyond_the_composition() -> None:
    csm = CsmModel(decks=1, seed=6, faults=FaultPlan(at={"foreign": {52}}))
    drawn = [e.card for _ in range(52) for e in csm.draw() if isinstance(e, CardDrawn)]
    assert max(Counter(drawn).values()) == 2
