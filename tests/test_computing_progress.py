"""A computation that takes over two seconds shows its share done and its ETA on stderr
(``progress.Told``), one line redrawn in place and wiped at the end; a shorter one draws nothing;
its start and end are said on their own lines even where no line is drawn. The solve of Texas
Hold'em Bonus tells its share as it goes (``holdem.solve``), driven here on a small part of it.
Work whose length is not known before (numba compiling a game's decision math for ``review
--seat``) is said once it has run a while, with how long it took."""

from __future__ import annotations

import io
import re
import time
from types import SimpleNamespace

import numpy as np
import pytest

from tablectl.gamemath.holdem import main as hm
from tablectl.gamemath.holdem import solve
from tablectl.progress import Told, describe_share
from tablectl.review import seat_decisions


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def computed(seconds: float, steps: int, shown: bool = True) -> str:
    """What stderr gets from a computation of ``steps`` equal steps lasting ``seconds`` in all."""
    clock, stream = Clock(), io.StringIO()
    told = Told(stream, shown, clock=clock, interval=0.0)
    told.say("solving the game")
    told.begin("solving")
    for step in range(1, steps + 1):
        clock.now += seconds / steps
        told.share(step / steps)
    told.say(f"solved in {told.end():.0f} s")
    return stream.getvalue()


def test_a_computation_over_two_seconds_shows_its_share_done_and_eta_on_one_redrawn_line() -> None:
    out = computed(10.0, 10)
    assert "\r\x1b[Ktablectl: solving: 50%, 0:05 so far, ETA 0:05" in out
    assert out.count("ETA") == 9  # from two seconds in: at 2, 3, ..., 10 s
    assert out.endswith("\r\x1b[Ktablectl: solved in 10 s\n")  # wiped, then the end said


def test_a_computation_under_two_seconds_draws_nothing_but_its_start_and_end() -> None:
    assert computed(1.5, 10) == "\r\x1b[Ktablectl: solving the game\n\r\x1b[Ktablectl: solved in 2 s\n"


def test_off_a_terminal_only_the_start_and_the_end_are_said() -> None:
    assert computed(30.0, 10, shown=False) == "tablectl: solving the game\ntablectl: solved in 30 s\n"


def test_the_eta_is_the_time_left_at_the_rate_so_far() -> None:
    assert describe_share("x", 0.25, 30.0) == "x: 25%, 0:30 so far, ETA 1:30"
    assert describe_share("x", 0.0, 3.0) == "x: 0%, 0:03 so far"
    assert describe_share("x", 0.5, 3725.0) == "x: 50%, 1:02:05 so far, ETA 1:02:05"


def test_the_solve_tells_its_share_as_each_starting_hand_is_decided() -> None:
    shares: list[float] = []
    stages = solve._Stages(shares.append)
    reps = hm.starting_hands()[0][:3]
    counts = hm.NodeCounts(*(np.zeros((3, hm.NODES), hm.COUNT_DTYPE) for _ in range(2)),
                           {"straight": np.zeros((3, hm.NODES), hm.COUNT_DTYPE)})
    hm.decisions(reps, counts, "straight", stages.stage("decisions", 3))
    assert len(shares) == 3 and shares == sorted(shares)
    assert abs(shares[-1] - solve._WEIGHTS["decisions"]) < 1e-9


def test_the_solve_stages_add_up_to_the_whole() -> None:
    assert abs(sum(solve._WEIGHTS.values()) - 1.0) < 1e-9


def test_work_of_unknown_length_running_past_its_notice_is_said_and_how_long_it_took() -> None:
    stream = io.StringIO()
    with Told(stream, False, after=0.05).slow("compiling", "compiled in {seconds} s"):
        time.sleep(0.3)
    assert re.fullmatch(r"tablectl: compiling\ntablectl: compiled in \d+ s\n", stream.getvalue())


def test_work_of_unknown_length_ending_before_its_notice_says_nothing() -> None:
    stream = io.StringIO()
    with Told(stream, True, after=5.0).slow("compiling", "compiled in {seconds} s"):
        pass
    assert stream.getvalue() == ""


def test_review_says_when_the_first_valuation_of_a_games_decisions_takes_seconds_and_only_then(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def slow_judge(hands: object, rules: object, decks: int) -> list[object]:
        time.sleep(0.3)
        return []

    monkeypatch.setattr(seat_decisions, "judge_round", slow_judge)
    stream = io.StringIO()
    judged = seat_decisions.SeatDecisions(1, told=Told(stream, False, after=0.05))
    hands = SimpleNamespace(game="texas-holdem-bonus")
    for _ in range(2):
        judged._judge(hands, None, 1)  # type: ignore[arg-type]
    assert re.fullmatch("tablectl: preparing the exact math of texas-holdem-bonus decisions [(]compiled on its first "
                        r"use on this machine, then loaded[)]\ntablectl: texas-holdem-bonus decision math ready in \d+ s\n",
                        stream.getvalue())
