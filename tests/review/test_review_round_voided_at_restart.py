"""A round the controller could not take over at its restart (a hand-forming shuffler's round in
play at the stop) is voided by the new session's start (``round_voided``, reason
``not_resumed``): review reports it voided, not interrupted."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from tablectl.review.engine import review

if TYPE_CHECKING:
    from reviewhelpers import TableLog


def test_a_round_voided_by_the_next_start_is_reported_voided_not_interrupted(tmp_path: Path, table_log: TableLog) -> None:
    t = table_log
    t.shoe()
    t.round(1)
    t.log.append("round_started", round=2, seats=[2], wagers={"2": {"primary": 1000}}, banker=1, banker_stake=100000,
                 shoe=1, dealer="D-01", last_round=False)
    t.card("dealt", "9S", "seat:2", 2)
    t.log.append("table_stopped", reason="sigterm")
    t.close()
    t.open()
    t.log.append("shoe_not_resumed", shoe=1, reason="round 2 in play is void, every wager returned")
    t.log.append("round_voided", round=2, reason="not_resumed", returned={"2": {"primary": 1000}})
    t.round(3)
    t.close()
    report = review([tmp_path], [t.key.public_key()])
    assert [(r.number, r.status) for r in report.rounds] == [(1, "complete"), (2, "voided"), (3, "complete")]
    assert [a.kind for a in report.anomalies] == ["round_voided"]
