"""What an insider who can publish on the broker but holds no table's key can do to the page with
lines of their own on a table's log subject. The page is served in this process (``serving.Served``)
and fed from a real ``nats-server`` (the ``broker`` fixture); beside the table the forged line
names, an honest table deals on, and both are shown as their own lines say."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from typing import Any

import nats
import orjson
import pytest

from tablectl.pit.app import PitConfig, build
from tablectl.pit.floorview import FloorFindings
from tablectl.pit.nats import LocalBroker, ensure_stream, log_subject

from .serving import Served
from .test_app import Stream
from .test_feed_stream import publish
from .test_state import Log, a_round, started


@pytest.fixture
def page(broker: LocalBroker) -> Iterator[Served]:
    served = Served(build(PitConfig(url=broker.url, interval=0.05), edges=lambda game, decks, rules: None,
                          findings=FloorFindings(None)))
    yield served
    served.stop()


async def _forge(url: str, record: dict[str, Any]) -> None:
    nc = await nats.connect(url)
    js = nc.jetstream()
    await ensure_stream(js)
    await js.publish(log_subject(record["table"]), orjson.dumps(record))
    await nc.close()


def forge(url: str, record: dict[str, Any]) -> None:
    """One line published on its table's log subject by someone who is not the table."""
    asyncio.run(_forge(url, record))


def health(page: Served) -> dict[str, Any]:
    return orjson.loads(page.get("/healthz").body)  # type: ignore[no-any-return]


def until_taken(page: Served, lines: int, timeout: float = 10.0) -> dict[str, Any]:
    """/healthz once the page has taken (or refused) ``lines`` lines of the stream."""
    deadline = time.monotonic() + timeout
    while True:
        h = health(page)
        if h["lines"] + h["refused"] >= lines:
            return h
        assert time.monotonic() < deadline, f"the page took {h['lines']} + refused {h['refused']} of {lines} lines"
        time.sleep(0.02)


def rounds_shown(stream: Stream, want: dict[str, int], timeout: float = 10.0) -> dict[str, int]:
    """Read the floor view's events until each table in ``want`` is shown at (at least) its round."""
    seen: dict[str, int] = {}
    deadline = time.monotonic() + timeout
    while any(seen.get(t, 0) < n for t, n in want.items()):
        assert time.monotonic() < deadline, f"the floor view showed {seen}, not {want}"
        try:
            event, data = stream.next()
        except OSError as e:
            pytest.fail(f"no update reached the floor view for 5 s ({e}); it showed {seen}, not {want}")
        if event == "tiles":
            for table, html in data["tiles"]:
                found = html.split('data-round="', 1)[1].split('"', 1)[0]
                if found:
                    seen[table] = int(found)
    return seen


def test_a_line_whose_net_is_not_a_number_is_refused_and_every_page_keeps_updating(broker: LocalBroker,
                                                                                   page: Served) -> None:
    honest, target = Log("A"), Log("B")
    first = started(honest) + a_round(honest, 1) + started(target) + a_round(target, 1)
    asyncio.run(publish(broker.url, first))
    until_taken(page, len(first))
    floor_view, table_view = Stream(page), Stream(page, "?table=B")
    try:
        rounds_shown(floor_view, {"A": 1, "B": 1})
        # B's next seq, as anyone reading the stream can tell: a settlement of the round on its layout
        forge(broker.url, {"seq": target.seq + 1, "event": "settled", "ts": "2026-05-01T21:00:30.000000Z", "table": "B",
                           "round": 1, "seat": 5, "bet": "tie", "stake": 100, "outcome": "win", "pays": "1:1", "net": "x"})
        then = a_round(honest, 2) + a_round(target, 2, net=-300)
        asyncio.run(publish(broker.url, then))
        assert rounds_shown(floor_view, {"A": 2, "B": 2}) == {"A": 2, "B": 2}
        h = until_taken(page, len(first) + 1 + len(then))
        assert (h["refused"], h["lines"]) == (1, len(first) + len(then))
        reply = page.get("/table/B")
        assert reply.status == 200
        assert 'data-round="2"' in reply.body and "-$3" in reply.body  # B's own settlement of round 2
        win = page.on_loop(lambda: page.pit.floor.tables["B"].day.win)
        assert win == 500 + 300
    finally:
        floor_view.close()
        table_view.close()


def test_a_line_far_ahead_of_a_tables_seq_does_not_freeze_its_tile_and_is_an_alarm(broker: LocalBroker,
                                                                                  page: Served) -> None:
    honest, target = Log("A"), Log("B")
    first = started(honest) + a_round(honest, 1) + started(target) + a_round(target, 1)
    asyncio.run(publish(broker.url, first))
    until_taken(page, len(first))
    floor_view = Stream(page)
    try:
        rounds_shown(floor_view, {"A": 1, "B": 1})
        forge(broker.url, {"seq": 1_000_000_000, "event": "state", "ts": "2099-01-01T00:00:00.000000Z", "table": "B",
                           "from": "in_round", "to": "ready", "round": 1})
        then = a_round(honest, 2) + a_round(target, 2) + a_round(target, 3)
        asyncio.run(publish(broker.url, then))
        assert rounds_shown(floor_view, {"A": 2, "B": 3}) == {"A": 2, "B": 3}
    finally:
        floor_view.close()
    until_taken(page, len(first) + 1 + len(then))
    body = page.get("/").body
    alarm = body.split('data-table="B" data-kind="foreign_line"', 1)[1].split("</tr>", 1)[0]
    assert "seq 1,000,000,000 (state)" in alarm
    tile = re.search(r'<a class="tile [^>]*data-table="B".*?</a>', body, re.DOTALL)
    assert tile is not None
    assert 'data-kind="silent"' in tile[0]  # its last line is old: the table is not taken as heard in 2099
    assert then[-1]["ts"][11:19] in tile[0]
