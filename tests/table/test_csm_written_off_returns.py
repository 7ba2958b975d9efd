"""A continuous shuffler's cards written off (``card_not_returned`` resolved by a supervisor) that
come back later: logged as written-off cards coming back, and noted by review one anomaly each.
Also: the shuffler's first load is shoe 1, and the event list shows shuffle_done's card count.
Through the front door: ``tablectl run ... --simulate --headless --autoplay`` then the signed log
and ``tablectl review DIR --json``."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tablectl.cli import main
from tablectl.display.render import event_line
from tablectl.eventlog import iter_events

CSM = Path(__file__).resolve().parents[2] / "config" / "tables" / "one-for-the-money-csm.toml"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    """12 rounds at a continuous shuffler with mistakes: seed 1 keeps a card back twice."""
    where = tmp_path_factory.mktemp("csm")
    result = CliRunner().invoke(main, [
        "run", str(CSM), "--simulate", "--headless", "--autoplay", "12", "--seed", "1", "--log-dir", str(where / "log"),
        "--mistakes", "0.3", "--mistakes-log", str(where / "mistakes.jsonl"),
    ], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return where / "log", list(iter_events([where / "log"]))


def _written_off(records: list[dict[str, Any]]) -> Counter[str]:
    """The cards the card_not_returned violations listed (each written off by its resolution)."""
    return Counter(c for r in records if r["event"] == "violation" and r["kind"] == "card_not_returned" for c in r["cards"])


def test_a_written_off_card_coming_back_is_logged_as_one(played: tuple[Path, list[dict[str, Any]]]) -> None:
    _, records = played
    written_off = _written_off(records)
    assert sum(written_off.values()) >= 2
    back = Counter(r["card"] for r in records if r["event"] in ("returned", "identified") and r.get("written_off"))
    assert back == written_off


def test_review_notes_each_written_off_card_coming_back(played: tuple[Path, list[dict[str, Any]]]) -> None:
    log_dir, records = played
    result = CliRunner().invoke(main, ["review", str(log_dir), "--json"])
    report = json.loads(result.output)
    notes = [a for a in report["anomalies"] if a["kind"] == "written_off_returned"]
    assert len(notes) == sum(_written_off(records).values()) >= 2
    back = [r for r in records if r.get("written_off")]
    assert [a["seq"] for a in notes] == [r["seq"] for r in back]
    assert all(f"{r['card']} (event {r['event_no']})" in a["detail"] for a, r in zip(notes, back, strict=True))


def test_a_continuous_shufflers_first_load_is_shoe_1(played: tuple[Path, list[dict[str, Any]]]) -> None:
    _, records = played
    shoes = [r["shoe"] for r in records if r["event"] == "shuffle_done"]
    assert shoes[0] == 1


@pytest.mark.parametrize("event", ["shuffle_done", "shoe_loaded"])
def test_the_event_list_shows_a_shuffles_card_count(event: str) -> None:
    line = event_line({"seq": 8, "event": event, "shoe": 1, "decks": 6, "cards": 312, "deck_ok": True})
    assert "cards=312" in line.plain
