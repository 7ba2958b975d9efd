"""Keyboard only, in a real Chromium: a tile or an alarm's link that has the focus keeps it while
the page updates, so Enter opens it. The page served in this process (``serving.Served``), its
floor fed plain log lines (``test_state.Log``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tablectl.pit.app import PitConfig, build
from tablectl.pit.floorview import FloorFindings

from .conftest import until
from .serving import Served
from .test_state import Log, a_round, started

NO_BROKER = "http://127.0.0.1:9"


def edges(game: str, decks: int | None, rules: dict[str, Any] | None) -> dict[str, float]:
    return {"primary": 0.0, "tie": 0.15}


@pytest.fixture
def floor() -> Iterator[Served]:
    """Tables A and B, each with a round played, and an alarm at A."""
    served = Served(build(PitConfig(url=NO_BROKER, interval=0.05), edges=edges, findings=FloorFindings(None)))
    a, b = Log("A"), Log("B")
    served.take(started(a) + a_round(a, 1) + started(b) + a_round(b, 1)
                + [a("violation", kind="too_many_cards", round=1, detail="a card the round does not need")])
    served.logs = {"A": a, "B": b}  # type: ignore[attr-defined]
    yield served
    served.stop()


@pytest.fixture
def tab(browser: Any, floor: Served) -> Iterator[Any]:
    context = browser.new_context()
    p = context.new_page()
    p.goto(floor.url + "/")
    until(lambda: p.inner_text("#live") == "live", 10.0, "the page's stream live")
    yield p
    context.close()


def focused(p: Any) -> str:
    """What has the focus: its tag, and its data-table or href."""
    return str(p.evaluate("""() => { const e = document.activeElement;
        return e.tagName + ' ' + (e.dataset.table || e.getAttribute('href') || ''); }"""))


def tab_to(p: Any, target: str) -> None:
    for _ in range(30):
        p.keyboard.press("Tab")
        if focused(p) == target:
            return
    pytest.fail(f"Tab never reached {target} (last: {focused(p)})")


def test_a_focused_tile_keeps_the_focus_while_its_table_deals_and_enter_opens_its_view(floor: Served, tab: Any) -> None:
    tab_to(tab, "A A")
    a = floor.logs["A"]  # type: ignore[attr-defined]
    for n in (2, 3):
        floor.take(a_round(a, n))
        until(lambda n=n: tab.get_attribute('.tile[data-table="A"]', "data-round") == str(n), 5.0,
              f"A's tile at round {n}")
    assert focused(tab) == "A A"
    tab.keyboard.press("Enter")
    tab.wait_for_url(floor.url + "/table/A", timeout=5000)


def test_a_focused_alarm_link_keeps_the_focus_when_an_alarm_arrives_and_enter_opens_its_table(floor: Served, tab: Any) -> None:
    tab_to(tab, "A /table/A")
    b = floor.logs["B"]  # type: ignore[attr-defined]
    floor.take([b("violation", kind="penetration_cap", round=1, detail="past the cap")])
    until(lambda: tab.locator("#alarms tr.alarm").count() == 2, 5.0, "the new alarm listed")
    assert focused(tab) == "A /table/A"
    tab.keyboard.press("Enter")
    tab.wait_for_url(floor.url + "/table/A", timeout=5000)
