"""The floor report view's findings: a floor report as the pit page shows it (from a plain report),
and the refresh that works it out over a dataset in the background."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tablectl.analytics.floor.render import sections
from tablectl.pit.floorview import FloorFindings, findings

from .plainfloor import report


def test_each_section_of_the_report_is_one_section_of_the_view_in_its_order() -> None:
    r = report()
    f = findings(r)
    assert [s.title for s in f.sections] == [title for title, *_ in sections(r)]
    tables = f.sections[1]
    assert tables.columns[:3] == ["table", "game", "bank"]
    assert [cells[0] for _, cells in tables.rows] == ["T-low", "T-fair"]


def test_the_table_below_its_band_is_the_one_flagged_and_counted() -> None:
    f = findings(report())
    tables = f.sections[1]
    assert [flag for flag, _ in tables.rows] == [True, False]
    assert f.flags == 1


def test_cells_are_shown_as_the_floor_report_shows_them_dollars_and_percents() -> None:
    tables = findings(report()).sections[1]
    cells = dict(zip(tables.columns, tables.rows[0][1], strict=True))
    # 400,000 cents of handle, -60,000 of win, a hold of -0.15
    assert (cells["handle $"], cells["win $"], cells["hold"]) == ("4,000", "-600", "-15.00%")
    assert cells["band low"] == "-"  # not in the report: shown as nothing, never as a made-up figure


def test_each_table_with_days_gets_its_hold_plot_naming_it() -> None:
    plots = findings(report()).hold_plots
    assert len(plots) == 2
    assert "T-low" in plots[0] and "<svg" in plots[0]
    assert "T-fair" in plots[1] and "T-low" not in plots[1]


def test_the_advantage_play_section_is_shown_only_when_the_report_has_one() -> None:
    assert "Play from hidden cards: 3 seat sessions, 40 decisions, 6 tests" in findings(report()).advantage
    assert findings(report(advantage=False)).advantage == ""


def test_the_per_table_rows_are_kept_for_the_theo_against_actual_plot() -> None:
    tables = findings(report()).tables
    assert [(t["table_id"], t["theo_win"], t["win"]) for t in tables] == [("T-low", 12_000, -60_000),
                                                                           ("T-fair", 10_200, 9_000)]


# ---------------------------------------------------------------- the refresh over a dataset


@pytest.fixture
def empty_dataset(tmp_path: Path) -> Path:
    """A dataset with no table exported yet (``_manifests`` and nothing else): a report of no rounds."""
    (tmp_path / "ds" / "_manifests").mkdir(parents=True)
    return tmp_path / "ds"


def test_without_a_dataset_there_is_nothing_to_work_out() -> None:
    f = FloorFindings(None)
    f.refresh()
    f.start()
    assert (f.latest, f.error, f._thread) == (None, None, None)


def test_a_folder_that_is_not_a_dataset_yet_is_said_on_the_page(tmp_path: Path) -> None:
    f = FloorFindings(tmp_path / "ds")
    f.refresh()
    assert f.latest is None
    assert f.error == f"{tmp_path / 'ds'}: no dataset yet"


def test_a_dataset_is_worked_out_into_the_latest_findings_with_the_time(empty_dataset: Path) -> None:
    f = FloorFindings(empty_dataset)
    before = time.time()
    f.refresh()
    assert f.error is None and f.latest is not None
    assert f.latest.summary[0] == f"floor report of {empty_dataset}, no rounds"
    assert f.at is not None and before <= f.at <= time.time()


def test_what_runs_before_the_refresh_runs_first(tmp_path: Path) -> None:
    ds = tmp_path / "ds"
    f = FloorFindings(ds, before=lambda: (ds / "_manifests").mkdir(parents=True))  # the demo exports here
    f.refresh()
    assert f.error is None and f.latest is not None


def test_a_dataset_that_cannot_be_brought_up_to_date_is_said_and_its_report_still_shown(empty_dataset: Path) -> None:
    def fails() -> None:
        raise RuntimeError("the export failed")

    f = FloorFindings(empty_dataset, before=fails)
    f.refresh()
    assert f.error == "RuntimeError: the export failed"
    assert f.latest is not None


def test_a_refresh_that_fails_keeps_the_last_findings_and_says_why(empty_dataset: Path) -> None:
    f = FloorFindings(empty_dataset)
    f.refresh()
    last = f.latest
    (empty_dataset / "_manifests" / "tables.json").write_text("{not json", encoding="utf-8")  # a dataset being written
    f.refresh()
    assert f.latest is last
    assert f.error is not None and f.error.startswith("DatasetError: ")
    assert "tables.json" in f.error


def test_the_background_refresh_works_the_report_out_and_stops_when_told(empty_dataset: Path) -> None:
    f = FloorFindings(empty_dataset, every=300.0)
    f.start()
    thread = f._thread
    f.start()  # started once only
    assert f._thread is thread and thread is not None
    deadline = time.monotonic() + 10
    while f.latest is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert f.latest is not None
    f.stop()
    thread.join(5)
    assert not thread.is_alive()
