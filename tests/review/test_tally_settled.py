"""The review's count of settled rounds, over which it states the players' net: a round voided
after its settlement returned every wager, so it is not one of them."""

from __future__ import annotations

from tablectl.review.model import COMPLETE, VOIDED, RoundRecord
from tablectl.review.tally import RoundTally


def settled_round(number: int, net: int, status: str) -> RoundRecord:
    return RoundRecord(session=1, number=number, start_seq=number * 10, start_ts="2026-01-01T00:00:00Z", seats=[1],
                       wagers=None, banker=None, banker_stake=None, shoe=1, dealer="dee", status=status,
                       settled=[(1, "primary", 1000, "win" if net > 0 else "lose", "1:1", net)])


def test_a_round_voided_after_its_settlement_is_not_counted_as_settled() -> None:
    tally = RoundTally()
    tally.add(settled_round(1, 1000, COMPLETE))
    tally.add(settled_round(2, -1000, VOIDED))
    assert (tally.rounds, tally.settled, tally.net) == (2, 1, 1000)
