"""Limits for every bet: the table config's ``[limits.BET]`` and the defaults of
``tablectl.rules.bets``, refused by ``config check`` where a pay table makes them absurd, and
checked by ``controller.start_round(wagers=)`` with one line naming the bet and its limits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tablectl.config import ConfigError, load_config, parse_config
from tablectl.drivers import events as ev
from tablectl.rules.bets import BetLimit
from tablectl.table.controller import TableController
from tablectl.table.inputs import InputRejected

CONFIGS = Path(__file__).resolve().parents[2] / "config" / "tables"

OCP: dict[str, Any] = {
    "table": "t1", "game": "one-card-poker", "decks": 6, "seats": 7, "min_bet": 5, "max_bet": 500,
    "devices": {"dev": {"driver": "shoe", "address": "/dev/ttyUSB0"}}, "log": {"dir": "/tmp/tablectl-test-logs"},
}  # fmt: skip


def config_error(**changes: Any) -> str:
    with pytest.raises(ConfigError) as info:
        parse_config({**OCP, **changes}, "t.toml")
    return str(info.value)


def test_a_side_bet_has_its_own_default_limits_in_whole_dollars() -> None:
    assert parse_config(OCP, "t.toml").bet_limits["tie"] == BetLimit(100, 10000, 100)


def test_the_primary_bet_takes_the_table_minimum_and_maximum() -> None:
    assert parse_config(OCP, "t.toml").bet_limits["primary"] == BetLimit(500, 50000, 100)


def test_a_side_bet_default_maximum_is_never_above_the_table_maximum() -> None:
    assert parse_config({**OCP, "min_bet": 5, "max_bet": 50}, "t.toml").bet_limits["tie"].maximum == 5000


def test_a_configured_limit_replaces_the_default_key_by_key() -> None:
    limits = parse_config({**OCP, "limits": {"tie": {"max": 50}}}, "t.toml").bet_limits
    assert limits["tie"] == BetLimit(100, 5000, 100)


def test_limits_out_of_step_with_their_unit_are_refused() -> None:
    assert config_error(limits={"tie": {"unit": 5}}) == "t.toml: limits.tie: min and max must be multiples of the unit $5"


def test_a_limit_for_a_bet_the_game_does_not_have_is_refused() -> None:
    assert config_error(limits={"pairplus": {"max": 5}}) == "t.toml: limits.pairplus: no such bet at this table (bets: primary, tie)"


def test_a_minimum_above_the_maximum_is_refused() -> None:
    assert config_error(limits={"tie": {"min": 50, "max": 10}}) == "t.toml: limits.tie: max $10 is below min $50"


def test_a_side_bet_whose_top_payout_exceeds_the_table_max_payout_is_refused() -> None:
    message = config_error(max_payout=10000)  # tie: $100 at 200 to 1 pays $20,000
    assert message == "t.toml: limits.tie: a tie of $100 pays up to $20,000 (200 to 1), beyond max_payout ($10,000)"


def test_without_a_max_payout_no_top_payout_is_refused() -> None:
    assert parse_config({**OCP, "pay_tables": {"tie_wager": {"quad_tie": 100000}}}, "t.toml").bet_limits["tie"].maximum == 10000


def test_a_max_payout_every_bet_keeps_under_is_taken() -> None:
    assert parse_config({**OCP, "max_payout": 20000}, "t.toml").max_payout == 2000000


def test_one_for_the_money_names_its_side_bet_as_the_table_does() -> None:
    shoe, csm = (load_config(CONFIGS / f"one-for-the-money-{d}.toml") for d in ("shoe", "csm"))
    assert shoe.bet_names == {"bonus": "perfect-match"} and csm.bet_names == {"bonus": "three-card-bonus"}


def test_a_limit_is_set_by_the_name_the_table_gives_the_bet() -> None:
    data = {**OCP, "game": "one-for-the-money", "decks": 6, "devices": {"dev": {"driver": "csm", "address": "/dev/x"}},
            "house_rules": {"side_bet": "perfect-match"}, "limits": {"perfect-match": {"max": 10}}}
    assert parse_config(data, "t.toml").bet_limits["bonus"].maximum == 1000


@pytest.mark.parametrize("path", sorted(CONFIGS.glob("*.toml")), ids=lambda p: p.stem)
def test_every_shipped_table_limits_every_bet_it_takes(path: Path) -> None:
    config = load_config(path)
    assert set(config.bet_limits) == set(config.game_def.wagers)


# --- the controller ------------------------------------------------------------------------------


@pytest.fixture
def ocp_controller(memory_log):  # type: ignore[no-untyped-def]
    controller = TableController(parse_config(OCP, "t.toml"), memory_log())
    controller.attach("dev", type("Driver", (), {"persisted": lambda self, n: None})())
    controller.start()
    controller.sink("dev", ev.ShoeLoaded(1, 1, 6, 312))
    controller.dealer_change("D-01").result(5)
    controller.offer_bank(1).result(5)
    yield controller
    controller.stop()


def test_start_round_refuses_a_side_bet_over_its_limit_in_one_line(ocp_controller: TableController) -> None:
    with pytest.raises(InputRejected) as info:
        ocp_controller.start_round([2], {2: {"primary": 2500, "tie": 60000}}).result(5)
    assert str(info.value) == "seat 2: tie: $600 is outside the limits $1-$100"


def test_start_round_refuses_a_side_bet_in_cents(ocp_controller: TableController) -> None:
    with pytest.raises(InputRejected, match=r"^seat 2: tie: \$0.01 is outside the limits \$1-\$100$"):
        ocp_controller.start_round([2], {2: {"primary": 2500, "tie": 1}}).result(5)


def test_start_round_takes_a_side_bet_within_its_limit(ocp_controller: TableController) -> None:
    ocp_controller.start_round([2], {2: {"primary": 2500, "tie": 10000}}).result(5)
    assert ocp_controller.snapshot().state == "in_round"
