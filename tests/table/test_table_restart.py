"""A table restarted on the same log and the same (simulated) device: each driver resumes after the
last event logged for its device, nothing is logged twice, a card drawn while the table was down
is replayed and flagged, and round numbers go on."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from tablectl.config import load_config
from tablectl.eventlog.verify import iter_events, verify
from tablectl.review.engine import review
from tablectl.table.procedure import validation as va
from tablectl.table.runtime import TableRuntime
from tablectl.table.simulated.virtual_dealer import VirtualDealer

CONFIG = Path(__file__).resolve().parents[2] / "config" / "tables" / "one-card-poker.toml"
CSM_CONFIG = CONFIG.with_name("one-for-the-money-csm.toml")


def session(config, log_dir, sims=None, rounds=0):
    runtime = TableRuntime(config, simulate=True, log_dir=log_dir, seed=5, fsync=False, sims=dict(sims or {}))
    controller = runtime.start()
    try:
        if rounds:
            VirtualDealer(controller, runtime.sims[config.card_device], seed=6).play(rounds)
    finally:
        runtime.stop()
    return runtime


def stopped_two_cards_into_a_round(config, log_dir, sim, wagers):
    """A run on the same simulator that starts a round, deals two cards and stops."""
    device = config.card_device
    runtime = TableRuntime(config, simulate=True, log_dir=log_dir, seed=5, fsync=False, sims={device: sim})
    controller = runtime.start()
    try:
        controller.start_round(list(wagers), wagers).result(5)
        for _ in range(2):
            sim.draw()
        assert controller.wait_processed(device, sim.store.last_no)
    finally:
        runtime.stop()


def test_a_restart_resumes_without_duplicates_and_flags_a_card_drawn_while_down(tmp_path):
    config = load_config(CONFIG)
    log_dir = tmp_path / "log"
    first = session(config, log_dir, rounds=5)
    sim = first.sims["shoe"]
    sim.draw()  # the dealer pulls a card while the controller is down
    second = TableRuntime(config, simulate=True, log_dir=log_dir, seed=5, fsync=False, sims={"shoe": sim})
    controller = second.start()
    try:
        assert controller.wait_processed("shoe", sim.store.last_no)
        assert [v.kind for v in controller.core.alarms.violations] == [va.WRONG_STATE]
        controller.resolve("sup-1").result(5)
        VirtualDealer(controller, sim, seed=7).play(3)
    finally:
        second.stop()
    records = list(iter_events([log_dir]))
    numbered = Counter((r["device"], r["event_no"]) for r in records if r.get("event_no") and r["event"] != "violation")
    assert max(numbered.values()) == 1
    assert [r["round"] for r in records if r["event"] == "round_started"] == list(range(1, 9))
    assert verify([log_dir], None).ok


def test_a_restart_between_rounds_takes_over_the_shoe_in_play_and_deals_on_from_it(tmp_path):
    config = load_config(CONFIG)
    log_dir = tmp_path / "log"
    first = session(config, log_dir, rounds=5)
    sim = first.sims["shoe"]
    before = [r for r in iter_events([log_dir]) if r["event"] in ("dealt", "burned")]
    second = TableRuntime(config, simulate=True, log_dir=log_dir, seed=5, fsync=False, sims={"shoe": sim})
    controller = second.start()
    try:
        view = controller.snapshot()
        assert view.state == "ready"  # not idle, asking for a new shoe
        assert view.cards_drawn == len(before) and view.penetration == before[-1]["penetration"]
        VirtualDealer(controller, sim, seed=7).play(5)
        assert controller.core.alarms.violations == []
    finally:
        second.stop()
    records = list(iter_events([log_dir]))
    resumed = [r for r in records if r["event"] == "shoe_resumed"]
    assert [(r["shoe"], len(r["cards"])) for r in resumed] == [(before[-1]["shoe"], len(before))]
    assert sum(r["event"] == "shoe_loaded" for r in records) == 1  # the same shoe throughout
    cards = [r for r in records if r["event"] in ("dealt", "burned")]
    penetration = [r["penetration"] for r in cards]
    assert penetration == sorted(penetration) and len(cards) > len(before)  # it counts on, never from 0
    assert not [r for r in records if r["event"] == "violation"]
    assert verify([log_dir], None).ok
    # surveillance sees one shoe across both sessions, every card of it in order, nothing amiss
    report = review([log_dir])
    assert [a.kind for a in report.anomalies] == ["not_authenticated"]  # the test's log is not signed
    [shoe] = report.recon.shoes
    assert shoe.resumed_in == [2] and shoe.texts == [r["card"] for r in cards]
    assert shoe.max_penetration == penetration[-1]


def test_a_restart_in_the_middle_of_a_round_goes_on_with_that_round(tmp_path):
    config = load_config(CONFIG)
    log_dir = tmp_path / "log"
    sim = session(config, log_dir, rounds=3).sims["shoe"]
    stopped_two_cards_into_a_round(config, log_dir, sim, {s: {"primary": 1000} for s in (1, 2, 3)})
    third = TableRuntime(config, simulate=True, log_dir=log_dir, seed=5, fsync=False, sims={"shoe": sim})
    controller = third.start()
    try:
        view = controller.snapshot()
        assert (view.state, view.round, view.prompt.action) == ("in_round", 4, "deal")
        VirtualDealer(controller, sim, seed=8).play(2)  # round 4 first, then two more
        assert controller.core.alarms.violations == []
    finally:
        third.stop()
    records = list(iter_events([log_dir]))
    assert [r["round"] for r in records if r["event"] == "round_resumed"] == [4]
    assert [r["round"] for r in records if r["event"] == "round_ended"] == [1, 2, 3, 4, 5, 6]
    round_4 = [r for r in records if r["event"] == "dealt" and r["round"] == 4]
    assert len(round_4) == 4 and [r["to"] for r in round_4] == ["seat:1", "seat:2", "seat:3", "dp"]
    assert not [r for r in records if r["event"] == "violation"]
    report = review([log_dir])
    assert [a.kind for a in report.anomalies] == ["not_authenticated"]  # the test's log is not signed
    [rnd] = [r for r in report.rounds if r.number == 4]  # one round across the two sessions
    assert (rnd.status, rnd.settlement, rnd.session, rnd.resumed_in) == ("complete", "match", 2, [3])
    assert rnd.positions["seat:1"] == [round_4[0]["card"]] and rnd.positions["dp"] == [round_4[3]["card"]]


def test_a_restart_with_a_new_simulator_does_not_take_over_a_shoe_it_does_not_hold(tmp_path):
    config = load_config(CONFIG)
    log_dir = tmp_path / "log"
    session(config, log_dir, rounds=3)
    second = TableRuntime(config, simulate=True, log_dir=log_dir, seed=5, fsync=False)
    controller = second.start()
    try:
        assert controller.snapshot().state == "idle"
    finally:
        second.stop()


def test_a_restart_in_the_middle_of_a_round_at_a_continuous_shuffler_goes_on_with_it(tmp_path):
    config = load_config(CSM_CONFIG)
    log_dir = tmp_path / "log"
    sim = session(config, log_dir, rounds=3).sims["csm"]
    stopped_two_cards_into_a_round(config, log_dir, sim, {s: {"ante": 1000} for s in (1, 2)})
    third = TableRuntime(config, simulate=True, log_dir=log_dir, seed=5, fsync=False, sims={"csm": sim})
    controller = third.start()
    try:
        view = controller.snapshot()
        assert (view.state, view.round, view.cards_out) == ("in_round", 4, 2)
        VirtualDealer(controller, sim, seed=8).play(2)  # round 4 first (its cards go back too), then two more
        assert controller.core.alarms.violations == [] and controller.snapshot().cards_out == 0
    finally:
        third.stop()
    records = list(iter_events([log_dir]))
    assert [r["round"] for r in records if r["event"] == "round_resumed"] == [4]
    assert sum(r["event"] == "shuffle_done" for r in records) == 1  # the same shuffler content throughout
    assert not [r for r in records if r["event"] == "violation"]
    report = review([log_dir])
    assert [a.kind for a in report.anomalies] == ["not_authenticated"]  # the test's log is not signed
    [rnd] = [r for r in report.rounds if r.number == 4]  # one round across the two sessions
    assert (rnd.status, rnd.settlement, rnd.resumed_in) == ("complete", "match", [3])
