"""A player id as the pit enters it (pure): what is refused, in one line naming what and where, and
the ``=PLAYER`` of a simulated seat's profile."""

from __future__ import annotations

import pytest

from tablectl.table.player_id import problem
from tablectl.table.simulated.profiles import ProfileError, parse_profile


@pytest.mark.parametrize("player", ["P-1077", "4417 0032", "vip/12.b#3", "x" * 32])
def test_a_card_number_or_id_of_ascii_letters_digits_and_marks_is_taken(player: str) -> None:
    assert problem(player) is None


@pytest.mark.parametrize(("player", "refusal"), [
    ("", "player id: empty (type the player's card number or id)"),
    ("x" * 33, "player id: 33 characters, at most 32"),
    (" P-1", "player id: a space at its start or end"),
    ("P-1\x07", "player id: control character U+0007 at character 4"),
    ("P\u20111077", "player id: '\u2011' (U+2011, character 2) looks like '-': type '-'"),
    ("\uff30-1", "player id: '\uff30' (U+FF30, character 1) looks like 'P': type 'P'"),
    ("\u0420-1", "player id: '\u0420' (U+0420, character 1) is not ASCII"),
    ("P!1", "player id: '!' at character 2: use letters, digits, space, - _ . / #"),
])
def test_what_is_not_a_player_id_is_refused_in_one_line_naming_what_and_where(player: str, refusal: str) -> None:
    assert problem(player) == refusal


def test_a_simulated_seat_takes_its_player_id_after_the_profile() -> None:
    p = parse_profile("1:hole-card#2@0.5=P-1077", seats=7)
    assert (p.seat, p.kind, p.card, p.share, p.player) == (1, "hole-card", 1, 0.5, "P-1077")
    assert p.label() == "hole-card#2@0.5"


def test_a_simulated_seat_with_a_bad_player_id_is_refused_naming_the_option() -> None:
    with pytest.raises(ProfileError) as refused:
        parse_profile("1:basic=P\u20111", seats=7)
    assert str(refused.value) == "--player '1:basic=P\u20111': player id: '\u2011' (U+2011, character 2) looks like '-': type '-'"
