"""A stop has a deadline: SIGTERM or Ctrl-C stops a table within 10 s whatever is queued, and
``table_stopped`` says why.

A shoe that floods the table with shoe loads (each a signed checkpoint and a new log file: the
slowest event a table takes) fills its inbox with 8,192 events, minutes of work: a stop that
took them all first overran the systemd unit's 20 s and was killed mid-write. A signal now stops
the table at once: what it is applying is committed, ``table_stopped`` names the signal, and
what is still queued is not taken, so never acknowledged: its device sends it again at the next
start and nothing is lost. The log closes with its signed shutdown checkpoint.

Real processes (``tablectl run`` on simulated devices over ptys) for the deadline and the
reasons; the controller and a runtime in this process for what is left queued.
"""

from __future__ import annotations

import dataclasses
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
from floodrun import CONFIG, STOP_DEADLINE, FloodStop, flood_and_stop, records, start_run, wait_for

from tablectl.config import load_config
from tablectl.drivers import events as ev
from tablectl.eventlog import iter_events, save_keypair
from tablectl.simulators.factory import build_device
from tablectl.table import controller as controller_module
from tablectl.table.controller import TableController
from tablectl.table.inputs import InputRejected
from tablectl.table.runtime import TableRuntime

CLEAN_END = ["table_stopped", "state", "checkpoint"]


def _assert_stopped_in_time_and_cleanly(stopped: FloodStop, reason: str, signal_name: str) -> None:
    assert stopped.seconds is not None, f"still running {STOP_DEADLINE + 5:g} s after the signal\n{stopped.stderr[-3000:]}"
    assert stopped.seconds <= STOP_DEADLINE, stopped.stderr[-3000:]
    assert stopped.code == 130, stopped.stderr[-3000:]
    assert "Traceback" not in stopped.stderr, stopped.stderr[-3000:]
    assert stopped.review == 0, stopped.review_out[-3000:]
    assert stopped.torn == []
    assert [r["event"] for r in stopped.last] == CLEAN_END
    assert (stopped.last[0]["reason"], stopped.last[0].get("signal")) == (reason, signal_name)
    assert (stopped.last[1]["to"], stopped.last[2]["reason"]) == ("offline", "shutdown")
    assert stopped.loads_logged > 0
    assert (stopped.rerun, stopped.recovered) == (130, False)


def test_a_sigterm_during_a_flood_of_shoe_loads_stops_the_headless_table_within_the_deadline_and_cleanly(tmp_path: Path) -> None:
    stopped = flood_and_stop(tmp_path / "log", wait=STOP_DEADLINE + 5)
    _assert_stopped_in_time_and_cleanly(stopped, "signal", "SIGTERM")


def test_a_ctrl_c_during_a_flood_of_shoe_loads_stops_the_table_under_the_live_display_within_the_deadline_and_cleanly(
    tmp_path: Path,
) -> None:
    stopped = flood_and_stop(tmp_path / "log", signum=signal.SIGINT, display=True, wait=STOP_DEADLINE + 5)
    _assert_stopped_in_time_and_cleanly(stopped, "ctrl_c", "SIGINT")


