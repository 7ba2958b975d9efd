"""How a table config's values are read (``tablectl.checks``): the lax conversions a config has
always had, the first problem in the fields' order, and ``config check`` loading only what it needs."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tablectl.config import ConfigError, parse_config

REPO = Path(__file__).resolve().parents[2]
OCP = tomllib.loads((REPO / "config" / "tables" / "one-card-poker.toml").read_text(encoding="utf-8"))


def parsed(**changes: Any) -> Any:
    return parse_config({**OCP, **changes}, "t.toml")


def refusal(**changes: Any) -> str:
    with pytest.raises(ConfigError) as info:
        parsed(**changes)
    return str(info.value)


@pytest.mark.parametrize("value", [7, 7.0, "7", " 7 ", "7.00", "+7"])
def test_an_int_field_takes_a_whole_number_however_written(value: Any) -> None:
    assert parsed(seats=value).seats == 7


@pytest.mark.parametrize(("value", "reason"), [
    (6.5, "Input should be a valid integer, got a number with a fractional part"),
    ("six", "Input should be a valid integer, unable to parse string as an integer"),
    ([7], "Input should be a valid integer"),
])
def test_an_int_field_refuses_what_is_not_a_whole_number(value: Any, reason: str) -> None:
    assert refusal(seats=value) == f"t.toml: seats: {reason}"


@pytest.mark.parametrize(("value", "expected"), [(True, True), ("yes", True), ("OFF", False), (0, False)])
def test_a_bool_field_takes_true_false_words_and_1_0(value: Any, expected: bool) -> None:
    assert parsed(allow_no_supervisors=value).allow_no_supervisors is expected


def test_a_string_field_takes_no_number() -> None:
    assert refusal(table=5) == "t.toml: table: Input should be a valid string"


def test_the_first_problem_in_the_fields_order_is_the_one_told_and_unknown_keys_come_last() -> None:
    assert refusal(colour="green", seats="x", decks=0) == "t.toml: decks: must be at least 1, not 0"
    assert refusal(colour="green") == "t.toml: colour: unknown key"
    assert refusal(log={"dir": "x", "rotate": "weekly"}) == "t.toml: log.rotate: Input should be 'shoe', 'day' or 'never'"


def test_config_check_loads_only_the_configured_game_and_no_validation_library() -> None:
    code = (
        "import sys; from tablectl.config import load_config; "
        "load_config(sys.argv[1]); "
        "print(sorted(m for m in sys.modules if m.startswith(('tablectl.games.', 'pydantic', 'tablectl.drivers.driver'))))"
    )
    out = subprocess.run([sys.executable, "-c", code, str(REPO / "config" / "tables" / "one-card-poker.toml")],
                         capture_output=True, text=True, timeout=60, check=True).stdout
    assert out.strip() == "['tablectl.games.one_card_poker', 'tablectl.games.procedure']"
