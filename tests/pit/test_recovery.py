"""The pit page when a table or the broker goes away, in a real Chromium: a broker of the test's
own (``nats-server``, stopped and started again on its port and store), two demo tables and
``tablectl pit URL``. One floor for the module."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tablectl.pit.demo import Demo
from tablectl.pit.nats import LocalBroker

from .conftest import Page, health, isolated_env, start_page, tiles, until

SILENT_AFTER = 3.0


@dataclass
class Floor:
    broker: LocalBroker
    demo: Demo
    page: Page


@pytest.fixture(scope="module")
def floor(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Floor]:
    root = tmp_path_factory.mktemp("pit-recovery")
    env = isolated_env(root)
    with LocalBroker(root / "broker") as broker, Demo(2, root / "floor", pace=0.05, mistakes=0.0, broker=broker, env=env) as demo:
        page = start_page([broker.url, "--silent-after", str(SILENT_AFTER)], env)
        try:
            yield Floor(broker, demo, page)
        finally:
            page.stop()


@pytest.fixture
def tab(browser: Any, floor: Floor) -> Iterator[Any]:
    context = browser.new_context()
    p = context.new_page()
    p.goto(floor.page.url)
    until(lambda: len(tiles(p)) == 2 and all(t["round"] for t in tiles(p).values()), 30.0,
          lambda: f"both tiles with a round (page: {tiles(p)}; {health(floor.page)}; tables: {floor.demo.exits()})")
    yield p
    context.close()


def _round(p: Any, table: str) -> int:
    return int(tiles(p)[table]["round"] or 0)


def test_the_page_recovers_by_itself_when_the_broker_comes_back(floor: Floor, tab: Any) -> None:
    tab.evaluate("window.__not_reloaded = true")
    floor.broker.stop()
    until(lambda: "unreachable" in tab.inner_text("#feed"), 10.0, "the page saying the broker is unreachable")
    before = _round(tab, "demo-1")
    floor.broker.start()
    until(lambda: _round(tab, "demo-1") >= before + 2, 30.0, "demo-1's rounds on its tile again after the restart")
    assert tab.evaluate("window.__not_reloaded") is True


def test_a_stopped_table_turns_its_tile_silent(floor: Floor, tab: Any) -> None:
    floor.demo.stop_table("demo-2")
    tile = until(lambda: tiles(tab)["demo-2"]["kind"] == "silent" and tiles(tab)["demo-2"], SILENT_AFTER + 5.0,
                 "demo-2's tile turning silent")
    assert "silent for" in tile["text"]
    assert tiles(tab)["demo-1"]["kind"] != "silent"
