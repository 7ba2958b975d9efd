"""A table's view open while the page server starts again without the broker: the stream of a table
the page server has not heard from yet is not refused; the view says it waits for the table and
takes it up when its lines arrive. Over HTTP (``serving.Served``), and in a real Chromium with a
real broker, a demo table and ``tablectl pit`` started again on its port."""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tablectl.pit.app import PitConfig, build
from tablectl.pit.demo import Demo
from tablectl.pit.floorview import FloorFindings
from tablectl.pit.nats import LocalBroker

from .conftest import health, isolated_env, start_page, tiles, until
from .serving import Served
from .test_app import Stream
from .test_state import Log, a_round, started


def edges(game: str, decks: int | None, rules: dict[str, Any] | None) -> dict[str, float]:
    return {"primary": 0.0, "tie": 0.15}


@pytest.fixture
def page() -> Iterator[Served]:
    served = Served(build(PitConfig(url="http://127.0.0.1:9", interval=0.05), edges=edges, findings=FloorFindings(None)))
    yield served
    served.stop()


def test_the_stream_of_a_table_not_heard_yet_says_it_waits_then_sends_the_table_once_heard(page: Served) -> None:
    s = Stream(page, "?table=W1")  # type: ignore[arg-type]
    try:
        event, data = s.next()
        assert (event, data["text"]) == ("waiting", "waiting for table W1: not heard from since the page server started")
        w = Log("W1")
        page.take(started(w) + a_round(w, 1))
        event, data = s.next()
        while event != "tile":
            event, data = s.next()
        assert data["table"] == "W1" and 'data-round="1"' in data["html"]
    finally:
        s.close()


def test_the_stream_of_a_table_id_the_log_cannot_have_is_still_not_found(page: Served) -> None:
    r = page.get("/events?table=" + urllib.parse.quote("../A"))
    assert (r.status, r.body) == (404, "no such table")


def test_an_open_table_view_takes_up_its_table_again_after_the_page_server_restarts_while_the_broker_is_down(
        browser: Any, tmp_path: Path) -> None:
    env = isolated_env(tmp_path)
    with LocalBroker(tmp_path / "broker") as broker, Demo(1, tmp_path / "floor", pace=0.05, mistakes=0.0, broker=broker,
                                                          env=env) as demo:
        page = start_page([broker.url], env)
        context = browser.new_context()
        try:
            view = context.new_page()
            until(lambda: view.goto(page.url + "table/demo-1").status == 200, 30.0,
                  lambda: f"demo-1's view served ({health(page)}; tables: {demo.exits()})", every=0.5)
            until(lambda: view.inner_text("#live") == "live" and tiles(view)["demo-1"]["round"], 30.0,
                  lambda: f"demo-1's view live at a round ({health(page)}; tables: {demo.exits()})")
            broker.stop()
            page.stop()
            listen = page.url.removeprefix("http://").rstrip("/")
            page = start_page([broker.url], env, listen=listen)
            until(lambda: view.inner_text("#live").startswith("waiting for table demo-1"), 10.0,
                  lambda: f"the view saying it waits for demo-1 (it says {view.inner_text('#live')!r})")
            before = int(tiles(view)["demo-1"]["round"])
            broker.start()
            until(lambda: int(tiles(view)["demo-1"]["round"] or 0) >= before + 2 and view.inner_text("#live") == "live",
                  30.0, lambda: f"demo-1's view going on, live (it says {view.inner_text('#live')!r}, "
                                f"tile {tiles(view)}; {health(page)})")
            assert "unreachable" not in view.inner_text("#feed")
        finally:
            context.close()
            page.stop()
