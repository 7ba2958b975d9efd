"""A table's view while the table deals: a listed round opened to read its cards stays open, because
the page is sent only what changed (the tile, the layout, and a round's row once it is listed), never
the whole day's list again; an update's size does not grow with the rounds of the day."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tablectl.pit.app import PitConfig, build
from tablectl.pit.floorview import FloorFindings

from .conftest import until
from .serving import Served
from .test_feed import events, feed, parts
from .test_state import Log, a_round, started


def test_a_table_page_is_sent_each_listed_round_alone_and_never_the_list_again() -> None:
    _floor, hub, f = parts()
    log = Log("A")
    head = started(log)
    rounds = {n: a_round(log, n) for n in range(1, 62)}
    feed(f, head + rounds[1] + rounds[2][:1])
    hub.flush()
    page = hub.join("A")
    assert [e for e, _ in events(page)] == ["feed", "tile", "layout", "rounds"]
    sizes = {}
    for n in range(2, 61):
        feed(f, rounds[n][1:4])  # the round in play: its tile and layout change, no round is listed
        hub.flush()
        assert [e for e, _ in events(page)] == ["tile", "layout"]
        feed(f, rounds[n][4:] + rounds[n + 1][:1])  # round n is listed once round n + 1 has started
        hub.flush()
        sent = events(page)
        assert "rounds" not in [e for e, _ in sent]
        rows = [d for e, d in sent if e == "round"]
        assert len(rows) == 1 and f'id="round-{n}"' in rows[0]["html"], sent
        assert rows[0]["count"].startswith(f"{n} round(s) checked on ")
        sizes[n] = sum(len(d.get("html", "")) for _, d in sent)
    assert sizes[60] < 1.2 * sizes[3], sizes


@pytest.fixture
def dealing() -> Iterator[tuple[Served, dict[int, list[dict[str, Any]]]]]:
    """The page over table A: rounds 1 and 2 listed, round 3 started; the lines of rounds 3 and 4 to come."""
    served = Served(build(PitConfig(url="http://127.0.0.1:9", interval=0.05), edges=lambda game, decks, rules: None,
                          findings=FloorFindings(None)))
    log = Log("A")
    head = started(log)
    rounds = {n: a_round(log, n) for n in range(1, 5)}
    served.take(head + rounds[1] + rounds[2] + rounds[3][:1])
    yield served, rounds
    served.stop()


def test_a_round_opened_on_a_dealing_tables_view_stays_open_as_the_table_deals_on(browser: Any, dealing: Any) -> None:
    served, rounds = dealing
    context = browser.new_context()
    try:
        tab = context.new_page()
        tab.goto(served.url + "/table/A")
        until(lambda: tab.evaluate("document.getElementById('live').textContent") == "live", 10.0, "the page live")
        tab.click('#rounds details[data-round="2"] > summary')
        is_open = 'document.querySelector(\'#rounds details[data-round="2"]\')?.open === true'
        assert tab.evaluate(is_open)
        served.take(rounds[3][1:] + rounds[4][:3])  # round 3 dealt and listed, round 4 dealt
        until(lambda: tab.evaluate("document.querySelectorAll('#layout [data-round=\"4\"]').length") > 0, 10.0,
              "round 4 on the layout")
        cards = tab.evaluate("document.querySelectorAll('#layout .card').length")
        served.take(rounds[4][3:4])  # one more card: once it shows, every earlier update has been applied
        until(lambda: tab.evaluate("document.querySelectorAll('#layout .card').length") > cards, 10.0,
              "round 4's next card on the layout")
        assert tab.evaluate(is_open), "the opened round closed"
        listed = "[...document.querySelectorAll('#rounds-list details')].map(d => d.dataset.round)"
        assert tab.evaluate(listed)[:2] == ["3", "2"]  # the round listed since, on top
    finally:
        context.close()
