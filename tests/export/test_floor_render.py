"""The floor report as text and as HTML (``analytics.floor.render``), from a report of plain values
(no dataset: ``test_floor.py`` runs ``tablectl floor`` over a played floor):

- T-low, a house-banked table far below its band (z -4.2, p 1e-5 against the tables' p limit
  0.001 and z 3): flagged;
- PB-1, a player bank far above its band (z +4.5, p 1e-6): flagged, a player bank either way;
- T-fair, an honest table; T-odd, a table under a rule the math does not model (not judged);
- a dealer whose id carries HTML; two seats, one below its band; a weak shuffler serial."""

from __future__ import annotations

import re

import pytest

from tablectl.analytics.dataset.queries import Result
from tablectl.analytics.floor.detection import AdvantagePlay
from tablectl.analytics.floor.render import (
    fmt,
    hold_plot,
    period,
    render_html,
    render_text,
    summary,
)
from tablectl.analytics.floor.report import RULES_COLUMNS, Alarms, FloorReport

DEALER = "<img src=x onerror=alert(1)>"
DETAIL = ("house rule dp_declines_war = 'player-wins' (the math has the DP go to war on every tie): not modelled by "
          "the game math")
TABLE_COLUMNS = ["table_id", "game", "bank", "rules", "rounds", "handle", "win", "hold", "judged_hold",
                 "expected_hold", "band_low", "band_high", "z", "p", "violations_per_100", "holds_per_100", "faults",
                 "penetration", "theo_win", "edge_as_played", "theo_sd", "theo_z"]


def table(name: str, bank: str, win: int, z: float | None, p: float | None) -> tuple:  # type: ignore[type-arg]
    handle = 400_000
    return (name, "one-card-poker", bank, "approved", 400, handle, win, win / handle, win / handle, 0.03, -0.05, 0.11,
            z, p, 0.5, 0.25, 0, 0.71, 12_000, 0.03, 4_000, None)


def report(**changes: object) -> FloorReport:
    tables = Result(TABLE_COLUMNS, [table("T-low", "house", -60_000, -4.2, 1e-5),
                                    table("PB-1", "player", 90_000, 4.5, 1e-6),
                                    table("T-fair", "house", 9_000, -0.2, 0.42),
                                    table("T-odd", "house", 1_000, None, None)])
    r = FloorReport(
        "ds-plain", None, None, tables,
        dealers=Result(["dealer", "bank", "rounds", "hold", "z", "p"], [(DEALER, "house", 1200, 0.01, -1.0, 0.16)]),
        days=Result(["date", "rounds", "hold", "z", "p"], [("2026-05-01", 800, 0.01, -1.0, 0.16),
                                                           ("2026-05-02", 800, 0.02, 0.3, 0.6)]),
        seats=Result(["table_id", "seat", "rounds", "z", "p"], [("T-low", 2, 400, -3.5, 1e-4), ("T-low", 3, 400, 0.4, 0.66)]),
        shufflers=Result(["serial", "kind", "shuffled_by", "combined_p"], [("CSM-WEAK-1", "csm", "machine", 1e-6),
                                                                           ("CSM-GOOD-2", "csm", "machine", 0.4)]),
        math=Result(["game", "wager", "edge"], [("one-card-poker", "primary", 0.0231)]),
        alarms={"tables": Alarms(3, 3.0, 0.004, 0.001, 3.0), "player_banks": Alarms(2, 3.1, 0.002, 0.001, 3.0),
                "seats": Alarms(2, 3.0, 0.003, 0.001, 3.0)},
        seconds=1.25)
    r.rules = Result(list(RULES_COLUMNS), [("T-odd", "2026-05-01", "not judged", "r-odd", DETAIL, 400, 1, 400, 5, 2000,
                                            "1..400")])
    r.flagged = {"tables": ["T-low"], "player_banks": ["PB-1"], "not_judged": ["T-odd"], "shufflers": ["CSM-WEAK-1"]}
    r.hold_curve = Result(["table_id", "date", "end_ts", "hold"],
                          [("T-low", "2026-05-01", "2026-05-01T10:00:00.000000Z", 0.02),
                           ("T-low", "2026-05-01", "2026-05-01T12:00:00.000000Z", -0.15),
                           ("T-fair", "2026-05-01", "2026-05-01T10:05:00.000000Z", 0.03),
                           ("T-fair", "2026-05-02", "2026-05-02T10:05:00.000000Z", None)])
    r.table_days = Result(["table_id", "date", "judged_hold", "expected_hold", "band_low", "band_high"],
                          [("T-low", "2026-05-01", -0.15, 0.03, -0.05, 0.11), ("T-low", "2026-05-02", 0.04, 0.03, -0.05, 0.11),
                           ("T-fair", "2026-05-01", 0.03, 0.03, -0.05, 0.11)])
    r.advantage = AdvantagePlay(0.05, "holm", sessions=3, decisions=40, tests=6)
    for k, v in changes.items():
        setattr(r, k, v)
    return r


def text(r: FloorReport, **kw: object) -> list[str]:
    out: list[str] = []
    render_text(r, out.append, **kw)  # type: ignore[arg-type]
    return out


