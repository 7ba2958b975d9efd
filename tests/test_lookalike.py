"""Ids a person reads as the same are grouped: case, dashes, Unicode forms (NFKC) and Unicode's
confusables skeleton (UTS #39, ICU's), so a Cyrillic or Greek letter in place of a Latin one or a
digit is caught; ids that only share letters that look alike in another case are not."""

from __future__ import annotations

import pytest

from tablectl.lookalike import lookalikes


@pytest.mark.parametrize("other", ["D-13", "d-13", "D\u201113", "D\uff0d13"], ids=["same", "case", "nb-hyphen", "fullwidth"])
def test_the_folding_of_case_dashes_and_unicode_forms_is_kept(other: str) -> None:
    assert lookalikes(["D-13", other]) == ([] if other == "D-13" else [sorted(["D-13", other])])


def test_a_cyrillic_ze_for_a_three_is_caught() -> None:
    assert lookalikes(["D-13", "D-1\u0417"]) == [["D-13", "D-1\u0417"]]


def test_a_greek_capital_beta_for_a_b_is_caught() -> None:
    assert lookalikes(["B-13", "\u0392-13"]) == [["B-13", "\u0392-13"]]


def test_a_cyrillic_ze_for_a_three_is_caught_whatever_the_case_of_the_rest() -> None:
    assert lookalikes(["d-13", "D-1\u0417"]) == [sorted(["d-13", "D-1\u0417"])]


def test_a_cyrillic_letter_for_a_latin_one_is_caught() -> None:
    assert lookalikes(["DEALER-7", "D\u0415ALER-7"]) == [sorted(["DEALER-7", "D\u0415ALER-7"])]  # Cyrillic Ie


def test_groups_are_whole_when_names_look_alike_in_different_ways() -> None:
    names = ["D-13", "d-13", "D-1\u0417"]
    assert lookalikes(names) == [sorted(names)]


@pytest.mark.parametrize("pair", [("D-13", "D-14"), ("Dl-1", "Di-1"), ("DL-1", "di-1")])
def test_ids_that_differ_to_the_eye_are_not_grouped(pair: tuple[str, str]) -> None:
    assert lookalikes(pair) == []
