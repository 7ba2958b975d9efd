"""Stopping the controller while signals land in the main thread: a Ctrl-C that interrupts
``wait_stopped`` leaves the owner thread running and the log's only writer, ``stop`` still
stops it (on Python 3.11 a ``Thread.join`` interrupted so reports a running thread as ended,
CPython gh-90882), and a stop takes everything queued before it and nothing after it."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from tablectl.drivers import events as ev

from tablectl.table.controller import TableController
from tablectl.table.inputs import InputRejected


@pytest.fixture
def writers_log(memory_log):  # type: ignore[no-untyped-def]
    class WritersLog(memory_log):  # type: ignore[misc,valid-type]
        """The in-memory log, noting which thread appended each line."""

        def __init__(self) -> None:
            super().__init__()
            self.writers: list[str] = []

        def append_dict(self, event: str, fields: dict[str, Any]) -> int:
            self.writers.append(threading.current_thread().name)
            return super().append_dict(event, fields)  # type: ignore[no-any-return]

    return WritersLog


@pytest.fixture
def default_ctrl_c() -> Iterator[None]:
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def _ctrl_c_in(seconds: float) -> threading.Timer:
    timer = threading.Timer(seconds, signal.pthread_kill, (threading.main_thread().ident, signal.SIGINT))
    timer.start()
    return timer


def test_a_ctrl_c_inside_wait_stopped_leaves_the_owner_thread_running_and_stop_still_stops_it(
    config, writers_log, default_ctrl_c  # type: ignore[no-untyped-def]
) -> None:
    log = writers_log()
    controller = TableController(config("one-card-poker"), log, thread_name="owner")
    controller.start()
    started = len(log.lines)
    controller.sink("dev", ev.ShoeLoaded(1, 1, 6, 312))
    timer = _ctrl_c_in(0.2)
    with pytest.raises(KeyboardInterrupt):
        controller.wait_stopped()
    timer.join()
    assert controller.running

    assert controller.stop()
    assert [r["event"] for r in log.lines[-2:]] == ["table_stopped", "state"]
    assert set(log.writers[started:]) == {"owner"}
    assert not controller.running


def test_once_stopped_the_controller_writes_nothing_more(config, writers_log) -> None:  # type: ignore[no-untyped-def]
    log = writers_log()
    controller = TableController(config("one-card-poker"), log)
    controller.start()
    assert controller.stop()
    lines = len(log.lines)
    controller.sink("dev", ev.ShoeLoaded(1, 1, 6, 312))
    with pytest.raises(InputRejected):
        controller.dealer_change("dealer-1").result(5)
    assert len(log.lines) == lines


def test_a_stop_takes_what_was_queued_before_it_and_rejects_what_came_after(config, memory_log) -> None:  # type: ignore[no-untyped-def]
    log = memory_log()
    controller = TableController(config("one-card-poker"), log)
    controller.start()
    gate = threading.Event()
    controller.add_view_listener(lambda view: gate.wait(5))  # holds the owner thread between batches
    controller.sink("dev", ev.ShoeLoaded(1, 1, 6, 312))  # the first batch, held in its listener
    before = controller.dealer_change("dealer-1")
    controller.sink("dev", ev.CardDrawn(2, 7))
    controller.request_stop()
    after = controller.dealer_change("dealer-2")
    controller.sink("dev", ev.CardDrawn(3, 8))
    gate.set()

    assert controller.wait_stopped(5)
    before.result(5)
    with pytest.raises(InputRejected):
        after.result(5)
    events = [r["event"] for r in log.lines]
    assert events.index("table_stopped") > events.index("dealer_change")
    assert [r.get("event_no") for r in log.lines if r.get("device") == "dev"][-1] == 2
    assert events[-2:] == ["table_stopped", "state"]