def section(lines: list[str], title: str) -> list[str]:
    """The lines of the section whose title starts with ``title`` (up to the next blank line)."""
    start = next(i for i, line in enumerate(lines) if line.startswith(title))
    end = next((i for i in range(start + 1, len(lines)) if lines[i] == ""), len(lines))
    return lines[start:end]


def said(lines: list[str], start: str) -> str:
    """A line said through the width's wrapping (``start`` and its indented continuations), as one."""
    i = next(i for i, line in enumerate(lines) if line.startswith(start))
    out = [lines[i]]
    while i + 1 < len(lines) and lines[i + 1].startswith("  ") and not out[-1].endswith(")"):
        i += 1
        out.append(lines[i].strip())
    return " ".join(out)


def row(lines: list[str], name: str) -> str:
    return next(line for line in lines if line[2:].startswith(name + " "))


# ---------------------------------------------------------------- as text


def test_at_80_columns_no_line_of_the_report_is_wider() -> None:
    lines = text(report(), width=80)
    assert max(len(line) for line in lines) <= 80
    assert any(len(line) > 80 for line in text(report(), wide=True))  # the same report has longer lines to fit


def test_at_80_columns_the_figures_of_a_row_are_whole_on_its_line() -> None:
    tables = section(text(report(), width=80), "Tables")
    tokens = row(tables, "T-low").split()
    # its win (-60,000 cents), hold, z and p as the report formats them: never cut by the fitting
    assert {"-600", "-15.00%", "-4.20", "1e-05"} <= set(tokens)


def test_a_flagged_row_starts_with_the_mark_and_the_section_says_so() -> None:
    tables = section(text(report(), width=80), "Tables")
    assert "(! flagged)" in said(tables, "Tables")
    assert row(tables, "T-low").startswith("! ") and row(tables, "PB-1").startswith("! ")
    assert row(tables, "T-fair").startswith("  ") and row(tables, "T-odd").startswith("  ")


def test_the_columns_left_out_to_fit_are_named_and_wide_shows_them() -> None:
    narrow = section(text(report(), width=80), "Tables")
    left_out = said(narrow, "(left out to fit 80 columns, --wide shows them: ")
    assert "theo sd $" in left_out
    wide = section(text(report(), wide=True), "Tables")
    assert not any(line.startswith("(left out") for line in wide)
    assert "theo sd $" in " ".join(wide) and "40" in row(wide, "T-low").split()  # theo sd: 4,000 cents


def test_only_the_seats_outside_their_band_are_listed() -> None:
    seats = section(text(report(), width=80), "Seats outside the band")
    assert seats[0].startswith("Seats outside the band (1 of 2)")
    assert [line.split()[1:3] for line in seats if line.startswith("!")] == [["T-low", "2"]]


def test_a_findings_long_detail_wraps_within_the_width_and_keeps_every_word() -> None:
    rules = section(text(report(), width=80), "Rules against the approved math")
    assert all(len(line) <= 80 for line in rules)
    words = " ".join(rules).split()
    assert all(w in words for w in DETAIL.split())


def test_the_summary_names_what_is_flagged_and_what_is_not_judged() -> None:
    lines = summary(report())
    assert "FLAGGED tables: T-low" in lines and "FLAGGED player_banks: PB-1" in lines
    assert any(line.startswith("NOT JUDGED tables") and line.endswith(": T-odd") for line in lines)
    assert "nothing flagged" not in lines


def test_a_table_not_judged_is_no_flag() -> None:
    lines = summary(report(flagged={"not_judged": ["T-odd"]}))
    assert "nothing flagged" in lines
    assert any(line.startswith("NOT JUDGED tables") for line in lines)


def test_the_summary_states_each_familys_limit() -> None:
    limits = next(line for line in summary(report()) if line.startswith("flagged ("))
    assert "tables p <= 0.001 (band z -3.00, 3 tests)" in limits
    assert "player_banks p <= 0.001 a side (band z +-3.10, 2 tests)" in limits


@pytest.mark.parametrize(("date_from", "date_to", "days", "expected"), [
    (None, None, [("2026-05-02",), ("2026-05-01",)], "2026-05-01 .. 2026-05-02"),  # the first and last day with rounds
    ("2026-04-01", "2026-04-30", [("2026-05-01",)], "2026-04-01 .. 2026-04-30"),  # the days asked for
    (None, None, [], "no rounds"),
])
def test_the_period_is_the_days_asked_for_else_those_with_rounds(date_from: str | None, date_to: str | None,
                                                                   days: list[tuple[str]], expected: str) -> None:
    r = report(date_from=date_from, date_to=date_to, days=Result(["date"], days))
    assert period(r) == expected
    assert summary(r)[0] == f"floor report of ds-plain, {expected}"


def test_the_play_from_hidden_cards_section_ends_the_text_report() -> None:
    lines = text(report(), width=80)
    last = said(lines, "Play from hidden cards: ")
    assert last.startswith("Play from hidden cards: 3 seat sessions, 40 decisions, 6 tests")
    assert last.endswith("0 flagged") and lines[-1].endswith("0 flagged")
    assert not any(line.startswith("Play from hidden cards") for line in text(report(advantage=None), width=80))


