"""Shuffle quality from the logged card sequences: the existing analyses
(``tablectl.review.shuffle.analyses``) run on what the controller logged, each with a verdict.

The logs come from the real controller dealing from simulated devices whose shuffling is good, or
poor on purpose (a batch shuffler doing one riffle; a continuous shuffler whose carousel parks
returned cards near the exit) — the simulators' ``quality`` option, which ``tablectl run`` does
not expose, so the table runs in-process here (``TableRuntime`` + ``VirtualDealer``, the same
parts ``tablectl run --simulate --autoplay`` uses).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tablectl.config import parse_config
from tablectl.review.engine import review
from tablectl.review.shuffle.quality import shoe_sequences
from tablectl.table.runtime import TableRuntime
from tablectl.table.simulated.virtual_dealer import VirtualDealer

if TYPE_CHECKING:
    from reviewhelpers import TableLog


def play(log_dir: Path, game: str, driver: str, decks: int, rounds: int, **sim: Any) -> Path:
    config = parse_config({
        "table": "Q1", "game": game, "decks": decks, "seats": 6, "min_bet": 5, "max_bet": 500,
        "devices": {"cards": {"driver": driver, "address": "socket://127.0.0.1:1"}}, "log": {"dir": str(log_dir)},
    })
    runtime = TableRuntime(config, simulate=True, seed=1, fsync=False, sim_options=sim)
    controller = runtime.start()
    try:
        VirtualDealer(controller, runtime.sims["cards"], seed=1).play(rounds)
    finally:
        runtime.stop()
    return log_dir


def verdicts(log_dir: Path) -> dict[str, str]:
    return {r.name: r.verdict for q in review([log_dir]).quality for r in q.results}


@pytest.mark.parametrize("quality, verdict", [("good", "pass"), ("poor", "fail")])
def test_a_batch_shuffler_s_dealt_packets_are_judged_by_the_card_position_chi_square(tmp_path: Path, quality: str, verdict: str) -> None:
    log = play(tmp_path, "three-card-poker", "shuffler", 1, 150, quality=quality, riffles=1)
    assert verdicts(log)["card_position_chi_square"] == verdict


@pytest.mark.parametrize("quality, verdict", [("good", "pass"), ("poor", "fail")])
def test_a_continuous_shuffler_s_dispenses_and_returns_are_judged_by_the_re_entry_lag(tmp_path: Path, quality: str, verdict: str) -> None:
    log = play(tmp_path, "one-card-poker", "csm", 6, 150, quality=quality)
    assert verdicts(log) == {"csm_reentry_lag": verdict}


def test_the_guessing_test_is_not_applicable_because_no_input_order_is_logged(tmp_path: Path) -> None:
    log = play(tmp_path, "three-card-poker", "shuffler", 1, 20)
    (result,) = [r for q in review([log]).quality for r in q.results if r.name == "dfh_guessing_with_feedback"]
    assert result.verdict == "n/a" and "input order" in result.detail


def test_a_shoe_s_sequence_ends_at_a_card_beyond_its_composition(tmp_path: Path, table_log: TableLog) -> None:
    t = table_log
    t.shoe()  # burns 2C
    for _ in range(7):
        t.card("drawn", "AS", "discard")  # the seventh AS of six decks is foreign
    t.card("drawn", "KD", "discard")
    t.close()
    sequences, decks, notes = shoe_sequences(review([tmp_path]).recon)
    assert decks == 6 and [list(s) for s in sequences] == [[3] + [48] * 6]  # 2C, then the six aces six decks hold
    assert notes == ["1 shoe(s) cut short at an unidentified or foreign card"]
