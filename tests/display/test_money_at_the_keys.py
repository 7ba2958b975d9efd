"""The dealer's money and the keys that hold, end or quit a round, at the keys only:
``tablectl run CONFIG --simulate`` on a real 80x24 pty, keystrokes in, the screen read back as it
changes (no fixed pauses).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from atthekeys import Keys, seat_row, tablectl_command

REPO = Path(__file__).resolve().parents[2]


def at_table(table: str, log_dir: Path) -> Keys:
    """A person at the keys of ``table``'s simulated display, 80x24."""
    config = REPO / "config" / "tables" / f"{table}.toml"
    return Keys([tablectl_command(), "run", str(config), "--simulate", "--seed", "5", "--log-dir", str(log_dir)])


@pytest.fixture
def keys(tmp_path: Path) -> Iterator[Callable[[str], Keys]]:
    opened: list[Keys] = []

    def make(table: str) -> Keys:
        k = at_table(table, tmp_path / f"logs-{len(opened)}")
        opened.append(k)
        return k

    yield make
    for k in opened:
        k.t.kill()


# table -> a side bet typed over its limit, and the one-line refusal
OVER_THE_LIMIT: dict[str, tuple[bytes, str]] = {
    "one-card-poker": (b"25 tie 600", "seat 1: tie: $600 is outside the limits $1-$100"),
    "three-card-poker": (b"25 six-card-bonus 50000", "seat 1: six-card-bonus: $50,000 is outside the limits $1-$25"),
    "three-card-poker-florida": (b"25 pairplus 501", "seat 1: pairplus: $501 is outside the limits $5-$500"),
    "one-for-the-money-shoe": (b"25 perfect-match 101", "seat 1: perfect-match: $101 is outside the limits $1-$100"),
    "one-for-the-money-csm": (b"25 three-card-bonus 101", "seat 1: three-card-bonus: $101 is outside the limits $1-$100"),
    "texas-holdem-bonus": (b"25 bonus 100000", "seat 1: bonus: $100,000 is outside the limits $1-$25"),
}


@pytest.mark.parametrize("table", sorted(OVER_THE_LIMIT))
def test_a_side_bet_over_its_limit_is_refused_in_one_line_naming_the_limit(keys: Callable[[str], Keys], table: str) -> None:
    k = keys(table)
    typed, refusal = OVER_THE_LIMIT[table]
    s = k.type(b"1$" + typed + b"\r", lambda s: s.status.startswith("✗ "))
    assert s.status.rstrip() == "✗ " + refusal


def test_a_side_bet_is_added_to_the_wager_a_seat_stands_on(keys: Callable[[str], Keys]) -> None:
    k = keys("one-card-poker")
    k.type(b"1$25\r", "seat 1 bets primary $25")
    s = k.type(b"1$tie 50\r", lambda s: "tie" in s.status)
    assert s.status.rstrip() == "· seat 1 bets primary $25 tie $50"
    assert "next: primary $25 tie $50" in k.seat_row(1)


def test_the_wager_prompt_gives_an_example_in_the_games_own_bet_names(keys: Callable[[str], Keys]) -> None:
    k = keys("one-card-poker")
    s = k.type(b"1$", lambda s: s.prompt_open)
    assert "e.g. primary 25 tie 5" in s.status and "ante" not in s.status


def test_one_for_the_money_names_its_side_bet_as_the_table_does(keys: Callable[[str], Keys]) -> None:
    k = keys("one-for-the-money-shoe")
    s = k.type(b"1$25 perfect-match 5\r", lambda s: "seat 1 bets" in s.status)
    assert s.status.rstrip() == "· seat 1 bets ante $25 perfect-match $5" and "bonus" not in k.seat_row(1)


def test_holdem_bonus_flop_bet_shows_in_the_wagers_column_as_it_is_made(keys: Callable[[str], Keys]) -> None:
    k = keys("texas-holdem-bonus")
    k.ready_with_seat_1_alone()
    k.type(b"1$10\r", "seat 1 bets ante $10")
    k.type(b"n", lambda s: s.state == "IN ROUND")
    k.type(b"\r", "packet of 2 to dealer")
    k.type(b"\r", lambda s: s.decision is not None)
    k.type(b"r", lambda s: "flop" in seat_row(s, 1) and "$20" in seat_row(s, 1))
    assert "ante $10 flop $20" in k.seat_row(1)


def test_a_mistaken_E_mid_round_is_cancelled_with_n_and_the_round_goes_on(keys: Callable[[str], Keys]) -> None:
    k = keys("one-for-the-money-shoe")
    k.in_round_1()
    s = k.type(b"E", lambda s: s.prompt_open)
    assert "round 1 is not all dealt: end it short? (y/n)" in s.status
    s = k.type(b"n", lambda s: not s.prompt_open)
    assert s.state == "IN ROUND" and "cancelled" in s.status and "TOO FEW" not in s.text


def test_Q_mid_round_warns_and_n_keeps_the_table_running(keys: Callable[[str], Keys]) -> None:
    k = keys("one-for-the-money-shoe")
    k.in_round_1()
    s = k.type(b"Q", lambda s: s.prompt_open)
    assert "round 1 is in play: quit anyway? (y/n)" in s.status
    s = k.type(b"n", lambda s: not s.prompt_open)
    assert s.state == "IN ROUND" and s.status.rstrip() == "· quit cancelled" and not k.t.closed


def test_a_voided_round_shows_VOID_until_the_next_round_and_a_batch_shuffler_shuffles_afresh(keys: Callable[[str], Keys]) -> None:
    k = keys("texas-holdem-bonus")
    k.in_round_1()
    k.type(b"Ey", lambda s: s.state == "HELD")
    s = k.type(b"Vy", lambda s: s.prompt_open and "supervisor id" in s.status)
    s = k.type(b"demo\rdemo\r", lambda s: s.prompt_open and "note" in s.status)
    s = k.type(b"planted\r", lambda s: "VOID 1" in s.text.splitlines()[0])
    assert s.state == "SETTLING"
    s = k.type(b"E", lambda s: s.state != "SETTLING")
    assert "VOID 1" in s.text.splitlines()[0]
    assert s.state == "RESHUFFLE DUE" and not s.next.startswith("start a round"), s.text


def test_dollar_keeps_the_seat_so_a_second_dollar_tie_5_adds_a_tie_and_runs_no_command(keys: Callable[[str], Keys]) -> None:
    k = keys("one-card-poker")
    k.type(b"1$25\r", "seat 1 bets primary $25")
    s = k.type(b"$tie 5\r", lambda s: "tie" in s.status or s.status.startswith("✗ "))
    assert s.status.rstrip() == "· seat 1 bets primary $25 tie $5" and not s.prompt_open
    assert "next: primary $25 tie $5" in k.seat_row(1) and k.seat_row(1).startswith("▶1 ")
