"""A device that floods the table with valid events cannot grow the controller without bound,
and loses nothing: the inbox holds at most ``MAX_INBOX_EVENTS`` device events (beyond that the
driver's sink waits, so the driver stops reading and the device keeps its events), and at most
``MAX_OPEN_VIOLATIONS`` open violations are kept in memory (the rest are in the event log and
counted, and the count goes into the ``resolved`` line). Every event is logged exactly once.

The figures these tests measure (inbox peak, violations kept) were, before the bounds, the whole
flood: the inbox grew with every event the controller had not reached yet and every violation
stayed in memory until a supervisor resolved the hold (~17 MB/s).
"""

from __future__ import annotations

import threading
from collections import Counter
from pathlib import Path

import orjson
import pytest
from tablectl.drivers import events as ev

from tablectl.eventlog import EventLog
from tablectl.table import alarms as alarms_module
from tablectl.table import controller as controller_module
from tablectl.table.controller import TableController

FLOOD = 30_000


def logged_event_nos(log_dir: Path, device: str) -> Counter[int]:
    """How often each of ``device``'s events is logged (its own line; violations about it aside)."""
    numbers: Counter[int] = Counter()
    for path in sorted(log_dir.rglob("*.jsonl")):
        for line in path.read_bytes().splitlines():
            record = orjson.loads(line)
            if record.get("device") == device and record.get("event_no") and record["event"] != "violation":
                numbers[record["event_no"]] += 1
    return numbers


def test_a_card_flood_keeps_the_inbox_and_the_open_violations_bounded_and_logs_every_event(tmp_path: Path, config) -> None:
    cfg = config("one-card-poker", tmp=tmp_path)
    log = EventLog(tmp_path, cfg.table, signing_key=None, fsync=True)
    controller = TableController(cfg, log)
    controller.start()
    peak = 0
    try:
        controller.sink("dev", ev.ShoeLoaded(1, 1, 6, 312))
        for n in range(2, FLOOD + 2):  # every card drawn outside a round: a violation each
            controller.sink("dev", ev.CardDrawn(n, n % 52))
            peak = max(peak, controller.inbox_size)
        assert controller.wait_processed("dev", FLOOD + 1, timeout=120)
        core = controller.core
        kept, unlisted = len(core.alarms.violations), dict(core.alarms.unlisted)
        alarms = [a.kind for a in controller.snapshot().alarms]
        controller.resolve("pit-anna").result(30)
    finally:
        controller.stop()
        log.close()
    assert peak <= controller_module.MAX_INBOX_EVENTS
    assert kept == alarms_module.MAX_OPEN_VIOLATIONS
    assert kept + sum(unlisted.values()) >= FLOOD  # every card was a violation: all are counted
    assert alarms.count("more_violations") == 1
    numbers = logged_event_nos(tmp_path, "dev")
    assert sorted(numbers) == list(range(1, FLOOD + 2)) and set(numbers.values()) == {1}
    resolved = [orjson.loads(line) for p in tmp_path.rglob("*.jsonl") for line in p.read_bytes().splitlines() if b'"resolved"' in line]
    assert resolved and resolved[-1]["unlisted"] == unlisted and len(resolved[-1]["violations"]) == kept


