"""The advantage-play cache: counted once per machine, read back exactly, damaged files recounted."""

from pathlib import Path

from tablectl.cards import cards
from tablectl.gamemath.advantage import cache as advantage_cache
from tablectl.gamemath.advantage import threecard as adv
from tablectl.gamemath.advantage.figure import AdvantageFigure

DECK = cards("AS AH KS KH QS QD 2S 2H 3S 6D")


class Counting:
    """A small deck's figures, counting how often they are computed."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> list[AdvantageFigure]:
        self.calls += 1
        return adv.ante_play(DECK)


def test_figures_are_computed_once_then_read_back_equal(tmp_path: Path) -> None:
    compute = Counting()
    first = advantage_cache.load_or_compute("tcp", "5/4/1", compute, tmp_path)
    second = advantage_cache.load_or_compute("tcp", "5/4/1", compute, tmp_path)
    assert compute.calls == 1
    assert second == first


def test_a_different_pay_table_is_not_read_from_anothers_cache(tmp_path: Path) -> None:
    compute = Counting()
    advantage_cache.load_or_compute("tcp", "5/4/1", compute, tmp_path)
    advantage_cache.load_or_compute("tcp", "none", compute, tmp_path)
    assert compute.calls == 2


def test_a_damaged_cache_file_is_counted_again_and_replaced(tmp_path: Path) -> None:
    compute = Counting()
    expected = advantage_cache.load_or_compute("tcp", "5/4/1", compute, tmp_path)
    advantage_cache.path_for("tcp", "5/4/1", tmp_path).write_text('[{"kind": ', encoding="utf-8")
    assert advantage_cache.load_or_compute("tcp", "5/4/1", compute, tmp_path) == expected
    assert advantage_cache.load_or_compute("tcp", "5/4/1", compute, tmp_path) == expected
    assert compute.calls == 2
