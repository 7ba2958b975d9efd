"""The five game definitions: ids, devices, decks, and the house's decisions as named house rules
with their defaults (procedure rules here, settlement rules in ``tablectl.rules.houserules``)."""

from __future__ import annotations

import pytest

from tablectl.games import GAMES, UnknownGame, game
from tablectl.rules.houserules import rules_from_dict

IDS = ["one-card-poker", "three-card-poker", "one-for-the-money", "three-card-poker-florida", "texas-holdem-bonus"]


def test_the_five_games_by_their_config_ids():
    assert list(GAMES) == IDS


def test_an_unknown_id_names_the_known_ones():
    with pytest.raises(UnknownGame, match="one-card-poker"):
        game("baccarat")


@pytest.mark.parametrize(
    ("game_id", "devices", "decks"),
    [
        ("one-card-poker", ("shoe", "csm"), (6,)),
        ("three-card-poker", ("shuffler",), (1,)),
        ("one-for-the-money", ("csm", "shoe"), (6, 8)),
        ("three-card-poker-florida", ("shuffler",), (1,)),
        ("texas-holdem-bonus", ("shuffler", "shoe"), (1,)),
    ],
)
def test_devices_and_decks_per_game(game_id, devices, decks):
    assert (GAMES[game_id].devices, GAMES[game_id].decks) == (devices, decks)


@pytest.mark.parametrize(
    ("game_id", "rule", "default"),
    [
        ("one-card-poker", "dp_card", "last"),
        ("texas-holdem-bonus", "burn_before_community", False),
    ],
)
def test_procedure_decisions_are_house_rules_with_the_games_md_default(game_id, rule, default):
    assert getattr(GAMES[game_id].procedure_rules(), rule) == default


@pytest.mark.parametrize(
    ("game_id", "rule", "default"),
    [
        ("one-card-poker", "dp_declines_war", "push"),
        ("one-card-poker", "tie_pays_without_extension", True),
        ("three-card-poker-florida", "pairplus_tie_below_pair", "lose"),
    ],
)
def test_settlement_decisions_are_house_rules_with_the_games_md_default(game_id, rule, default):
    assert getattr(rules_from_dict(game_id), rule) == default


def test_one_card_poker_burns_after_a_shuffle_and_at_a_dealer_change():
    ocp = GAMES["one-card-poker"]
    rules = ocp.procedure_rules()
    assert (ocp.shuffle_burns(rules), ocp.dealer_change_burns(rules)) == (1, 1)


@pytest.mark.parametrize("game_id", [g for g in IDS if g != "one-card-poker"])
def test_the_other_games_burn_nothing_after_a_shuffle(game_id):
    g = GAMES[game_id]
    rules = g.procedure_rules()
    assert (g.shuffle_burns(rules), g.dealer_change_burns(rules)) == (0, 0)
