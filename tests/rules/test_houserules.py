"""House rules and pay tables from config dicts; the house's decisions and the published pay
tables as defaults."""

import pytest

from tablectl.rules.configure import RulesConfigError
from tablectl.rules.houserules import (
    FloridaRules,
    OneCardPokerRules,
    TexasHoldemBonusRules,
    rules_from_dict,
)
from tablectl.rules.paytables import ThreeCardBonusTable


def test_house_decisions_are_the_defaults() -> None:
    assert OneCardPokerRules().dp_declines_war == "push"
    assert OneCardPokerRules().tie_pays_without_extension is True
    assert FloridaRules().pairplus_tie_below_pair == "lose"


def test_published_pay_tables_are_the_defaults() -> None:
    assert OneCardPokerRules().tie_wager.describe() == "200/150/50/25/10/4"
    assert FloridaRules().pairplus.describe() == "200/40/30/4/3/2"
    assert TexasHoldemBonusRules().ante_pays_from == "straight"


def test_a_setting_changes_only_itself() -> None:
    rules = rules_from_dict("three-card-poker-florida", {"pairplus_tie_below_pair": "push"})
    assert rules == FloridaRules(pairplus_tie_below_pair="push")


def test_a_pay_table_line_can_be_replaced_alone() -> None:
    rules = rules_from_dict("three-card-poker", {"pairplus": {"flush": 3}})
    assert rules.pairplus.describe() == "40/30/6/3/1"


def test_a_pay_table_preset_can_be_named() -> None:
    rules = rules_from_dict("one-for-the-money", {"three-card-bonus": "2"})
    assert rules.three_card_bonus == ThreeCardBonusTable(9, 9, 9, 9)


def test_an_unknown_setting_is_an_error_naming_it() -> None:
    with pytest.raises(RulesConfigError, match="pairplus.flsh"):
        rules_from_dict("three-card-poker", {"pairplus": {"flsh": 3}})


def test_a_choice_outside_its_options_is_an_error() -> None:
    with pytest.raises(RulesConfigError, match="dp_declines_war"):
        rules_from_dict("one-card-poker", {"dp_declines_war": "surrender"})


def test_a_pay_must_be_a_whole_number() -> None:
    with pytest.raises(RulesConfigError, match="any_tie"):
        rules_from_dict("one-card-poker", {"tie_wager": {"any_tie": "four"}})


def test_a_flag_must_be_true_or_false() -> None:
    with pytest.raises(RulesConfigError):
        rules_from_dict("texas-holdem-bonus", {"fold_forfeits_bonus": "yes"})


def test_an_unknown_game_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        rules_from_dict("baccarat")
