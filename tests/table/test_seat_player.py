"""The pit's player id per seat in the table core: logged when entered (``player_seated`` /
``player_left``), counted from the next round to start (``round_started.players``), refused in
one line when it is not an id, and carried on by a restarted controller. Driven from plain
device events and inputs."""

from __future__ import annotations

import pytest

from tablectl.table.inputs import EndRound, InputRejected, OfferBank, SeatPlayer, StartRound

WAGERS = {1: {"primary": 1000}, 2: {"primary": 1000}}


def ready(table):
    t = table("one-card-poker")
    t.load_shoe()
    t.burn("2C")
    for seat in (5, 7):
        t.input(OfferBank(seat))
    return t


def play_round(t, cards=("3S", "9H", "KD")) -> None:
    """Seats 1 and 2 against the DP, no tie."""
    t.input(StartRound((1, 2), WAGERS))
    t.draw(*cards)
    t.input(EndRound())


def starts(t) -> list[dict]:
    return t.log.events("round_started")


def test_a_player_entered_between_rounds_is_logged_and_named_in_the_next_rounds_start(table) -> None:
    t = ready(table)
    t.input(SeatPlayer(1, "P-1077"))
    play_round(t)
    seated = t.log.events("player_seated")
    assert [(e["seat"], e["player"], e["previous"], e["round"]) for e in seated] == [(1, "P-1077", None, 1)]
    assert starts(t)[0]["players"] == {"1": "P-1077"}


def test_a_player_entered_during_a_round_counts_from_the_next_round(table) -> None:
    t = ready(table)
    t.input(StartRound((1, 2), WAGERS))
    t.input(SeatPlayer(2, "P-2"))
    t.draw("3S", "9H", "KD")
    t.input(EndRound())
    play_round(t, ("4S", "8H", "QD"))
    assert t.log.events("player_seated")[0]["round"] == 2
    assert "players" not in starts(t)[0]
    assert starts(t)[1]["players"] == {"2": "P-2"}


def test_a_player_who_left_is_not_named_from_the_next_round(table) -> None:
    t = ready(table)
    t.input(SeatPlayer(1, "P-1"))
    play_round(t)
    t.input(SeatPlayer(1, None))
    play_round(t, ("4S", "8H", "QD"))
    assert [(e["seat"], e["player"], e["round"]) for e in t.log.events("player_left")] == [(1, "P-1", 2)]
    assert "players" not in starts(t)[1]


def test_a_control_character_in_a_player_id_is_refused_in_one_line_and_only_the_refusal_logged(table) -> None:
    t = ready(table)
    with pytest.raises(InputRejected) as refused:
        t.input(SeatPlayer(3, "P\x1b[2J1"))
    assert str(refused.value) == "seat 3: player id: control character U+001B at character 2"
    assert t.log.events("player_seated") == []
    assert [e["input"] for e in t.log.events("input_rejected")] == ["seat_player"]


def test_a_player_id_for_a_seat_the_table_does_not_have_is_refused(table) -> None:
    t = ready(table)
    with pytest.raises(InputRejected, match=r"seat 9 does not exist \(seats 1-7\)"):
        t.input(SeatPlayer(9, "P-1"))


def test_a_restarted_table_carries_on_with_the_players_entered(table) -> None:
    t = ready(table)
    t.input(SeatPlayer(1, "P-1"))
    play_round(t)
    t.input(SeatPlayer(2, "P-2"))
    again = t.restarted()
    play_round(again, ("4S", "8H", "QD"))
    assert starts(again)[0]["players"] == {"1": "P-1", "2": "P-2"}
