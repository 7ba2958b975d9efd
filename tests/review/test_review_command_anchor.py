"""``tablectl review --anchor DIR`` with a folder that is not a dataset: bad input in one line, as
``query`` and ``floor`` say it."""

from __future__ import annotations

from pathlib import Path

from reviewhelpers import review_command as review


def test_an_anchor_folder_that_is_not_a_dataset_is_bad_input_in_one_line(clean_log: tuple[Path, Path], tmp_path: Path) -> None:
    (tmp_path / "notads").mkdir()
    result = review(clean_log[0], "--key", clean_log[1], "--anchor", tmp_path / "notads")
    assert result.exit_code == 2, result.output
    assert result.stderr == f"tablectl: {tmp_path / 'notads'}: not a tablectl surveillance dataset (no _manifests/; " \
                            "make one with tablectl export)\n"
    assert result.stdout == ""
