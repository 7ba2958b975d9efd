"""``tablectl math``: JSON shape, readable tables, and one-line errors with exit 2."""

import json

from click.testing import CliRunner, Result

from tablectl.cli import main


def run(*args: str) -> Result:
    return CliRunner().invoke(main, ["math", *args])


def test_json_has_the_documented_shape() -> None:
    result = run("texas-holdem-bonus", "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert (data["game"], data["decks"]) == ("texas-holdem-bonus", 1)
    [bet] = data["bets"]
    assert set(bet) >= {"bet", "rules", "outcomes", "combinations", "house_edge"}
    assert set(bet["outcomes"][0]) == {"outcome", "pays", "combinations", "probability", "return"}
    assert sum(o["combinations"] for o in bet["outcomes"]) == bet["combinations"]


def test_house_edge_is_positive_when_the_house_wins() -> None:
    bet = json.loads(run("texas-holdem-bonus", "--json").output)["bets"][0]
    assert bet["house_edge"] > 0
    assert abs(bet["house_edge"] + sum(o["return"] for o in bet["outcomes"])) < 1e-12


def test_decks_choose_the_shoe() -> None:
    data = json.loads(run("one-card-poker", "--decks", "8", "--json").output)
    assert data["decks"] == 8


def test_readable_output_prints_the_strategy_it_found() -> None:
    result = run("one-for-the-money", "--decks", "8")
    assert result.exit_code == 0
    assert "strategy:" in result.output
    assert "house edge" in result.output


def test_an_unknown_game_is_a_one_line_error_with_exit_two() -> None:
    result = run("baccarat")
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "tablectl: unknown game 'baccarat' (expected one of: one-card-poker, three-card-poker, "
        "one-for-the-money, three-card-poker-florida, texas-holdem-bonus)"
    ]


def test_decks_out_of_range_are_a_one_line_error_with_exit_two() -> None:
    result = run("three-card-poker", "--decks", "6")
    assert result.exit_code == 2
    assert "tablectl: three-card-poker is dealt from 1 deck(s), not 6" in result.output
