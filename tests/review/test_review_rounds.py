"""Round reconstruction: every round of a real controller's log is rebuilt — cards by position,
decisions — walked through the game's deal script and settled again with the rules engine, and
the result is compared with what the controller logged.

The logs come from ``tablectl run CONFIG --simulate --headless --autoplay N`` (the real
controller, drivers and simulators, and the virtual dealer), with the shipped table configs.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
import pytest
from click.testing import CliRunner

from tablectl.cli import main
from tablectl.config import load_config
from tablectl.eventlog import EventLog, generate_key, iter_events, save_keypair
from tablectl.review.engine import TableSetup, review

if TYPE_CHECKING:
    from reviewhelpers import RunTable, WriteConfig

GAME_TABLES = {
    "one-card-poker": "one-card-poker.toml",
    "three-card-poker": "three-card-poker.toml",
    "one-for-the-money": "one-for-the-money-shoe.toml",
    "one-for-the-money-csm": "one-for-the-money-csm.toml",
    "three-card-poker-florida": "three-card-poker-florida.toml",
    "texas-holdem-bonus": "texas-holdem-bonus.toml",
}


@pytest.fixture(scope="module", params=sorted(GAME_TABLES))
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, write_config: WriteConfig,
           run_table: RunTable) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp(request.param)
    config, _ = write_config(tmp, GAME_TABLES[request.param])
    run_table(config, tmp / "log", 40, seed=7, mistakes=0.1)
    return tmp / "log", config


def test_every_completed_round_is_settled_again_by_the_rules_engine_exactly_as_logged(played: tuple[Path, Path]) -> None:
    log, config = played
    report = review([log], setup=TableSetup.from_config(load_config(config), "config"))
    assert report.ok and len(report.rounds) == 40
    checks = Counter(r.settlement for r in report.rounds)
    completed = [r for r in report.rounds if r.status == "complete"]
    assert checks["match"] == len(completed) > 30
    assert set(checks) <= {"match", "not_settled"}  # not settled: the voided rounds
    assert all(r.recomputed == r.logged for r in completed)


def test_each_round_s_cards_are_placed_where_the_log_dealt_them(played: tuple[Path, Path]) -> None:
    log, _ = played
    report = review([log])
    dealt: dict[int, Counter[tuple[str, str]]] = {}
    for rec in iter_events([log]):
        if rec["event"] == "dealt" and rec.get("round") is not None:
            dealt.setdefault(rec["round"], Counter())[(rec["to"], rec["card"])] += 1
        elif rec["event"] in ("corrected", "traded"):  # a card taken back from its position
            dealt[rec["round"]][(rec["from"], rec["card"])] -= 1
    for rnd in report.rounds:
        rebuilt = Counter((pos, c) for pos, cards in rnd.positions.items() for c in cards)
        assert rebuilt == +dealt.get(rnd.number, Counter()), rnd.id


@pytest.fixture(scope="module")
def one_for_the_money(tmp_path_factory: pytest.TempPathFactory, write_config: WriteConfig, run_table: RunTable) -> Path:
    """One for the Money with the default house rules (so the log can be reviewed without them)."""
    tmp = tmp_path_factory.mktemp("oftm")
    config, _ = write_config(tmp, "one-for-the-money-shoe.toml", drop=("house_rules", "pay_tables"))
    run_table(config, tmp / "log", 40, seed=3)
    return tmp / "log"


def test_a_traded_card_leaves_the_seat_for_the_discards_and_its_replacement_takes_its_place(one_for_the_money: Path) -> None:
    traded: dict[int, list[str]] = {}
    for rec in iter_events([one_for_the_money]):
        if rec["event"] == "traded":
            traded.setdefault(rec["round"], []).append(rec["card"])
    assert traded
    rounds = {r.number: r for r in review([one_for_the_money]).rounds}
    for number, gone in traded.items():
        rnd = rounds[number]
        assert all(len(cards) == 1 for pos, cards in rnd.positions.items() if pos.startswith("seat:")), rnd.positions
        assert set(gone) <= set(rnd.discards)
        assert rnd.settlement == "match"


def _rewrite(src: Path, dst: Path, change) -> Path:  # type: ignore[no-untyped-def]
    """The same events written again by the real writer (a verifying log), one changed by *change*."""
    key = generate_key()
    pub = save_keypair(dst / "keys", key).public
    with EventLog(dst / "log", "T1", signing_key=key, rotate="never") as log:
        changed = False
        for rec in iter_events([src]):
            if rec["event"] in ("log_opened", "recovery", "checkpoint", "rotated"):
                continue
            fields = {k: v for k, v in rec.items() if k not in ("seq", "event", "ts", "table", "prev", "sig")}
            if not changed:
                changed = change(rec["event"], fields)
            log.append(rec["event"], **fields)
        log.commit()
    assert changed
    return pub


def test_a_logged_settlement_the_rules_engine_does_not_give_is_a_settlement_mismatch(one_for_the_money: Path, tmp_path: Path) -> None:
    def pay_one_more_dollar(event: str, fields: dict[str, Any]) -> bool:
        if event == "settled" and fields["round"] == 5:
            fields["net"] += 100
            return True
        return False

    _rewrite(one_for_the_money, tmp_path, pay_one_more_dollar)
    report = review([tmp_path / "log"])
    assert report.ok
    mismatches = [a for a in report.anomalies if a.kind == "settlement_mismatch"]
    assert [a.round for a in mismatches] == ["5"]
    assert "logged" in mismatches[0].detail and "recomputed" in mismatches[0].detail


def test_a_settled_line_without_its_payout_is_an_integrity_failure_at_its_line_not_a_crash(one_for_the_money: Path, tmp_path: Path) -> None:
    def drop_the_first_pays(event: str, fields: dict[str, Any]) -> bool:
        if event == "settled" and fields["round"] == 5:
            del fields["pays"]
            return True
        return False

    _rewrite(one_for_the_money, tmp_path, drop_the_first_pays)
    report = review([tmp_path / "log"])
    assert not report.ok
    (finding,) = [f for f in report.verification.findings if "pays" in str(f)]
    assert finding.integrity and finding.line is not None and "settled" in str(finding)


def test_a_card_logged_to_a_position_the_procedure_does_not_deal_it_to_is_a_procedure_mismatch(one_for_the_money: Path, tmp_path: Path) -> None:
    def deal_the_dealer_card_to_a_seat(event: str, fields: dict[str, Any]) -> bool:
        if event == "dealt" and fields["round"] == 7 and fields["to"] == "dealer":
            fields["to"] = "seat:1"
            return True
        return False

    _rewrite(one_for_the_money, tmp_path, deal_the_dealer_card_to_a_seat)
    report = review([tmp_path / "log"])
    found = [a for a in report.anomalies if a.kind == "procedure_mismatch"]
    assert [a.round for a in found] == ["7"] and "procedure puts it to dealer" in found[0].detail


@pytest.fixture(scope="module")
def paid_five_to_one(tmp_path_factory: pytest.TempPathFactory, write_config: WriteConfig,
                     run_table: RunTable) -> tuple[Path, Path]:
    """One Card Poker with Any Tie paying 5:1 instead of the default 4:1."""
    tmp = tmp_path_factory.mktemp("ocp-tie")
    config, _ = write_config(tmp, "one-card-poker.toml", pay_tables={"tie_wager": {"any_tie": 5}})
    run_table(config, tmp / "log", 150, seed=5)
    return tmp / "log", config


def test_house_rules_logged_at_table_start_are_the_ones_review_settles_with(paid_five_to_one: tuple[Path, Path]) -> None:
    log, _ = paid_five_to_one
    report = review([log])
    assert report.rules[0].source == "log"
    ties = [r for r in report.rounds if any(s["outcome"] == "any-tie" for s in r.logged)]
    assert ties and all(r.settlement == "match" for r in ties)  # Any Tie paid 5:1, not the default 4:1


def test_the_rules_in_the_log_win_over_a_config_given_to_review(paid_five_to_one: tuple[Path, Path]) -> None:
    log, config = paid_five_to_one
    result = CliRunner().invoke(main, ["review", str(log), "--config", str(config), "--json"])
    report = orjson.loads(result.stdout)
    assert report["rules"] == [{"game": "one-card-poker", "source": "log"}]
    assert {r["settlement"] for r in report["rounds"]} == {"match"}
