"""A log slice that starts after a restart: the shoe the restarted controller took over is known
to review only from the ``shoe_resumed`` line, which names the cards a shoe has dealt, but for a
continuous shuffler only the cards still out (the others went back into it), with the count of
every card dealt since its load in ``drawn``."""

from __future__ import annotations

from typing import Any

from tablectl.eventlog.records import Envelope, from_dict
from tablectl.review.model import TableSetup
from tablectl.review.reconstruct import Reconstructor


def _setup(kind: str) -> TableSetup:
    return TableSetup("one-for-the-money", kind, kind, 6, 0.9, 7, {}, {}, "test")


def _slice(kind: str, resumed: dict[str, Any]) -> list[Envelope]:
    return [from_dict(line) for line in [
        {"seq": 40, "event": "shoe_resumed", "ts": "t40", "table": "T1", "shoe": 3, "device": kind, **resumed},
        {"seq": 41, "event": "dealt", "ts": "t41", "table": "T1", "card": "2C", "to": "seat:1", "shoe": 3, "round": 9,
         "device": kind, "event_no": 77, "penetration": 0.105},
    ]]


def test_a_continuous_shuffler_s_record_counts_the_cards_dealt_before_the_slice_that_went_back() -> None:
    builder = Reconstructor(_setup("csm"))
    builder.feed(_slice("csm", {"cards": ["AS", "KD"], "drawn": 30}))
    [shoe] = builder.finish(2).shoes
    assert (shoe.texts, shoe.cards_drawn) == (["AS", "KD", "2C"], 31)


def test_a_shoe_s_record_starts_from_the_cards_and_penetration_the_line_names() -> None:
    dealt = ["AS", "KD", "9H"]
    builder = Reconstructor(_setup("shoe"))
    builder.feed(_slice("shoe", {"cards": dealt, "drawn": 3, "penetration": 0.0962})[:1])
    [shoe] = builder.finish(1).shoes
    assert (shoe.texts, shoe.cards_drawn, shoe.max_penetration) == (dealt, 3, 0.0962)


def test_a_shoe_s_record_goes_on_with_the_cards_dealt_after_the_line() -> None:
    dealt = ["AS", "KD", "9H"]
    builder = Reconstructor(_setup("shoe"))
    builder.feed(_slice("shoe", {"cards": dealt, "drawn": 3, "penetration": 0.0962}))
    [shoe] = builder.finish(2).shoes
    assert (shoe.texts, shoe.cards_drawn, shoe.max_penetration) == ([*dealt, "2C"], 4, 0.105)


def test_a_resumed_line_without_a_count_counts_the_cards_it_names() -> None:
    builder = Reconstructor(_setup("csm"))
    builder.feed(_slice("csm", {"cards": ["AS"]}))
    [shoe] = builder.finish(2).shoes
    assert shoe.cards_drawn == 2
