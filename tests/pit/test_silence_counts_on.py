"""An open page's silent tile keeps saying for how long the table has been silent: the time passing
changes the tile, and the changed tile is sent again (no reload)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import orjson
import pytest

from tablectl.pit.app import PitConfig, build
from tablectl.pit.feed import Feed, Hub
from tablectl.pit.floorview import FloorFindings
from tablectl.pit.rounds import RoundBook
from tablectl.pit.state import Floor, epoch
from tablectl.pit.views import Views

from .conftest import tiles, until
from .serving import Served
from .test_feed import events
from .test_state import Log, started


def test_a_silent_tile_is_sent_again_as_its_silence_lasts_on() -> None:
    floor, rounds, clock = Floor(), RoundBook(), [0.0]
    hub = Hub(Views(floor, rounds, None, now=lambda: clock[0]))
    feed = Feed("nats://unused", floor, rounds, hub.changed)
    lines = started(Log("A"))
    for r in lines:
        feed.take("tablectl.A.log", orjson.dumps(r))
    last = clock[0] = epoch(lines[-1]["ts"])
    hub.flush()
    page = hub.join(None)
    events(page)
    shown = []
    for later in (30, 45, 100):
        clock[0] = last + later
        hub.look_for_silence()
        hub.flush()
        sent = [html for event, data in events(page) if event == "tiles" for _, html in data["tiles"]]
        shown.append(re.findall(r"silent for [^(]*", "".join(sent)))
    assert shown == [["silent for 30 s "], ["silent for 45 s "], ["silent for 1 min "]]


@pytest.fixture
def floor_page() -> Iterator[Served]:
    """The page over table A, which wrote its last line a moment ago."""
    served = Served(build(PitConfig(url="http://127.0.0.1:9", interval=0.05, silent_after=1.0),
                          edges=lambda game, decks, rules: None, findings=FloorFindings(None)))
    served.take(started(Log("A", time.strftime("%Y-%m-%dT%H:%M:%S.000000Z", time.gmtime(time.time() - 1)))))
    yield served
    served.stop()


def test_an_open_floor_view_counts_a_silent_tables_silence_on(browser: Any, floor_page: Served) -> None:
    context = browser.new_context()
    try:
        tab = context.new_page()
        tab.goto(floor_page.url + "/")

        def silent_for() -> int:
            m = re.search(r"silent for (\d+) s", tiles(tab).get("A", {}).get("text", ""))
            return int(m.group(1)) if m else -1

        first = until(lambda: silent_for() >= 1 and silent_for(), 10.0, lambda: f"A silent ({tiles(tab)})")
        until(lambda: silent_for() >= first + 2, 10.0, lambda: f"A's silence counted on past {first + 1} s ({tiles(tab)})")
    finally:
        context.close()
