"""The floor's screening of every seat session for play from hidden cards (pure:
``analytics.floor.detection.detect`` on sightings as the dataset gives them)."""

from __future__ import annotations

from typing import Any

import pytest

from tablectl.analytics.floor.detection import Session, detect
from tablectl.detection.screen import DetectionError


def _decisions(table: str, seat: int, n: int, *, cheat: bool, player: str | None = None, day: str = "2026-11-20",
               first_seq: int = 100) -> list[dict[str, Any]]:
    """``n`` decisions of a seat: a cheat plays where only the dealer's first card says so (its own
    cards say fold, narrowly); an honest seat's decisions are ones the hypothesis values as he does."""
    out = []
    for i in range(n):
        seq = first_seq + 10 * i
        out.append({"table_id": table, "date": day, "seat": seat, "seq": seq, "round_id": f"1.{i + 1}",
                    "options": ["play", "fold"], "choice": "play" if cheat else "fold", "own": [-1.05, -1.0],
                    "hypotheses": ["hole:1"], "hidden": [[1.0, -1.0] if cheat else None],
                    "ts": f"{day}T10:{seq // 60 % 60:02d}:{seq % 60:02d}Z", "player": player})
    return out


def test_a_seat_flagged_alone_is_not_flagged_among_many_honest_seats_tested() -> None:
    cheat = _decisions("T1", 1, 6, cheat=True)  # p about 0.015
    honest = [r for seat in range(2, 11) for r in _decisions("T2", seat, 6, cheat=False)]
    assert [f.session for f in detect(cheat, 0.05).flags] == [Session(table_id="T1", seat=1, date="2026-11-20")]
    among = detect(cheat + honest, 0.05)
    assert (among.tests, among.flags) == (10, [])  # Holm: 0.015 against 0.05 / 10


def test_each_table_seat_and_day_is_its_own_session() -> None:
    rows = _decisions("T1", 1, 4, cheat=True) + _decisions("T1", 1, 4, cheat=True, day="2026-11-21") + \
        _decisions("T2", 1, 4, cheat=True)
    assert detect(rows, 0.05).sessions == 3


def test_a_players_decisions_at_two_tables_are_tested_together() -> None:
    rows = (_decisions("T1", 3, 4, cheat=True, player="P-17")  # p about 0.06 at each table
            + _decisions("T2", 5, 4, cheat=True, player="P-17", first_seq=400))
    assert detect([{**r, "player": None} for r in rows], 0.05).flags == []
    found = detect(rows, 0.05)
    assert [(f.session, f.hypothesis) for f in found.flags] == [(Session(player="P-17"), "hole:1")]
    assert {(e.table_id, e.seat) for e in found.flags[0].evidence} == {("T1", 3), ("T2", 5)}


def test_a_flag_names_the_rounds_only_the_hidden_card_explains() -> None:
    rows = _decisions("T1", 1, 12, cheat=True)
    rows[0] = {**rows[0], "choice": "fold", "hidden": [None]}  # the card told nothing: he played his own cards
    flag = detect(rows, 0.05).flags[0]
    assert [e.round_id for e in flag.evidence] == [f"1.{i}" for i in range(2, 13)]
    assert flag.to_dict()["count"] == 11


def test_a_sighting_whose_choice_is_no_option_is_an_error_naming_its_session() -> None:
    rows = _decisions("T1", 4, 3, cheat=True)
    rows[1] = {**rows[1], "choice": "raise"}
    with pytest.raises(DetectionError, match=r"sightings of T1 seat 4 on 2026-11-20: .*'raise' is not one of"):
        detect(rows, 0.05)
