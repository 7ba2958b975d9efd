"""The controller's owner thread: inbox batches, group commit before ``persisted``, futures,
view listeners, stop. Unit tests with the in-memory log double and recording drivers."""

from __future__ import annotations

import threading

import pytest

from tablectl.drivers import events as ev
from tablectl.table import lifecycle as lc
from tablectl.table.controller import TableController
from tablectl.table.inputs import InputRejected


class RecordingDriver:
    """Records each ``persisted`` call with how much of the log was committed at that moment."""

    def __init__(self, log) -> None:
        self.log = log
        self.calls: list[tuple[int, int]] = []

    def persisted(self, event_no: int) -> None:
        self.calls.append((event_no, self.log.committed))


@pytest.fixture
def running(config, memory_log):
    made = []

    def start(game="one-card-poker", **overrides):
        log = memory_log()
        controller = TableController(config(game, **overrides), log)
        driver = RecordingDriver(log)
        controller.attach("dev", driver)
        controller.start()
        made.append(controller)
        return controller, log, driver

    yield start
    for controller in made:
        controller.stop()


def test_a_device_event_is_committed_before_the_device_is_told_it_is_persisted(running):
    controller, log, driver = running()
    controller.sink("dev", ev.ShoeLoaded(1, 1, 6, 312))
    assert controller.wait_processed("dev", 1)
    number, committed = driver.calls[-1]
    line = next(i for i, r in enumerate(log.lines) if r.get("event_no") == 1)
    assert number == 1 and committed > line


def test_an_input_future_completes_after_the_input_is_applied(running):
    controller, log, _ = running()
    controller.sink("dev", ev.ShoeLoaded(1, 1, 6, 312))
    controller.offer_bank(7).result(5)
    assert log.events("offer_bank") and controller.snapshot().banker_seat == 7


def test_a_refused_input_raises_through_its_future(running):
    controller, _, _ = running()
    with pytest.raises(InputRejected, match="the table is idle"):
        controller.start_round([1]).result(5)


def test_view_listeners_get_a_view_after_each_batch(running):
    controller, _, _ = running()
    seen = threading.Event()
    states: list[str] = []

    def listener(view):
        states.append(view.state)
        if view.state == lc.READY:
            seen.set()

    controller.add_view_listener(listener)
    controller.sink("dev", ev.ShoeLoaded(1, 1, 6, 312))
    assert seen.wait(5)


def test_stop_takes_what_is_queued_and_goes_offline(running):
    controller, log, _ = running()
    controller.sink("dev", ev.ShoeLoaded(1, 1, 6, 312))
    controller.stop()
    assert not controller.running
    assert log.events("table_stopped") and log.lines[-1]["to"] == lc.OFFLINE


def test_what_queued_up_during_a_batch_is_taken_as_one_batch_with_one_commit(running):
    controller, log, _ = running()
    busy, release = threading.Event(), threading.Event()

    def slow_listener(view):
        if not busy.is_set():
            busy.set()
            release.wait(5)

    controller.add_view_listener(slow_listener)
    controller.sink("dev", ev.ShoeLoaded(1, 1, 6, 312))
    assert busy.wait(5)
    before = log.commits
    for n in range(2, 12):
        controller.sink("dev", ev.ButtonPressed(n, 0))
    release.set()
    assert controller.wait_processed("dev", 11)
    assert log.commits - before == 1
