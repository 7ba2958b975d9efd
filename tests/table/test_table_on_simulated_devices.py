"""Every game through the whole stack — simulator over a pty -> driver -> controller -> signed,
fsynced log — with the virtual dealer: every card the device issued is in the log exactly once,
where the procedure put it, nothing past the cap, no violation, and the log verifies."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tablectl.cards import text
from tablectl.drivers import events as ev
from tablectl.eventlog.keys import load_public_key
from tablectl.eventlog.verify import verify

TABLE_CONFIGS = sorted(p.stem for p in (Path(__file__).resolve().parents[2] / "config" / "tables").glob("*.toml"))
ROUNDS = 40
CARD_LINES = ("dealt", "burned", "drawn")


@pytest.fixture(scope="module", params=TABLE_CONFIGS)
def played(request, tmp_path_factory, play_table):
    return play_table(request.param, tmp_path_factory.mktemp(request.param), ROUNDS)


def test_the_rounds_were_played(played):
    assert played.report.rounds == ROUNDS
    assert len({r["round"] for r in played.events("round_started")}) == ROUNDS


def test_no_violation_in_clean_play(played):
    assert played.violations() == []


def test_every_card_the_device_issued_is_logged_once_where_it_went(played):
    device = played.config.card_device
    issued: Counter[tuple[int, str | None]] = Counter()
    for e in played.device_events:
        if isinstance(e, ev.CardDrawn):
            issued[(e.event_no, text(e.card))] += 1
        elif isinstance(e, ev.PacketDelivered):
            for c in e.cards:
                issued[(e.event_no, text(c))] += 1
    logged = Counter((r["event_no"], r["card"]) for r in played.events(*CARD_LINES) if r["device"] == device)
    assert logged == issued and sum(issued.values()) == played.report.cards


def test_every_card_returned_to_a_continuous_shuffler_is_logged(played):
    returned = Counter((e.event_no, text(e.card)) for e in played.device_events if isinstance(e, ev.CardReturned))
    logged = Counter((r["event_no"], r["card"]) for r in played.events("returned"))
    assert logged == returned
    if played.config.card_driver == "csm":
        assert sum(returned.values()) == played.report.cards


def test_every_accepted_card_has_a_position_and_a_shoe(played):
    for r in played.events("dealt", "burned"):
        assert r["to"] == "burn" or r["to"].startswith(("seat:", "dealer", "dp", "board"))
        assert r["shoe"] is not None


def test_no_card_past_the_cap_is_accepted(played):
    if played.config.card_driver == "csm":
        pytest.skip("a continuous shuffler has no penetration")
    cap = played.config.penetration_cap
    assert all(r["penetration"] <= cap for r in played.events("dealt", "burned"))


def test_every_round_with_wagers_is_settled(played):
    settled_rounds = {r["round"] for r in played.events("settled")}
    assert settled_rounds == {r["round"] for r in played.events("round_started")}


def test_the_log_verifies_under_the_tables_key(played):
    report = verify([played.log_dir], load_public_key(played.public_key))
    assert report.ok and report.signatures_checked, [str(f) for f in report.findings]


def test_the_device_was_told_everything_is_persisted(played):
    device = played.config.card_device
    last = max(e.event_no for e in played.device_events)
    assert max(r["event_no"] for r in played.records if r.get("device") == device) == last
