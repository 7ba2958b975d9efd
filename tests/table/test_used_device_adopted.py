"""A device used before (its event counter is high) on a table's first run: nothing of it is logged
yet, so the table adopts it where its events begin (``device_adopted``) instead of declaring the
numbers before them lost after the replay retries and holding the table; the events it still holds
are logged. Simulated shoe -> pty -> driver -> controller -> signed log."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from tablectl.drivers import events as ev
from tablectl.simulators.factory import build_device

from tablectl.cards import text
from tablectl.config import load_config
from tablectl.eventlog import iter_events, save_keypair
from tablectl.table.runtime import TableRuntime
from tablectl.table.simulated.virtual_dealer import VirtualDealer

CONFIG = Path(__file__).resolve().parents[2] / "config" / "tables" / "one-card-poker.toml"
USED = 136  # the events the shoe issued for another host before this table's first run


def test_a_used_shoe_on_a_new_log_is_adopted_at_its_counter_and_every_card_is_logged_once(
    tmp_path: Path, recording_sim: type
) -> None:
    config = load_config(CONFIG)
    keys = save_keypair(tmp_path / "keys")
    log_dir = tmp_path / "log"
    used = build_device("shoe", decks=6, seed=3, load=False, first_event_no=USED + 1)
    shoe = recording_sim(used)
    runtime = TableRuntime(config, simulate=True, log_dir=log_dir, signing_key=keys.private, sims={"shoe": used})
    try:
        controller = runtime.start()
        report = VirtualDealer(controller, shoe, seed=3, timeout=5.0).play(4)  # a hold would raise DealerError
    finally:
        runtime.stop()

    records = list(iter_events([log_dir]))
    adopted = [r for r in records if r["event"] == "device_adopted"]
    assert [(r["device"], r["event_no"]) for r in adopted] == [("shoe", USED)]
    assert f"counter at {USED}" in adopted[0]["detail"]
    assert not [r for r in records if r["event"] in ("fault", "violation")]
    device_cards = Counter((e.event_no, text(e.card)) for e in shoe.events if isinstance(e, ev.CardDrawn) and e.card is not None)
    logged_cards = Counter(
        (r["event_no"], r["card"]) for r in records if r["event"] in ("dealt", "burned", "drawn") and r.get("card")
    )
    assert report.rounds == 4 and len(device_cards) >= 8
    assert logged_cards == device_cards
    assert min(n for n, _ in logged_cards) > USED


def test_a_used_shoes_events_not_yet_confirmed_are_logged_and_it_is_adopted_before_the_oldest(
    tmp_path: Path, recording_sim: type
) -> None:
    config = load_config(CONFIG)
    keys = save_keypair(tmp_path / "keys")
    log_dir = tmp_path / "log"
    used = build_device("shoe", decks=6, seed=4, load=False, first_event_no=USED + 1)
    shoe = recording_sim(used)
    shoe.load()  # before the table: event USED + 1, held by the shoe until a host confirms it
    runtime = TableRuntime(config, simulate=True, log_dir=log_dir, signing_key=keys.private, sims={"shoe": used})
    try:
        controller = runtime.start()
        assert controller.wait_processed("shoe", USED + 1, timeout=60)  # the held load taken before the dealer looks
        VirtualDealer(controller, shoe, seed=4, timeout=5.0).play(2)
    finally:
        runtime.stop()

    records = list(iter_events([log_dir]))
    assert [(r["device"], r["event_no"]) for r in records if r["event"] == "device_adopted"] == [("shoe", USED)]
    numbers = [r["event_no"] for r in records if r.get("device") == "shoe" and r["event"] != "device_adopted" and r.get("event_no")]
    assert numbers[0] == USED + 1
    assert sorted(set(numbers)) == list(range(USED + 1, used.store.last_no + 1))
