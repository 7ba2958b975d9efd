"""``tablectl math GAME``: the advantage-play section after today's figures, readable and JSON."""

import json
from fractions import Fraction

from click.testing import CliRunner, Result

from tablectl.cli import main
from tablectl.gamemath.advantage import one_card_poker as advantage_one_card_poker


def run(*args: str) -> Result:
    return CliRunner().invoke(main, ["math", *args])


def test_json_lists_each_advantage_figure_with_its_exact_edge() -> None:
    result = run("one-card-poker", "--json")
    assert result.exit_code == 0
    [figure] = json.loads(result.stdout)["advantage"]
    assert figure["information"] == "the DP's first war card seen before the tie decision"
    expected = advantage_one_card_poker.war_card_seen(decks=6).player_edge
    assert Fraction(figure["player_edge_exact"]) == expected
    assert figure["strategy"]


def test_readable_output_prints_the_advantage_section_after_the_bets() -> None:
    result = run("one-for-the-money", "--decks", "1")
    assert result.exit_code == 0
    out = result.output
    assert out.index("house edge") < out.index("advantage play") < out.index("one of the dealer's two cards seen")
    assert "player edge +13.0253%" in out
    assert "the dealer shows A: check with 2-A" in out


def test_quick_leaves_out_three_card_pokers_advantage_figures_and_says_so() -> None:
    result = run("three-card-poker-florida", "--quick", "--json")
    assert result.exit_code == 0
    assert "advantage" not in json.loads(result.stdout)
    assert "advantage-play figures left out" in result.stderr