@pytest.mark.parametrize(("signum", "reason"), [(signal.SIGTERM, "signal"), (signal.SIGINT, "ctrl_c"), (signal.SIGHUP, "signal")])
def test_table_stopped_names_the_signal_that_stopped_the_table(tmp_path: Path, signum: int, reason: str) -> None:
    log_dir = tmp_path / "log"
    proc, stderr = start_run(log_dir)
    try:
        wait_for("the table online", lambda: stderr.has(": running ("), proc, stderr)
        proc.send_signal(signum)
        proc.wait(60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(30)
    assert proc.returncode == 130, stderr.text()
    stopped = [r for r in records(log_dir) if r["event"] == "table_stopped"]
    assert [(r["reason"], r.get("signal")) for r in stopped] == [(reason, signal.Signals(signum).name)]


def test_table_stopped_says_the_virtual_dealer_finished_at_the_end_of_autoplay(tmp_path: Path) -> None:
    log_dir = tmp_path / "log"
    done = subprocess.run(
        [sys.executable, "-m", "tablectl", "run", str(CONFIG), "--simulate", "--headless", "--autoplay", "2", "--seed", "5",
         "--log-dir", str(log_dir)],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    stopped = [r for r in iter_events([log_dir]) if r["event"] == "table_stopped"]
    assert [(r["reason"], r.get("signal")) for r in stopped] == [("autoplay_done", None)]


def test_a_stop_at_once_takes_nothing_more_of_what_is_queued_and_refuses_inputs_at_once(config, memory_log) -> None:  # type: ignore[no-untyped-def]
    log = memory_log()
    controller = TableController(config("one-card-poker"), log)
    controller.start()
    held, gate = _hold(controller)
    controller.sink("dev", ev.ShoeLoaded(1, 1, 6, 312))  # the first batch, held in its listener
    assert held.wait(10)
    queued = [controller.dealer_change("dealer-1")]
    for n in range(2, 1002):
        controller.sink("dev", ev.ButtonPressed(n, 0))
    controller.request_stop("signal", signal="SIGTERM", at_once=True)
    late = controller.dealer_change("dealer-2")
    assert late.done()  # refused before the owner thread has even seen the stop
    gate.set()

    assert controller.wait_stopped(10)
    for future in [*queued, late]:
        with pytest.raises(InputRejected):
            future.result(5)
    assert [r.get("event_no") for r in log.lines if r.get("device") == "dev"] == [1]
    stopped = [r for r in log.lines if r["event"] == "table_stopped"]
    assert [(r["reason"], r.get("signal")) for r in stopped] == [("signal", "SIGTERM")]
    assert controller.processed("dev") == 1


def test_a_driver_with_a_flood_in_hand_gets_through_it_at_once_when_the_table_stops_at_once(
    config, memory_log, monkeypatch: pytest.MonkeyPatch  # type: ignore[no-untyped-def]
) -> None:
    monkeypatch.setattr(controller_module, "MAX_INBOX_EVENTS", 4)
    controller = TableController(config("one-card-poker"), memory_log())
    controller.start()
    held, gate = _hold(controller)
    controller.sink("dev", ev.ShoeLoaded(1, 1, 6, 312))
    assert held.wait(10)
    for n in range(2, 5):
        controller.sink("dev", ev.ButtonPressed(n, 0))  # with the first, the inbox is full
    controller.request_stop("signal", signal="SIGTERM", at_once=True)
    started = time.monotonic()
    for n in range(5, 45):  # what the driver has read: each would wait for room that never comes
        controller.sink("dev", ev.ButtonPressed(n, 0))
    took = time.monotonic() - started
    gate.set()
    assert controller.wait_stopped(10)
    assert took < 5.0  # was 0.25 s an event: 10 s for these 40


def test_an_orderly_stop_that_outlasts_its_grace_stops_at_once(config, memory_log) -> None:  # type: ignore[no-untyped-def]
    log = memory_log()
    controller = TableController(config("one-card-poker"), log)
    controller.start()
    held, gate = _hold(controller)
    controller.sink("dev", ev.ShoeLoaded(1, 1, 6, 312))
    assert held.wait(10)
    for n in range(2, 1002):
        controller.sink("dev", ev.ButtonPressed(n, 0))
    threading.Timer(2.0, gate.set).start()  # the first batch ends long after the grace

    started = time.monotonic()
    assert controller.stop("autoplay_done", timeout=10, grace=0.2)
    assert time.monotonic() - started < 5
    assert [r.get("event_no") for r in log.lines if r.get("device") == "dev"] == [1]
    assert [r["reason"] for r in log.lines if r["event"] == "table_stopped"] == ["autoplay_done"]


def _hold(controller: TableController) -> tuple[threading.Event, threading.Event]:
    """Hold the owner thread in its next batch's view listener: (held: it is there, gate: set to
    let it go on)."""
    held, gate = threading.Event(), threading.Event()

    def listener(view: object) -> None:
        held.set()
        gate.wait(10)

    controller.add_view_listener(listener)
    return held, gate


def _logged_event_nos(log_dir: Path, device: str) -> Counter[int]:
    return Counter(r["event_no"] for r in iter_events([log_dir])
                   if r.get("device") == device and r.get("event_no") and r["event"] not in ("violation", "device_adopted"))


def test_what_a_stop_at_once_left_queued_comes_again_from_the_device_after_the_restart_each_event_logged_once(
    tmp_path: Path,
) -> None:
    base = load_config(CONFIG)
    cfg = base.model_copy(update={"log": dataclasses.replace(base.log, rotate="never")})
    keys = save_keypair(tmp_path / "keys")
    log_dir = tmp_path / "log"
    shoe = build_device("shoe", decks=6, seed=9, load=False)  # kept across the restart, as a real shoe is
    loads = 600

    runtime = TableRuntime(cfg, simulate=True, log_dir=log_dir, signing_key=keys.private, sims={"shoe": shoe})
    controller = runtime.start()
    held, gate = _hold(controller)
    try:
        for _ in range(loads):
            shoe.load()
        assert held.wait(10)
        deadline = time.monotonic() + 30
        while controller.inbox_size < loads // 2 and time.monotonic() < deadline:
            time.sleep(0.01)  # the driver queues the flood behind the held batch
        controller.request_stop("signal", signal="SIGTERM", at_once=True)
        gate.set()
        assert controller.wait_stopped(10)
    finally:
        gate.set()
        runtime.stop()
    taken = _logged_event_nos(log_dir, "shoe")
    assert 0 < len(taken) < loads  # the stop left most of the flood with the device
    assert len(shoe.store) >= loads - len(taken)  # never acknowledged: the device still holds them

    again = TableRuntime(cfg, simulate=True, log_dir=log_dir, signing_key=keys.private, sims={"shoe": shoe})
    try:
        assert again.start().wait_processed("shoe", loads, timeout=60)
    finally:
        again.stop()
    numbers = _logged_event_nos(log_dir, "shoe")
    assert sorted(numbers) == list(range(1, loads + 1)) and set(numbers.values()) == {1}


@pytest.mark.slow
def test_thirty_sigterms_during_a_flood_of_shoe_loads_all_stop_within_the_deadline_and_cleanly(tmp_path: Path) -> None:
    runs = [flood_and_stop(tmp_path / f"run{i}" / "log") for i in range(30)]
    times = sorted(r.seconds for r in runs if r.seconds is not None)
    figures = {
        "stopped": len(times),
        "within 10 s": sum(t <= STOP_DEADLINE for t in times),
        "exit 130": sum(r.code == 130 for r in runs),
        "corrupt logs": sum(r.review != 0 for r in runs),
        "torn logs": sum(bool(r.torn) for r in runs),
        "clean ends": sum([x["event"] for x in r.last] == CLEAN_END and r.last[0].get("signal") == "SIGTERM" for r in runs),
        "clean restarts": sum((r.rerun, r.recovered) == (130, False) for r in runs),
    }
    print(figures, f"stop times: median {times[len(times) // 2]:.2f} s, max {times[-1]:.2f} s" if times else "")
    assert figures == {"stopped": 30, "within 10 s": 30, "exit 130": 30, "corrupt logs": 0, "torn logs": 0, "clean ends": 30,
                       "clean restarts": 30}
