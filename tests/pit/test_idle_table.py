"""A table that runs and writes nothing (nobody plays) is not silent while its publisher's status
keeps coming and says it has nothing unsent: its tile says how long it has written no line, and only
a table neither lines nor status come from turns red."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import orjson
import pytest

from tablectl.pit.app import PitConfig, build
from tablectl.pit.floorview import FloorFindings

from .conftest import tiles, until
from .serving import Served
from .test_state import Log, floor_of, started

SILENT_AFTER = 2.0


def status(log: Log) -> dict[str, Any]:
    """What a connected publisher that has sent every line of ``log`` says."""
    return {"table": log.table, "published_seq": log.seq, "log_seq": log.seq, "behind": 0, "connected": True,
            "unreachable_s": None}


def test_a_table_whose_publisher_says_it_runs_is_idle_with_no_lines_not_silent() -> None:
    log = Log()
    f = floor_of(started(log))
    t = f.tables["T1"]
    assert t.last_heard is not None
    f.publisher("T1", status(log), t.last_heard + 100)
    kind, text, _ = t.status(t.last_heard + 110)
    assert (kind, text) == ("ready", "ready: no lines for 1 min (the table runs)")


def test_a_table_neither_lines_nor_status_come_from_is_silent_from_the_last_it_was_heard() -> None:
    log = Log()
    f = floor_of(started(log))
    t = f.tables["T1"]
    assert t.last_heard is not None
    f.publisher("T1", status(log), t.last_heard + 100)
    assert t.status(t.last_heard + 129)[0] == "ready"
    assert t.status(t.last_heard + 130)[:2] == ("silent", "silent for 30 s (was: ready)")


@pytest.fixture
def floor_page() -> Iterator[tuple[Served, Log, Log]]:
    """The page over tables A (its publisher's status every 0.2 s) and B (nothing after its lines)."""
    served = Served(build(PitConfig(url="http://127.0.0.1:9", interval=0.05, silent_after=SILENT_AFTER),
                          edges=lambda game, decks, rules: None, findings=FloorFindings(None)))
    now = time.strftime("%Y-%m-%dT%H:%M:%S.000000Z", time.gmtime(time.time() - 1))
    a, b = Log("A", now), Log("B", now)
    served.take(started(a) + started(b))
    stop = threading.Event()

    def publish() -> None:
        while not stop.wait(0.2):
            served.on_loop(lambda: served.pit.feed.take_status("tablectl.A.status", orjson.dumps(status(a))))

    sender = threading.Thread(target=publish, daemon=True)
    sender.start()
    yield served, a, b
    stop.set()
    sender.join(5)
    served.stop()


def test_an_idle_tables_tile_stays_up_while_a_table_heard_nothing_from_turns_silent(browser: Any, floor_page: Any) -> None:
    served, _a, _b = floor_page
    context = browser.new_context()
    try:
        tab = context.new_page()
        tab.goto(served.url + "/")
        until(lambda: tiles(tab).get("B", {}).get("kind") == "silent", SILENT_AFTER + 5, lambda: f"B silent ({tiles(tab)})")
        assert tiles(tab)["A"]["kind"] == "ready"
        tab.reload()
        shown = tiles(tab)
        assert shown["A"]["kind"] == "ready" and "no lines for" in shown["A"]["text"], shown
        assert shown["B"]["kind"] == "silent", shown
    finally:
        context.close()
