"""The table's lifecycle machine: plain transitions Machine, no auto transitions, guards, and the
mermaid diagram drawn from it (the one in docs/table.md included)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from transitions import MachineError

from tablectl.table import lifecycle as lc

DOCS = Path(__file__).resolve().parents[2] / "docs" / "table.md"


class Model(lc.LifecycleModel):
    def __init__(self) -> None:
        self.violations: list[str] = []
        self.faults: set[str] = set()

    def open_violations(self):
        return self.violations

    def active_faults(self):
        return self.faults


def machine(state: str = lc.OFFLINE) -> Model:
    m = Model()
    lc.build_machine(m, initial=state)
    return m


def test_there_are_no_auto_transitions():
    m = machine()
    assert not any(hasattr(m, f"to_{s}") for s in lc.STATES)


def test_a_round_cannot_start_before_cards_are_ready():
    m = machine(lc.IDLE)
    with pytest.raises(MachineError):
        m.trigger("start_round")


def test_a_failed_deck_check_leaves_the_table_idle():
    m = machine(lc.SHUFFLING)
    m.deck_good = False
    m.trigger("shuffle_done")
    assert m.state == lc.IDLE


def test_a_hold_returns_to_the_state_it_interrupted_once_resolved():
    m = machine(lc.IN_ROUND)
    m.violations.append("burn_missing")
    m.trigger("hold")
    m.trigger("resolve")
    assert m.state == lc.HELD
    m.violations.clear()
    m.trigger("resolve")
    assert m.state == lc.IN_ROUND


def test_a_fault_during_a_hold_returns_to_the_hold_when_cleared():
    m = machine(lc.READY)
    m.violations.append("wrong_state")
    m.trigger("hold")
    m.faults.add("jam")
    m.trigger("fault")
    m.faults.clear()
    m.trigger("fault_cleared")
    assert m.state == lc.HELD


def test_after_a_round_a_reshuffle_is_due_when_needed():
    m = machine(lc.SETTLING)
    m.needs_reshuffle = True
    m.trigger("end_round")
    assert m.state == lc.RESHUFFLE_DUE


def test_a_round_may_start_past_the_last_round_only_with_cards_left_under_the_cap():
    m = machine(lc.RESHUFFLE_DUE)
    m.has_cards_left = False
    m.trigger("start_round")
    assert m.state == lc.RESHUFFLE_DUE


def test_the_diagram_is_drawn_from_the_machine():
    text = lc.mermaid()
    assert text.splitlines()[3] == "stateDiagram-v2"
    for state in lc.STATES:
        assert f'state "{state}" as {state}' in text
    for t in lc.TRANSITIONS:
        assert t["trigger"] in text


def test_docs_table_md_holds_the_current_diagram():
    assert lc.mermaid() in DOCS.read_text(encoding="utf-8")


def test_take_goes_where_the_machine_goes_from_every_state_under_every_guard():
    """``lifecycle.take`` (the table's fast walk of the machine's routes) against the Machine's
    own trigger: every state, every trigger, every combination of the guards' inputs."""
    triggers = sorted({t["trigger"] for t in lc.TRANSITIONS})
    flags = itertools.product((False, True), repeat=6)
    by_machine, by_take = machine(), Model()
    checked = 0
    for deck, accepted, left, reshuffle, faulty, held in flags:
        for base, state, trigger in itertools.product(lc.BASE_STATES, lc.STATES, triggers):
            for m in (by_machine, by_take):
                m.state, m.base = state, base
                m.deck_good, m.round_accepted, m.has_cards_left, m.needs_reshuffle = deck, accepted, left, reshuffle
                m.faults = {"jam"} if faulty else set()
                m.violations = ["wrong_state"] if held else []
            try:
                by_machine.trigger(trigger)
            except MachineError:
                with pytest.raises(MachineError):
                    lc.take(by_take, trigger)
            else:
                lc.take(by_take, trigger)
            assert (by_take.state, by_take.base) == (by_machine.state, by_machine.base), (state, trigger, base)
            checked += 1
    assert checked == 64 * len(lc.BASE_STATES) * len(lc.STATES) * len(triggers)
