"""The virtual dealer's planted procedure errors (``--mistakes``): every one is flagged, with its
named violation, in the round it was made; and no round without a mistake has a violation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablectl.table.simulated.virtual_dealer import (
    CARD_NOT_RETURNED,
    CARD_PAST_CAP,
    EXPECTED_VIOLATION,
    EXTRA_CARD,
    NO_BURN_AT_DEALER_CHANGE,
    SKIP_BURN,
)

ROUNDS = 150
RATE = 0.3
APPLICABLE = {
    "one-card-poker": {SKIP_BURN, EXTRA_CARD, NO_BURN_AT_DEALER_CHANGE, CARD_PAST_CAP},
    "one-for-the-money-csm": {EXTRA_CARD, CARD_NOT_RETURNED},
    "one-for-the-money-shoe": {EXTRA_CARD, CARD_PAST_CAP},
    "three-card-poker": {EXTRA_CARD},
    "three-card-poker-florida": {EXTRA_CARD},
    "texas-holdem-bonus": {EXTRA_CARD},
}


@pytest.fixture(scope="module", params=sorted(APPLICABLE))
def played(request, tmp_path_factory, play_table):
    tmp = tmp_path_factory.mktemp(request.param)
    with open(tmp / "mistakes.jsonl", "w", encoding="utf-8") as out:
        result = play_table(request.param, tmp, ROUNDS, seed=11, fsync=False, mistakes=RATE, mistakes_log=out)
    result.mistakes_file = tmp / "mistakes.jsonl"
    result.name = request.param
    return result


def violations_by_round(played):
    found: dict[int, set[str]] = {}
    for v in played.violations():
        found.setdefault(v["round"], set()).add(v["kind"])
    return found


def test_every_mistake_is_flagged_in_its_round(played):
    found = violations_by_round(played)
    missed = [m for m in played.report.mistakes if EXPECTED_VIOLATION[m["kind"]] not in found.get(m["round"], set())]
    assert played.report.mistakes and missed == []


def test_no_violation_in_a_round_without_a_mistake(played):
    rounds = {m["round"] for m in played.report.mistakes}
    assert {r for r in violations_by_round(played) if r not in rounds} == set()


def test_every_kind_of_mistake_the_table_allows_was_made(played):
    assert {m["kind"] for m in played.report.mistakes} == APPLICABLE[played.name]


def test_the_mistakes_file_lists_each_mistake_with_round_and_kind(played):
    lines = [json.loads(line) for line in Path(played.mistakes_file).read_text().splitlines()]
    assert lines == played.report.mistakes


def test_every_hold_was_resolved_and_logged(played):
    assert len(played.events("resolved")) == played.report.resolutions > 0


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(APPLICABLE))
def test_a_long_mistakes_campaign_flags_every_mistake_and_nothing_else(name, tmp_path, play_table):
    played = play_table(name, tmp_path, 3000, seed=3000, fsync=False, mistakes=0.1)
    found = violations_by_round(played)
    mistake_rounds = {m["round"] for m in played.report.mistakes}
    missed = [m for m in played.report.mistakes if EXPECTED_VIOLATION[m["kind"]] not in found.get(m["round"], set())]
    assert missed == [] and set(found) <= mistake_rounds
    print(f"\n{name}: {len(played.report.mistakes)} mistakes in {len(mistake_rounds)} rounds, all flagged")


def test_the_same_seed_makes_the_same_mistakes_in_the_same_rounds(tmp_path, play_table):
    made = []
    for run in ("a", "b"):
        (tmp_path / run).mkdir()
        made.append(play_table("one-card-poker", tmp_path / run, 60, seed=11, fsync=False, mistakes=RATE).report.mistakes)
    assert made[0] == made[1] and {m["kind"] for m in made[0]} >= {EXTRA_CARD, SKIP_BURN}
