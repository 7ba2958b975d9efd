"""A tile's expected hold: each wager's house edge from the approved math that judges the table's
logged rules (``pit.expected``), and the edge book that works it out without blocking the page."""

from __future__ import annotations

import copy
import threading
import time
from typing import Any

import pytest

from tablectl.analytics import approved as ap
from tablectl.analytics.expected import wager_math
from tablectl.pit.expected import THB, EdgeBook, edges_now

APPROVED = ap.load(ap.shipped_path())
OCP = next(s for s in APPROVED.sets if s.game == "one-card-poker")


def ocp_rules(**house_rules: Any) -> dict[str, Any]:
    rules = copy.deepcopy(OCP.rules)
    rules["house_rules"].update(house_rules)
    return rules


def test_a_table_under_approved_rules_gets_each_wagers_edge_from_that_sets_exact_math() -> None:
    edges = edges_now(APPROVED, "one-card-poker", 6, OCP.rules)
    assert edges is not None
    assert edges == {m.wager: m.edge for m in wager_math("one-card-poker", 6, OCP.rules)}
    assert edges["primary"] == 0.0  # seat against the Designated Player: the house takes nothing
    assert 0.0 < edges["tie"] < 1.0


def test_a_pay_table_changed_from_the_approved_one_is_judged_by_the_approved_sets_math() -> None:
    raised = copy.deepcopy(OCP.rules)
    raised["pay_tables"]["tie_wager"]["any_tie"] = 40  # a raised pay table: flagged elsewhere, judged by the approved math
    assert edges_now(APPROVED, "one-card-poker", 6, raised) == edges_now(APPROVED, "one-card-poker", 6, OCP.rules)


@pytest.mark.parametrize(("game", "rules"), [
    ("one-card-poker", ocp_rules(dp_declines_war="player-wins")),  # a rule the math does not model
    ("one-card-poker", ocp_rules(dp_declines_war="war")),  # not a value of the rule at all
    ("baccarat", None),  # a game with no approved math
])
def test_rules_the_approved_math_does_not_judge_give_no_expected_hold(game: str, rules: dict[str, Any] | None) -> None:
    assert edges_now(APPROVED, game, 6, rules) is None


def test_texas_holdem_bonus_shows_no_expected_hold_before_its_main_game_is_analysed(monkeypatch: pytest.MonkeyPatch) -> None:
    from tablectl.gamemath.holdem import strategy

    monkeypatch.setattr(strategy, "cached", lambda cache=None: None)
    thb = next(s for s in APPROVED.sets if s.game == THB)
    assert edges_now(APPROVED, THB, 1, thb.rules) is None


def answered(book: EdgeBook, *ask: Any) -> Any:
    deadline = time.monotonic() + 10
    while (found := book(*ask)) is None:
        assert time.monotonic() < deadline, "the edge book never answered"
        time.sleep(0.01)
    return found


def test_the_edge_book_never_waits_for_the_math_it_answers_none_until_it_is_worked_out(monkeypatch: pytest.MonkeyPatch) -> None:
    from tablectl.pit import expected

    release = threading.Event()

    def slow(*ask: Any) -> Any:  # math that takes its time (Texas Hold'em Bonus's first analysis: minutes)
        release.wait(10)
        return edges_now(*ask)

    monkeypatch.setattr(expected, "edges_now", slow)
    book = EdgeBook()
    try:
        t0 = time.monotonic()
        assert book("one-card-poker", 6, OCP.rules) is None
        assert book("one-card-poker", 6, OCP.rules) is None
        assert time.monotonic() - t0 < 5.0  # the math, asked twice, would hold them 20 s
        release.set()
        assert answered(book, "one-card-poker", 6, OCP.rules) == edges_now(APPROVED, "one-card-poker", 6, OCP.rules)
    finally:
        release.set()
        book.close()


def test_the_edge_book_works_out_the_same_rules_once_whatever_their_order() -> None:
    book = EdgeBook(ap.shipped_path())
    try:
        answered(book, "one-card-poker", 6, OCP.rules)
        reordered = {"pay_tables": OCP.rules["pay_tables"], "house_rules": dict(reversed(OCP.rules["house_rules"].items()))}
        assert book("one-card-poker", 6, reordered) is not None  # at once: no new work started
    finally:
        book.close()

