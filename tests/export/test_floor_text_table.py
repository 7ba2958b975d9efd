"""The floor report's plain-text tables (``analytics.floor.text_table.fit``), from plain cells: the
columns that fit a width, by rank; a number never split; only free text wraps."""

from __future__ import annotations

from tablectl.analytics.floor.text_table import Column, fit

ID = Column("table")
MONEY = Column("win $", numeric=True, rank=1)


def test_without_a_width_every_column_is_shown_whole() -> None:
    cols = [ID, MONEY, Column("detail", wraps=True, rank=4)]
    out = fit(cols, [["T-1", "1,234", "a long free text that would wrap at a narrow width"]], [False], None)
    assert out.left_out == []
    assert out.lines[0].split() == ["table", "win", "$", "detail"]
    assert out.lines[2] == "  T-1    1,234  a long free text that would wrap at a narrow width"


def test_a_number_that_does_not_fit_is_left_out_never_split() -> None:
    out = fit([ID, MONEY], [["T-1", "1,234,567,890"]], [False], 14)
    assert out.left_out == ["win $"]
    assert all("1,234" not in line for line in out.lines)
    assert all(len(line) <= 14 for line in out.lines)


def test_the_first_column_is_shown_even_when_nothing_else_fits() -> None:
    out = fit([Column("player id"), MONEY], [["a-very-long-player-id-0001", "5"]], [False], 10)
    assert out.left_out == ["win $"]
    assert out.lines[-1] == "  a-very-long-player-id-0001"


def test_columns_are_taken_by_rank_and_shown_in_their_own_order() -> None:
    cols = [ID, Column("handle $", numeric=True, rank=2), Column("z", numeric=True, rank=1)]
    rows = [["T-1", "10,000", "-4.20"]]
    narrow = fit(cols, rows, [False], 16)  # room for the table and one more column: the rank 1 one
    assert narrow.left_out == ["handle $"]
    assert narrow.lines[-1].split() == ["T-1", "-4.20"]
    wide = fit(cols, rows, [False], 80)
    assert wide.left_out == [] and wide.lines[-1].split() == ["T-1", "10,000", "-4.20"]


def test_numbers_are_right_aligned_and_text_left_aligned_under_their_headings() -> None:
    out = fit([ID, MONEY], [["T-1", "5"], ["T-22", "1,250"]], [False, False], 80)
    assert out.lines == ["  table  win $",
                         "  -----  -----",
                         "  T-1        5",
                         "  T-22   1,250"]


def test_a_flagged_row_starts_with_the_mark() -> None:
    out = fit([ID, MONEY], [["T-1", "-600"], ["T-2", "90"]], [True, False], 80)
    assert out.lines[2].startswith("! T-1") and out.lines[3].startswith("  T-2")


def test_free_text_wraps_at_spaces_within_the_width_and_the_other_cells_stay_on_the_first_line() -> None:
    detail = "house rule dp_declines_war = 'player-wins' (the math has the DP go to war on every tie): not modelled"
    out = fit([ID, Column("detail", wraps=True, rank=1), MONEY], [["T-1", detail, "-600"]], [True], 60)
    body = out.lines[separator(out.lines) + 1:]
    assert len(body) > 1 and all(len(line) <= 60 for line in out.lines)
    assert body[0].startswith("! T-1") and body[0].endswith("-600")
    assert all("T-1" not in line and "-600" not in line for line in body[1:])
    assert " ".join(line[7:].strip() for line in body).replace("-600", "").split() == detail.split()  # no word lost or cut


def test_a_long_heading_wraps_at_spaces_and_sits_over_its_cells() -> None:
    out = fit([ID, Column("expected player net $", numeric=True, rank=1)], [["T-1", "12"]], [False], 18)
    heading = out.lines[:separator(out.lines)]
    assert len(heading) > 1 and all(len(line) <= 18 for line in out.lines)
    assert heading[-1].split()[0] == "table"  # the short heading on the last heading line, next to the cells
    assert " ".join(w for line in heading for w in line.split() if w != "table") == "expected player net $"
    right = len(out.lines[-1])  # the number's last character: each heading line of its column ends there too
    assert out.lines[-1].endswith("12") and all(len(line) == right for line in heading)


def separator(lines: list[str]) -> int:
    """The index of the line of dashes under the headings."""
    return next(i for i, line in enumerate(lines) if set(line.strip()) == {"-", " "} or set(line.strip()) == {"-"})
