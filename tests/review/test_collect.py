"""The garbage collector's pace while a log is read (``tablectl.review.collect``)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from tablectl.review.collect import fewer_collections


@pytest.fixture
def thresholds() -> Iterator[tuple[int, int, int]]:
    before = gc.get_threshold()
    yield before
    gc.set_threshold(*before)


def test_young_collections_are_rarer_during_the_read_and_the_pace_comes_back(thresholds: tuple[int, int, int]) -> None:
    gc.set_threshold(700, 10, 10)
    with fewer_collections(50_000):
        assert gc.get_threshold() == (50_000, 10, 10)
    assert gc.get_threshold() == (700, 10, 10)


def test_the_pace_comes_back_when_the_read_fails(thresholds: tuple[int, int, int]) -> None:
    gc.set_threshold(700, 10, 10)
    with pytest.raises(RuntimeError), fewer_collections(50_000):
        raise RuntimeError("a read that fails")
    assert gc.get_threshold() == (700, 10, 10)


def test_a_collector_turned_off_or_slower_already_is_left_as_it_is(thresholds: tuple[int, int, int]) -> None:
    for pace in ((0, 10, 10), (100_000, 10, 10)):
        gc.set_threshold(*pace)
        with fewer_collections(50_000):
            assert gc.get_threshold() == pace
