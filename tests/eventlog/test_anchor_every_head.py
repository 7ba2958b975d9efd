"""Every head an anchor file knows for a table counts, not only the newest
(``tablectl.eventlog.anchor.check``)."""

from __future__ import annotations

from tablectl.eventlog.anchor import ANCHOR_MISSING, Anchor, check
from tablectl.eventlog.verify import VerifyReport


def anchor(seq: int, head: str) -> Anchor:
    return Anchor("T1", seq, head, None, "shutdown", None, "2026-01-01T00:00:00.000000Z")


def test_a_log_that_lost_an_older_anchored_head_fails_though_it_holds_the_newest() -> None:
    report = VerifyReport(["log.jsonl"], table="T1", first_seq=1, last_seq=300, heads={100: "b" * 64, 300: "c" * 64})
    lost = check(report, [anchor(100, "a" * 64), anchor(300, "c" * 64)])
    assert lost is not None and lost.kind == ANCHOR_MISSING and lost.seq == 100
