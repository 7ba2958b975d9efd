"""Simulated players' profiles: what each sees and how it chooses (pure), and end to end: a table
run with a hole-carding seat whose logged decisions, replayed, are the hole-card strategy's."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from tablectl.cards import card, cards
from tablectl.cli import main
from tablectl.gamemath.decisions.sight import DecisionValues
from tablectl.gamemath.decisions.value import Sight, decision_values
from tablectl.gamemath.three_card_poker import raises
from tablectl.rules.hand3 import value3
from tablectl.table.simulated.profiles import Profile, ProfileError, choose, parse_profile, sight_for
from tablectl.table.simulated.truth import read_truth

ROOT = Path(__file__).resolve().parents[2]


def test_a_hole_carder_sees_the_named_dealer_card_only_in_its_rounds() -> None:
    dealer = cards("KS 4D 9H")
    p = parse_profile("2:hole-card#2@0.5", seats=7)
    assert (p.seat, p.card, p.share) == (2, 1, 0.5)
    seen = sight_for(p, own=cards("QC 6D 3H"), board=[], dealer=dealer, team=[], made=[], hidden=True)
    assert seen.dealer == (None, card("4D"), None)
    assert sight_for(p, own=cards("QC 6D 3H"), board=[], dealer=dealer, team=[], made=[], hidden=False).dealer == ()


def test_an_edge_sorter_knows_each_dealer_card_high_or_low() -> None:
    p = parse_profile("1:edge-sort", seats=7)
    seen = sight_for(p, own=cards("QC 6D 3H"), board=[], dealer=cards("KS 4D AH"), team=[], made=[], hidden=True)
    assert seen.dealer == ("high", "low", "high")


def test_a_team_seat_sees_its_partners_cards() -> None:
    p = parse_profile("3:team", seats=7)
    seen = sight_for(p, own=cards("QC 6D 3H"), board=[], dealer=cards("KS 4D AH"), team=cards("2S 2H 9C"), made=[], hidden=True)
    assert seen.others == tuple(cards("2S 2H 9C")) and seen.dealer == ()


@pytest.mark.parametrize("spec, says", [
    ("1:shark", "unknown profile"), ("9:basic", "no seat 9"), ("1:basic@0.5", "only hole-card and edge-sort"),
    ("1:hole-card@1.5", "share"), ("one:basic", "SEAT:PROFILE"),
])
def test_a_bad_profile_is_refused_naming_it(spec: str, says: str) -> None:
    with pytest.raises(ProfileError, match=says) as e:
        parse_profile(spec, seats=7)
    assert spec in str(e.value) and "\n" not in str(e.value)


def test_the_recreational_player_makes_cheap_errors_more_often_than_costly_ones() -> None:
    rng = random.Random(5)
    p = Profile(1, "recreational")
    cheap = DecisionValues({"play": Fraction(-1), "fold": Fraction(-105, 100)})
    costly = DecisionValues({"play": Fraction(0), "fold": Fraction(-1)})
    cheap_errors = sum(choose(p, cheap, rng) == "fold" for _ in range(2000))
    costly_errors = sum(choose(p, costly, rng) == "fold" for _ in range(2000))
    assert 500 < cheap_errors < 1000 and costly_errors < 20
    assert choose(Profile(1, "basic"), cheap, rng) == "play"


def test_a_bad_player_profile_on_the_command_line_exits_2_naming_it(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["run", str(ROOT / "config/tables/three-card-poker.toml"), "--simulate", "--headless",
                                       "--autoplay", "1", "--log-dir", str(tmp_path / "logs"), "--player", "1:shark"])
    assert result.exit_code == 2 and "1:shark" in result.output and "unknown profile" in result.output


def test_a_hole_carders_logged_decisions_replay_as_the_hole_card_strategy(tmp_path: Path) -> None:
    logs, truth = tmp_path / "logs", tmp_path / "truth.jsonl"
    run = CliRunner().invoke(main, ["run", str(ROOT / "config/tables/three-card-poker.toml"), "--simulate", "--headless",
                                    "--autoplay", "60", "--seed", "3", "--log-dir", str(logs), "--player", "1:hole-card",
                                    "--truth", str(truth)])
    assert run.exit_code == 0, run.output
    review = CliRunner().invoke(main, ["review", str(logs), "--json"])
    assert review.exit_code == 0, review.output
    judged = against_basic = 0
    for r in json.loads(review.output)["rounds"]:
        made = [d["decision"] for d in r["decisions"] if d["seat"] == 1]
        if not made:
            continue
        own, dealer = cards(r["positions"]["seat:1"]), cards(r["positions"]["dealer"])
        sight = Sight(tuple(own), dealer=(dealer[0], None, None))
        assert made == [decision_values("three-card-poker", ("play", "fold"), sight).best], r["round"]
        judged += 1
        against_basic += made[0] != ("play" if raises(value3(sorted(own))) else "fold")
    assert judged >= 20 and against_basic >= 1
    header, decisions = read_truth(truth)
    assert header["profiles"] == {"1": "hole-card"}
    assert len(decisions) == judged and all(d["hidden"] and d["saw"][0] is not None for d in decisions)
    assert not any(p.name.startswith("truth") for p in logs.iterdir())
