"""``tablectl math``: JSON shape, readable tables, and one-line errors with exit 2."""

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tablectl.cli import main


def run(*args: str) -> Result:
    return CliRunner().invoke(main, ["math", *args])


def test_json_has_the_documented_shape() -> None:
    result = run("texas-holdem-bonus", "--json", "--quick")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert (data["game"], data["decks"]) == ("texas-holdem-bonus", 1)
    [bet] = data["bets"]
    assert set(bet) >= {"bet", "rules", "outcomes", "combinations", "house_edge"}
    assert set(bet["outcomes"][0]) == {"outcome", "pays", "combinations", "probability", "return"}
    assert sum(o["combinations"] for o in bet["outcomes"]) == bet["combinations"]


def test_house_edge_is_positive_when_the_house_wins() -> None:
    bet = json.loads(run("texas-holdem-bonus", "--json", "--quick").stdout)["bets"][0]
    assert bet["house_edge"] > 0
    assert abs(bet["house_edge"] + sum(o["return"] for o in bet["outcomes"])) < 1e-12


def test_decks_choose_the_shoe() -> None:
    data = json.loads(run("one-card-poker", "--decks", "8", "--json").stdout)
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


def test_quick_leaves_out_the_hold_em_main_game_and_only_it() -> None:
    bets = json.loads(run("texas-holdem-bonus", "--json", "--quick").stdout)["bets"]
    assert [b["bet"] for b in bets] == ["bonus"]


def cached_main_game(cache: Path) -> None:
    """A main-game result in the cache (as the analysis writes it), so the command need not
    spend minutes computing it."""
    from tablectl.gamemath.holdem import strategy as hs
    from tablectl.gamemath.table import OutcomeLine

    deals = 1326 * hs.DEALS_AFTER_HOLE
    results = []
    for variant, folded in (("straight", 60), ("flush", 72)):
        outcomes = (OutcomeLine("win, Ante paid, 2 more bet(s)", Fraction(5), deals // 4),
                    OutcomeLine("fold", Fraction(-1), folded * hs.DEALS_AFTER_HOLE),
                    OutcomeLine("loss, 0 more bet(s)", Fraction(-3), deals - deals // 4 - folded * hs.DEALS_AFTER_HOLE))
        preflop = [{"hand": "72o", "play": False, "ev": -1.2}, {"hand": "AA", "play": True, "ev": 2.1}]
        analysis = hs.MainGameAnalysis(hs.MAIN_BET, {"ante_pays_from": variant, "strategy": "optimal"}, outcomes, (),
                                       Fraction(1, 200), Fraction(38, 10), {"fold": 0.05, "flop_bet": 0.95, "turn_bet": 0.4, "river_bet": 0.5},
                                       preflop, [{"hand": "pair", "share_of_boards": 0.4, "share_bet": 0.75}],
                                       [{"hand": "pair", "share_of_boards": 0.5, "share_bet": 0.6}])
        results.append(hs._to_cache(analysis))
    folder = cache / "tablectl"
    folder.mkdir(parents=True)
    (folder / f"thb-main-{hs._cache_key()}.json").write_text(json.dumps(results), encoding="utf-8")


def test_the_main_game_is_one_entry_per_variant_read_from_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    cached_main_game(tmp_path)
    bets = json.loads(run("texas-holdem-bonus", "--json").stdout)["bets"]
    assert [(b["bet"], b["rules"].get("ante_pays_from")) for b in bets] == [
        ("main game (ante, flop, turn, river)", "straight"), ("main game (ante, flop, turn, river)", "flush"), ("bonus", None)]
    main = bets[0]
    assert {"element_of_risk", "average_total_bet", "decisions", "preflop", "flop_strategy", "turn_strategy"} <= set(main)
    assert main["preflop"][0] == {"hand": "72o", "play": False, "ev": -1.2}


def test_the_readable_main_game_shows_the_starting_hand_chart_and_the_street_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    cached_main_game(tmp_path)
    out = run("texas-holdem-bonus").output
    assert "pre-flop: fold 72o; play everything else" in out
    assert "element of risk 0.5000%" in out
    assert "starting hands" in out and "after the flop: Turn bet" in out


def test_a_strategy_file_for_a_game_without_one_is_a_usage_error() -> None:
    result = run("one-card-poker", "--strategy-file", "x.npz")
    assert result.exit_code == 2 and "only texas-holdem-bonus" in result.output


def test_quick_says_on_stderr_what_it_left_out() -> None:
    done = subprocess.run([sys.executable, "-m", "tablectl", "math", "texas-holdem-bonus", "--quick"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0
    assert done.stderr.count("\n") == 1 and "main game" in done.stderr and "left out" in done.stderr


def test_an_export_to_a_file_neither_parquet_nor_csv_is_a_one_line_error_before_any_solving(tmp_path: Path) -> None:
    result = run("texas-holdem-bonus", "--export-strategy", str(tmp_path / "thb.xlsx"))
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [f"tablectl: --export-strategy {tmp_path / 'thb.xlsx'}: the file name must end in .parquet or .csv"]


def test_an_export_for_a_game_without_a_decision_table_is_a_usage_error() -> None:
    result = run("one-card-poker", "--export-strategy", "x.parquet")
    assert result.exit_code == 2 and "only texas-holdem-bonus" in result.output


def test_an_export_with_quick_is_a_usage_error() -> None:
    result = run("texas-holdem-bonus", "--quick", "--export-strategy", "x.parquet")
    assert result.exit_code == 2 and "leave out --quick" in result.output


def test_the_readable_main_game_prints_the_flop_and_turn_rules_and_how_they_fare(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    cached_main_game(tmp_path)
    stored = next((tmp_path / "tablectl").glob("thb-main-*.json"))
    results = json.loads(stored.read_text(encoding="utf-8"))
    for result in results:
        result["street_rules"] = [
            {"street": "flop", "bet_with": ["any pair of one's own", "four to a flush"], "agreement": 0.9712, "ev_cost": 0.00123,
             "classes": 100, "bet_classes": 40},
            {"street": "turn", "bet_with": ["top pair"], "agreement": 0.95, "ev_cost": 0.002, "classes": 100, "bet_classes": 30},
        ]
    stored.write_text(json.dumps(results), encoding="utf-8")
    out = run("texas-holdem-bonus").output
    assert "flop: bet the Turn (1x) with:" in out and "- four to a flush" in out and "turn: bet the River (1x) with:" in out
    assert "agrees with exact play in 97.12% of flop situations" in out and "costs 0.00123 Antes per flop situation" in out


def test_an_export_into_a_folder_that_does_not_exist_is_a_one_line_error(tmp_path: Path) -> None:
    result = run("texas-holdem-bonus", "--export-strategy", str(tmp_path / "none" / "thb.parquet"))
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1 and "no such folder" in result.output
