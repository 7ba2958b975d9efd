"""A banking player's coverage limit (``tablectl.rules.coverage``)."""

from __future__ import annotations

from tablectl.rounds import BetResult
from tablectl.rules.coverage import Cover, cover


def test_no_banker_stake_is_no_cover_to_apply() -> None:
    assert cover(None) is None and cover(None, losses_extend=True) is None


def test_a_banker_stake_is_a_cover_that_pays_what_is_left() -> None:
    limit = cover(150)
    assert isinstance(limit, Cover)
    assert limit.apply(BetResult(1, "ante", 100, "win", "1:1", 100)).net == 100
    assert limit.apply(BetResult(2, "ante", 100, "win", "1:1", 100)) == BetResult(2, "ante", 100, "win-capped", "1:1", 50)
    assert limit.apply(BetResult(3, "ante", 100, "win", "1:1", 100)) == BetResult(3, "ante", 100, "no-action", "", 0)


def test_without_a_limit_a_result_stands_as_computed() -> None:
    result = BetResult(1, "ante", 100, "win", "1:1", 100)
    assert Cover(None).apply(result) is result
