"""The floor's inline SVG plots (``analytics.floor.plots``), from plain values: the hold through the
day per table, and theoretical win against actual win per table."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from tablectl.analytics.floor.plots import hold_through_day, theo_against_actual

SVG = "{http://www.w3.org/2000/svg}"
EVIL = "<script>alert(1)</script>"


def parsed(svg: str) -> ET.Element:
    """The plot as XML (so it is well formed, and its parts can be looked at)."""
    return ET.fromstring(svg)


def texts(svg: str) -> list[str]:
    return ["".join(t.itertext()) for t in parsed(svg).iter(SVG + "text")]


def test_a_day_without_a_settled_round_says_so() -> None:
    for series in ({}, {"A": []}, {"A": [("not a time", 0.1)]}):
        assert "No settled round today yet." in texts(hold_through_day(series))


def test_each_table_has_its_line_and_is_named_with_its_latest_hold() -> None:
    svg = hold_through_day({"T-2": [("2026-05-01T10:00:00.000000Z", 0.10), ("2026-05-01T11:00:00.000000Z", 0.125)],
                            "T-1": [("2026-05-01T10:30:00.000000Z", -0.05)]})
    assert len(list(parsed(svg).iter(SVG + "polyline"))) == 2
    assert {"T-1: -5.0%", "T-2: 12.5%"} <= set(texts(svg))


def test_the_time_axis_runs_from_the_first_round_to_the_last_of_the_day() -> None:
    svg = hold_through_day({"A": [("2026-05-01T10:00:00.000000Z", 0.1), ("2026-05-01T12:30:15.500000Z", 0.2)]})
    assert {"10:00:00", "12:30:15"} <= set(texts(svg))


def test_the_hold_axis_always_shows_zero() -> None:
    svg = hold_through_day({"A": [("2026-05-01T10:00:00.000000Z", 0.2), ("2026-05-01T11:00:00.000000Z", 0.3)]})
    assert "0%" in texts(svg)


def test_one_round_is_plotted_without_a_span_of_time_or_of_hold() -> None:
    svg = hold_through_day({"A": [("2026-05-01T10:00:00.000000Z", 0.0)]})
    (line,) = parsed(svg).iter(SVG + "polyline")
    assert re.fullmatch(r"[0-9.]+,[0-9.]+", line.get("points", ""))


def test_a_table_name_is_shown_as_text_in_every_plot() -> None:
    for svg in (hold_through_day({EVIL: [("2026-05-01T10:00:00.000000Z", 0.1)]}),
                theo_against_actual([{"table_id": EVIL, "theo_win": 100, "win": 200}])):
        assert "<script" not in svg
        assert any(t.startswith(EVIL) for t in texts(svg))


def test_theo_against_actual_has_a_pair_of_bars_per_table_in_dollars() -> None:
    svg = theo_against_actual([{"table_id": "T-1", "theo_win": 123_450, "win": -20_000},
                               {"table_id": "T-2", "theo_win": None, "win": 5_000},
                               {"table_id": "T-3", "theo_win": None, "win": None}])  # nothing to plot: left out
    names = texts(svg)
    assert "T-1" in names and "T-2" in names and "T-3" not in names
    titles = ["".join(t.itertext()) for t in parsed(svg).iter(SVG + "title")]
    assert {"theo_win: $1,234.50", "win: -$200.00", "win: $50.00"} <= set(titles)
    assert not any(t.startswith("theo_win") and "T-2" in t for t in titles)
    assert len(list(parsed(svg).iter(SVG + "rect"))) == 3


def test_a_loss_is_drawn_left_of_zero_and_a_win_right_of_it() -> None:
    svg = theo_against_actual([{"table_id": "T-1", "theo_win": 10_000, "win": -20_000}])
    root = parsed(svg)
    zero = float(next(root.iter(SVG + "line")).get("x1", "nan"))
    bars = {"".join(r.itertext()).split(":")[0]: r for r in root.iter(SVG + "rect")}
    theo, win = bars["theo_win"], bars["win"]
    near = pytest.approx  # coordinates are written to 0.1
    assert float(theo.get("x", "nan")) == near(zero, abs=0.1)  # from zero to the right
    assert float(win.get("x", "nan")) + float(win.get("width", "nan")) == near(zero, abs=0.2)  # from the left up to zero
    assert float(win.get("width", "nan")) == near(2 * float(theo.get("width", "nan")), abs=0.3)  # $200 against $100