def test_a_full_inbox_makes_the_sink_wait_until_the_controller_takes_events(tmp_path: Path, config, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(controller_module, "MAX_INBOX_EVENTS", 4)
    cfg = config("one-card-poker", tmp=tmp_path)
    log = EventLog(tmp_path, cfg.table, signing_key=None, fsync=True)
    controller = TableController(cfg, log)  # not started: nothing takes from the inbox yet
    for n in range(1, 5):
        controller.sink("dev", ev.ButtonPressed(n, 0))
    fifth = threading.Thread(target=controller.sink, args=("dev", ev.ButtonPressed(5, 0)))
    fifth.start()
    fifth.join(0.5)
    assert fifth.is_alive()  # full: the driver's thread waits (backpressure), nothing dropped
    controller.start()
    fifth.join(30)
    assert not fifth.is_alive()
    assert controller.wait_processed("dev", 5, timeout=30)
    controller.stop()
    log.close()
    assert sorted(logged_event_nos(tmp_path, "dev")) == [1, 2, 3, 4, 5]


def test_a_flood_through_the_real_driver_loses_nothing_while_the_inbox_stays_bounded(
    tmp_path: Path, config, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tablectl.drivers.registry import open_device
    from tablectl.simulators.factory import build_device
    from tablectl.simulators.serving.pty import PtyServer

    monkeypatch.setattr(controller_module, "MAX_INBOX_EVENTS", 64)  # small, so the flood meets it
    cfg = config("one-card-poker", tmp=tmp_path)
    log = EventLog(tmp_path, cfg.table, signing_key=None, fsync=True)
    controller = TableController(cfg, log)
    device = build_device("shoe", seed=5)  # issues ShoeLoaded #1
    peak = 0
    with PtyServer(device) as server:
        driver = open_device("shoe", server.address, "dev", controller.sink)
        controller.attach("dev", driver)
        controller.start()
        try:
            presses = 5_000
            for _ in range(presses):
                device.press_button()  # as fast as the device can: the driver meets a full inbox
                peak = max(peak, controller.inbox_size)
            while not controller.wait_processed("dev", presses + 1, timeout=0.005):
                peak = max(peak, controller.inbox_size)
                assert len(device.store) <= presses + 1
        finally:
            controller.stop()
            driver.stop()
            log.close()
    assert peak <= 64
    numbers = logged_event_nos(tmp_path, "dev")
    assert sorted(numbers) == list(range(1, presses + 2)) and set(numbers.values()) == {1}


def test_a_cap_violation_beyond_the_kept_ones_still_voids_the_round_when_resolved(table, monkeypatch: pytest.MonkeyPatch) -> None:
    from tablectl.table.inputs import OfferBank, Resolve, StartRound

    monkeypatch.setattr(alarms_module, "MAX_OPEN_VIOLATIONS", 0)  # every violation is beyond the kept ones
    t = table("one-card-poker", penetration_cap=2)  # 6 of 312 cards
    t.load_shoe()
    t.burn("2C")
    t.input(OfferBank(7))
    t.input(StartRound((1, 2, 3, 4, 5, 6), {s: {"primary": 500} for s in range(1, 7)}))
    t.draw("2S", "3S", "4S", "5S", "6S", "7S")  # the 7th card is past the cap
    assert t.core.alarms.violations == [] and t.core.alarms.unlisted["penetration_cap"] == 1
    t.input(Resolve("pit-anna", "", False))
    assert t.log.events("round_voided")
    assert t.log.events("resolved")[-1]["unlisted"] == {"penetration_cap": 1}


def test_review_sees_every_violation_closed_by_a_resolve_past_the_cap(tmp_path: Path, config, monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess
    import sys

    monkeypatch.setattr(alarms_module, "MAX_OPEN_VIOLATIONS", 3)
    cfg = config("one-card-poker", tmp=tmp_path)
    log = EventLog(tmp_path, cfg.table, signing_key=None, fsync=True)
    controller = TableController(cfg, log)
    controller.start()
    try:
        controller.sink("dev", ev.ShoeLoaded(1, 1, 6, 312))
        for n in range(2, 12):  # ten cards outside a round: ten violations, seven past the cap
            controller.sink("dev", ev.CardDrawn(n, n))
        assert controller.wait_processed("dev", 11, timeout=60)
        controller.resolve("pit-anna").result(30)
    finally:
        controller.stop()
        log.close()
    done = subprocess.run([sys.executable, "-m", "tablectl", "review", str(tmp_path), "--json"], capture_output=True, text=True, timeout=120)
    report = orjson.loads(done.stdout)
    violations = [a for a in report["anomalies"] if a.get("kind") == "violation"]
    assert len(violations) >= 10
    assert [a for a in violations if a.get("resolution") == "unresolved"] == []
