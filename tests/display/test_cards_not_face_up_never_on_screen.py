"""The events panel shows a card only where the log line says it lies face up: after a restart, the
``shoe_resumed`` line (every card drawn since the shuffle, the dealer's hole cards and the burns
among them) shows none of its cards, nor does any other line that carries cards without saying
they are face up (docs/operations.md §5)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tablectl.config import load_config
from tablectl.display.render import event_line, render_text
from tablectl.eventlog.records import CARD, CARD_LIST, SCHEMA
from tablectl.eventlog.verify import iter_events
from tablectl.table.runtime import TableRuntime
from tablectl.table.view import redact

OTM_SHOE = Path(__file__).resolve().parents[2] / "config" / "tables" / "one-for-the-money-shoe.toml"

#: every (event, field) of the log's schema that holds a card or a list of cards
CARD_FIELDS = sorted((event, name) for event, fields in SCHEMA.items() for name, (kind, _) in fields.items() if kind in (CARD, CARD_LIST))
HOLE = ("AD", "7C")  # two cards no player may see


def test_the_shoe_resumed_line_shows_none_of_the_cards_drawn_since_the_shuffle() -> None:
    record = {"seq": 23, "event": "shoe_resumed", "ts": "2024-05-01T09:39:19.000000Z", "table": "otm-1", "shoe": 1,
              "cards": ["KH", "QS", *HOLE], "last_round_announced": False, "exhausted": False, "penetration": 0.01,
              "burns_due": [], "burn_marks": 0, "written_off": ["9S"], "drawn": 4, "device": "shoe", "prev": "0" * 64}
    shown = redact(record)
    assert "cards" not in shown and "written_off" not in shown
    line = event_line(shown).plain
    assert line.startswith("#23 09:39:19 shoe_resumed") and "drawn=4" in line
    assert redact({"seq": 1, "event": "shoe_loaded", "cards": 312})["cards"] == 312  # a count, not cards
    for card in ("K♥", "Q♠", "A♦", "7♣", "9♠"):
        assert card not in line


@pytest.mark.parametrize(("event", "field"), CARD_FIELDS)
def test_a_card_field_of_the_schema_is_shown_only_on_a_line_marked_face_up(event: str, field: str) -> None:
    value = list(HOLE) if SCHEMA[event][field][0] is CARD_LIST else HOLE[0]
    assert field not in redact({"seq": 5, "event": event, field: value})
    assert field not in redact({"seq": 5, "event": event, field: value, "face": "down"})
    assert redact({"seq": 5, "event": event, field: value, "face": "up"})[field] == value


def test_a_violation_line_shows_no_card_but_keeps_its_detail() -> None:
    record = {"seq": 30, "event": "violation", "kind": "foreign_card", "round": 4, "detail": "a card was drawn",
              "card": "AD", "cards": ["7C"]}
    shown = redact(record)
    assert "card" not in shown and "cards" not in shown
    assert "A♦" not in event_line(record).plain and "7♣" not in event_line(record).plain  # the panel's own check too
    assert shown["detail"] == "a card was drawn"


def test_after_a_restart_mid_round_the_screen_shows_no_hole_card_while_the_player_decides(tmp_path: Path) -> None:
    config = load_config(OTM_SHOE)
    log_dir = tmp_path / "log"
    first = TableRuntime(config, simulate=True, log_dir=log_dir, seed=5, fsync=False)
    controller = first.start()
    sim = first.sims[config.card_device]
    device = config.card_device
    try:
        sim.load()
        assert controller.wait_processed(device, sim.store.last_no)
        for start in (False, True):  # the burn after the shuffle; then round 1 up to seat 1's decision
            if start:
                controller.dealer_change("D-07").result(5)
                controller.start_round([1], {1: {"ante": 1000}}).result(5)
            while controller.snapshot().prompt.action == "deal":
                sim.draw()
                assert controller.wait_processed(device, sim.store.last_no)
    finally:
        first.stop()
    hole = [r["card"] for r in iter_events([log_dir]) if r["event"] == "dealt" and r["to"] == "dealer" and r["face"] == "down"]
    assert len(hole) == 2
    second = TableRuntime(config, simulate=True, log_dir=log_dir, seed=5, fsync=False, sims={device: sim})
    controller = second.start()
    try:
        view = controller.snapshot()
    finally:
        second.stop()
    assert view.prompt.action == "decide" and view.dealer == (None, None)
    resumed = [r for r in view.recent if r["event"] == "shoe_resumed"]
    assert resumed and "cards" not in resumed[0]
    text = render_text(view, width=200, height=60)
    assert "shoe_resumed" in text
    for card in hole:
        assert _shown(card) not in text


def _shown(card: str) -> str:
    """A card as the screen shows it: ``AD`` -> ``A♦``."""
    rank = "10" if card[0] == "T" else card[:-1]
    return rank + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[card[-1]]
