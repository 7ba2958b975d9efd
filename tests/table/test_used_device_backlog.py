"""A used device new to the log may still hold thousands of events from before this table's first
session (issued for another host that never confirmed them, or with no host at all). They are
logged as the device reports them (nothing the device holds is dropped) and taken for what they
say of the device (the shoe in it, the cards out of it), but they are not this table's play: one
``device_backlog`` line says which they are, and none of them is judged. Judged, a shoe whose
store kept 5,000 old events flooded a new table with 5,005 violations.

Simulated shoe -> pty -> driver -> controller -> signed log; the virtual dealer plays on."""

from __future__ import annotations

import threading
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from tablectl.drivers import events as ev
from tablectl.simulators.factory import build_device

from tablectl.config import load_config
from tablectl.eventlog import iter_events, save_keypair
from tablectl.table.runtime import TableRuntime
from tablectl.table.simulated.virtual_dealer import VirtualDealer

CONFIG = Path(__file__).resolve().parents[2] / "config" / "tables" / "one-card-poker.toml"
OLD = 5_000  # events the shoe's store kept from before this table


def used_shoe(first_event_no: int, seed: int) -> Any:
    """A shoe whose store holds ``OLD`` events no host confirmed: shoes loaded and dealt out."""
    shoe = build_device("shoe", decks=6, seed=seed, load=False, first_event_no=first_event_no)
    shoe.load()
    while len(shoe.store) < OLD:
        if any(isinstance(e, ev.ShoeEmpty) for e in shoe.draw()):
            shoe.load()
    return shoe


def device_numbers(records: list[dict[str, Any]]) -> Counter[int]:
    """How often each of the shoe's events is logged (its own line)."""
    return Counter(r["event_no"] for r in records
                   if r.get("device") == "shoe" and r.get("event_no") and r["event"] not in ("violation", "device_adopted"))


@pytest.mark.parametrize("first_event_no", [1, 137], ids=["store-from-its-first-event", "counter-at-136"])
def test_a_shoe_holding_5000_old_events_is_reported_in_one_line_and_the_table_deals_on_without_a_violation(
    tmp_path: Path, first_event_no: int
) -> None:
    config = load_config(CONFIG)
    keys = save_keypair(tmp_path / "keys")
    log_dir = tmp_path / "log"
    shoe = used_shoe(first_event_no, seed=3)
    held = shoe.store.last_no
    runtime = TableRuntime(config, simulate=True, log_dir=log_dir, signing_key=keys.private, sims={"shoe": shoe})
    try:
        controller = runtime.start()
        assert controller.wait_processed("shoe", held, timeout=60)
        report = VirtualDealer(controller, shoe, seed=3, timeout=10.0).play(3)  # a hold would raise DealerError
    finally:
        runtime.stop()

    records = list(iter_events([log_dir]))
    assert [r for r in records if r["event"] == "violation"] == []
    backlog = [r for r in records if r["event"] == "device_backlog"]
    assert [(r["device"], r["first"], r["last"], r["events"]) for r in backlog] == [("shoe", first_event_no, held, OLD)]
    numbers = device_numbers(records)
    assert sorted(numbers) == list(range(first_event_no, shoe.store.last_no + 1)) and set(numbers.values()) == {1}
    assert report.rounds == 3


def test_a_table_stopped_in_the_middle_of_a_used_shoes_old_events_judges_none_of_the_rest_after_its_restart(
    tmp_path: Path,
) -> None:
    config = load_config(CONFIG)
    keys = save_keypair(tmp_path / "keys")
    log_dir = tmp_path / "log"
    shoe = used_shoe(137, seed=4)
    held = shoe.store.last_no

    first = TableRuntime(config, simulate=True, log_dir=log_dir, signing_key=keys.private, sims={"shoe": shoe})
    controller = first.start()
    gate, entered = threading.Event(), threading.Event()
    controller.add_view_listener(lambda view: (entered.set(), gate.wait(10)))  # hold the first batch
    try:
        assert entered.wait(30)
        controller.request_stop("signal", signal="SIGTERM", at_once=True)  # the rest stays with the shoe
        gate.set()
        assert controller.wait_stopped(10)
    finally:
        gate.set()
        first.stop()
    assert 0 < max(device_numbers(list(iter_events([log_dir])))) < held

    again = TableRuntime(config, simulate=True, log_dir=log_dir, signing_key=keys.private, sims={"shoe": shoe})
    try:
        controller = again.start()
        assert controller.wait_processed("shoe", held, timeout=60)
        VirtualDealer(controller, shoe, seed=4, timeout=10.0).play(2)
    finally:
        again.stop()
    records = list(iter_events([log_dir]))
    assert [r for r in records if r["event"] == "violation"] == []
    assert len([r for r in records if r["event"] == "device_backlog"]) == 1
    numbers = device_numbers(records)
    assert sorted(numbers) == list(range(137, shoe.store.last_no + 1)) and set(numbers.values()) == {1}
