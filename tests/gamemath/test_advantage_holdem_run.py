"""The resumable full-deck count of Texas Hold'em Bonus's hole-card figures, run on a small deck
into a temporary cache directory (real files, fsynced), and its place in ``tablectl math``."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tablectl.cards import cards
from tablectl.cli import main
from tablectl.gamemath.advantage import holdem as adv
from tablectl.gamemath.advantage import holdem_run as run

DECK = cards("9S TS TH JS JH QS QH KS KH AS AH")


def test_a_count_stopped_part_way_goes_on_from_the_hands_kept(tmp_path: Path) -> None:
    assert run.count(cache=tmp_path, deck=DECK, limit=100) == []
    assert len(run.results_path(cache=tmp_path).read_text().splitlines()) == 100
    counted: list[int] = []
    figures = run.count(cache=tmp_path, deck=DECK, progress=lambda done, of, this_run: counted.append(this_run))
    assert len(counted) == len(adv.units(DECK)) - 100
    assert figures == adv.figures(DECK)


def test_a_count_in_two_processes_keeps_every_hand_and_gives_the_same_figures(tmp_path: Path) -> None:
    figures = run.count(cache=tmp_path, deck=DECK, workers=2)
    assert len(run.read_results(run.results_path(cache=tmp_path))) == len(adv.units(DECK))
    assert figures == adv.figures(DECK)


def test_workers_without_advantage_is_a_usage_error() -> None:
    result = CliRunner().invoke(main, ["math", "texas-holdem-bonus", "--quick", "--workers", "2"])
    assert result.exit_code == 2 and "--workers: only with --advantage" in result.output


def test_a_torn_last_line_is_counted_again(tmp_path: Path) -> None:
    run.count(cache=tmp_path, deck=DECK, limit=3)
    path = run.results_path(cache=tmp_path)
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) - 20])  # the third line cut short, as by a crash mid-write
    assert len(run.read_results(path)) == 2
    assert run.count(cache=tmp_path, deck=DECK) == adv.figures(DECK)


def test_math_shows_the_hole_card_figures_once_a_count_has_finished(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    before = CliRunner().invoke(main, ["math", "texas-holdem-bonus", "--quick", "--json"])
    assert "advantage" not in json.loads(before.stdout)
    run.count(deck=DECK)  # a finished count, on a small deck to keep the test short
    after = CliRunner().invoke(main, ["math", "texas-holdem-bonus", "--quick", "--json"])
    shown = {f["information"]: f["player_edge_exact"] for f in json.loads(after.stdout)["advantage"]}
    assert shown == {f.information: str(f.player_edge) for f in adv.figures(DECK)}


def test_advantage_option_on_another_game_is_a_usage_error() -> None:
    result = CliRunner().invoke(main, ["math", "one-card-poker", "--advantage"])
    assert result.exit_code == 2
    assert "--advantage" in result.stderr


def test_progress_line_gives_units_done_and_the_time_left_at_this_runs_pace() -> None:
    line = run.describe(done=1_100, of=98_852, this_run=100, elapsed=50.0)
    assert line == "dealer hole cards seen: 1,100/98,852 hands counted (1%), 0.50 s each, ETA 13:34:36"