@pytest.mark.parametrize(("value", "kind", "shown"), [
    (None, "money", "-"), (123_456, "money", "1,235"), (-60_000, "money", "-600"), (0.0231, "pct", "2.31%"),
    (-4.2, "z", "-4.20"), (1.5, "z", "+1.50"), (0.000012, "p", "1.2e-05"), (1234, "int", "1,234"),
    (0.123456, "num", "0.123"), (7, "num", "7"), ("T-1", "text", "T-1"),
])
def test_a_figure_is_shown_in_the_reports_units(value: object, kind: str, shown: str) -> None:
    assert fmt(value, kind) == shown


def test_a_day_is_shown_as_its_iso_date() -> None:
    import datetime as dt

    assert fmt(dt.date(2026, 5, 1), "text") == "2026-05-01"


# ---------------------------------------------------------------- as HTML


def test_the_html_page_is_self_contained_without_scripts() -> None:
    page = render_html(report())
    assert page.startswith("<!doctype html>") and page.endswith("</html>")
    assert "<script" not in page.lower()
    assert not re.search(r"""(src|href)\s*=\s*['"]?(https?:)?//""", page)
    assert "Computed in 1.25 s with DuckDB." in page


def test_the_html_page_marks_the_flagged_rows() -> None:
    page = render_html(report())
    flagged = re.findall(r"<tr class='flag'><td>([^<]*)</td>", page)
    # tables, seats (T-low's seat 2), shufflers; T-odd's rules finding ("not judged") is said, not flagged
    assert flagged == ["T-low", "PB-1", "T-low", "CSM-WEAK-1"]
    assert "<tr><td>T-fair</td>" in page


def test_html_in_a_dealer_id_is_shown_as_text() -> None:
    page = render_html(report())
    assert DEALER not in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page


def test_the_html_page_plots_each_days_hold_through_the_day_naming_its_tables() -> None:
    page = render_html(report())
    assert page.count("<h3>2026-05-01</h3><svg") == 1
    day = page.split("<h3>2026-05-01</h3>")[1].split("</svg>")[0]
    assert day.count("<polyline") == 2 and ">T-fair: 3.0%</text>" in day and ">T-low: -15.0%</text>" in day
    assert "<h3>2026-05-02</h3>" not in page  # that day's only point has no hold


def test_the_hold_against_its_band_is_plotted_per_table_only_over_more_than_one_day() -> None:
    page = render_html(report())
    assert "Hold on the analysed wagers against its band" in page
    assert page.count("<figure><figcaption>") == 2
    one_day = report(table_days=Result(["table_id", "date", "judged_hold"], [("T-low", "2026-05-01", 0.0)]))
    assert "Hold on the analysed wagers against its band" not in render_html(one_day)


def test_the_html_page_carries_the_play_from_hidden_cards_section_when_tested() -> None:
    assert "<h2>Play from hidden cards</h2>" in render_html(report())
    assert "<h2>Play from hidden cards</h2>" not in render_html(report(advantage=None))


# ---------------------------------------------------------------- a table's hold against its band


def test_a_day_below_its_band_is_a_red_dot_and_a_day_within_it_is_not() -> None:
    svg = hold_plot("T-low", [{"date": "2026-05-01", "judged_hold": -0.15, "expected_hold": 0.03, "band_low": -0.05,
                               "band_high": 0.11},
                              {"date": "2026-05-02", "judged_hold": 0.04, "expected_hold": 0.03, "band_low": -0.05,
                               "band_high": 0.11}])
    dots = re.findall(r"<circle class='(\w+)'[^>]*fill='([^']+)'><title>([^<]+)</title>", svg)
    assert [(c, f, t.split(":")[0]) for c, f, t in dots] == [("flag", "#c00", "2026-05-01"), ("hold", "#036", "2026-05-02")]
    assert "hold on the analysed wagers -15.00%" in dots[0][2]
    assert svg.count("<rect class='band'") == 2 and svg.count("<line ") == 2


def test_a_table_with_no_judged_day_says_it_is_not_judged() -> None:
    svg = hold_plot("T-odd", [{"date": "2026-05-01", "judged_hold": None, "expected_hold": None, "band_low": None,
                               "band_high": None}])
    assert "<figcaption>T-odd: not judged (no game math for its rules)</figcaption>" in svg
    assert "<circle" not in svg and "<rect" not in svg


def test_a_table_id_is_shown_as_text_in_its_plot() -> None:
    svg = hold_plot("<b>'T'</b>", [{"date": "2026-05-01", "judged_hold": 0.02, "expected_hold": 0.03,
                                     "band_low": -0.05, "band_high": 0.11}])
    assert "<b>" not in svg
    assert "<figcaption>&lt;b&gt;&#x27;T&#x27;&lt;/b&gt;</figcaption>" in svg
    assert "aria-label='hold against the band, &lt;b&gt;&#x27;T&#x27;&lt;/b&gt;'" in svg
