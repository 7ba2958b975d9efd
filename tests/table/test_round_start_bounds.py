"""A round start is checked whole before anything of the round is taken: the bank's stake is bounded
by what the bank could ever pay at the table's limits (``tablectl.table.procedure.cover.bank_stake_limit``), a
wager by its bet's limits, and either refused as bad input is (``input_rejected`` on the real log,
whatever the number typed); a ``round_started`` line the log refuses leaves no round taken. The
next round after any of these is round 1."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from tablehelpers import make_config

from tablectl.drivers import events as ev
from tablectl.eventlog import EventLog
from tablectl.eventlog import writer as writer_module
from tablectl.rules.bets import money
from tablectl.rules.settle import max_bank_pay
from tablectl.table import lifecycle as lc
from tablectl.table.core import TableCore
from tablectl.table.inputs import DealerChange, InputRejected, OfferBank, StartRound

ANTE = {1: {"ante": 500}}


def tcp_ready(tmp_path: Path) -> tuple[TableCore, EventLog]:
    """Player-banked Three Card Poker on the real event log: shuffled, seat 7 banks, nothing dealt."""
    config = make_config("three-card-poker", tmp=tmp_path, house_rules={"limit_to_banker_stake": True})
    log = EventLog(tmp_path, config.table, signing_key=None, fsync=False)
    core = TableCore(config, log)
    core.go_online({"dev": 0}, None)
    core.handle_input(DealerChange("D-01"))
    core.handle_event("dev", ev.ShuffleStarted(1, 1))
    core.handle_event("dev", ev.ShuffleDone(2, 1, 1, 52))
    core.handle_input(OfferBank(7))
    log.commit()
    return core, log


def most_the_bank_could_pay(core: TableCore) -> int:
    """What the bank could pay on six seats (the seventh banks), every bet at its maximum."""
    config = core.config
    full = [{bet: limit.maximum for bet, limit in config.bet_limits.items()}] * 6
    most = max_bank_pay(config.game, full, config.settlement_rules)
    assert most is not None
    return most


def logged(core: TableCore, log: EventLog, event: str) -> list[dict[str, Any]]:
    log.commit()
    return [line for line in core.recent if line["event"] == event]


def refused(core: TableCore, inp: StartRound) -> str:
    with pytest.raises(InputRejected) as info:
        core.handle_input(inp)
    return str(info.value)


def test_a_20_digit_bank_stake_is_refused_with_the_most_the_bank_could_pay_and_round_1_follows(tmp_path: Path) -> None:
    core, log = tcp_ready(tmp_path)
    most = most_the_bank_could_pay(core)
    stake = int("9" * 20) * 100
    assert refused(core, StartRound((1,), ANTE, banker_stake=stake)) == (
        f"the bank's stake: $99,999,999,999,999,999,999 is outside the limits $0.01-{money(most)}"
    )
    rejected = logged(core, log, "input_rejected")[-1]
    assert rejected["banker_stake"] == str(stake) and rejected["reason"].startswith("the bank's stake:")
    assert (core.state, core.in_round, core.round_no) == (lc.READY, False, 0)
    core.handle_input(StartRound((1,), ANTE, banker_stake=50000))
    assert [line["round"] for line in logged(core, log, "round_started")] == [1]


def test_a_stake_of_what_the_bank_could_pay_at_the_limits_is_taken_and_a_cent_more_is_not(tmp_path: Path) -> None:
    core, log = tcp_ready(tmp_path)
    most = most_the_bank_could_pay(core)
    assert "is outside the limits" in refused(core, StartRound((1,), ANTE, banker_stake=most + 1))
    core.handle_input(StartRound((1,), ANTE, banker_stake=most))
    assert logged(core, log, "round_started")[-1]["banker_stake"] == most


def test_a_wager_beyond_64_bits_is_refused_naming_its_limits_and_logged_as_rejected(tmp_path: Path) -> None:
    core, log = tcp_ready(tmp_path)
    wager = 10**30
    assert refused(core, StartRound((1,), {1: {"ante": wager}}, banker_stake=50000)) == (
        f"seat 1: ante: {money(wager)} is outside the limits $5-$500"
    )
    assert logged(core, log, "input_rejected")[-1]["wagers"] == {"1": {"ante": str(wager)}}
    core.handle_input(StartRound((1,), ANTE, banker_stake=50000))
    assert [line["round"] for line in logged(core, log, "round_started")] == [1]


def test_a_round_started_line_the_log_refuses_leaves_no_round_taken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    core, log = tcp_ready(tmp_path)
    before = core.view()

    def refuse_round_started(line: dict[str, Any]) -> bytes:
        if line["event"] == "round_started":
            raise TypeError("Integer exceeds 64-bit range")
        return orjson.dumps(line)

    monkeypatch.setattr(writer_module, "_dumps", refuse_round_started)
    with pytest.raises(TypeError):
        core.handle_input(StartRound((1,), ANTE, banker_stake=50000))
    monkeypatch.undo()
    after = core.view()
    assert (after.state, after.round, after.banker_stake, core.round_no) == (lc.READY, before.round, None, 0)
    assert [s.seat for s in after.seats if s.in_play] == []
    core.handle_input(StartRound((1,), ANTE, banker_stake=50000))
    assert [line["round"] for line in logged(core, log, "round_started")] == [1]
    assert core.view().round == 1
