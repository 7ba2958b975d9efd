"""Texas Hold'em Bonus's whole solve with its strategy export and flop and turn rules (minutes:
``pytest -n 0 -m slow``). The export is read back with DuckDB and checked against the solver's own
report and against a plain loop over every turn, river and dealer hand of one flop; the rules,
read from their own text, are checked against the exported exact strategy."""

from __future__ import annotations

import random
from itertools import combinations
from pathlib import Path

import duckdb
import numpy as np
import pytest

from tablectl.cards import cards
from tablectl.gamemath.holdem import export as he
from tablectl.gamemath.holdem import main as hm
from tablectl.gamemath.holdem import rules as hr
from tablectl.gamemath.holdem import situations as hs
from tablectl.gamemath.holdem.strategy import MainGameAnalysis, analyse
from tablectl.gamemath.holdem.tables import RANK_KEY, flush, ranks

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def solved(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[MainGameAnalysis], Path]:
    folder = tmp_path_factory.mktemp("thb")
    reports = analyse(folder / "cache", export=folder / "thb.parquet")
    return reports, folder / "thb.parquet"


def query(path: Path, sql: str, *params: object) -> list[tuple[object, ...]]:
    return duckdb.execute(sql.replace("STRATEGY", f"'{path}'"), list(params)).fetchall()


def test_aces_play_and_seven_deuce_offsuit_folds_in_the_export(solved) -> None:  # type: ignore[no-untyped-def]
    _, path = solved
    rows = dict(query(path, "SELECT hand, best FROM STRATEGY WHERE street = 'preflop' AND ante_pays_from = 'straight'"))
    assert rows["AA"] == "play" and rows["72o"] == "fold" and len(rows) == 169


def test_the_exported_pre_flop_evs_are_the_reports(solved) -> None:  # type: ignore[no-untyped-def]
    reports, path = solved
    for report in reports:
        exported = dict(query(path, "SELECT hand, ev_bet FROM STRATEGY WHERE street = 'preflop' AND ante_pays_from = ?",
                              report.rules["ante_pays_from"]))
        assert all(exported[p["hand"]] == pytest.approx(p["ev"]) for p in report.preflop)


def test_every_canonical_situation_is_one_row(solved) -> None:  # type: ignore[no-untyped-def]
    _, path = solved
    counts = dict(query(path, "SELECT street, count(*) FROM STRATEGY WHERE ante_pays_from = 'flush' GROUP BY street"))
    assert counts == {"preflop": 169, "flop": 1_286_792, "turn": 13_960_050}


def plain_flop(hole: list[int], flop: list[int]) -> tuple[float, float]:
    """(EV checking, EV betting the Turn) of a flop with the Ante paid from a straight, River
    played optimally: every turn, river and dealer hand, one at a time."""
    x = dict.fromkeys((c for c in range(52) if c not in hole and c not in flop), 0)
    y = dict.fromkeys(x, 0)
    seven = np.zeros(7, np.int64)
    for turn, river in combinations(list(x), 2):
        board = [*flop, turn, river]
        seven[:] = [*hole, *board]
        mine = hm._value(seven, 7, RANK_KEY, ranks(7), flush())
        won = lost = 0
        for dealer in combinations([c for c in x if c not in (turn, river)], 2):
            seven[:] = [*dealer, *board]
            theirs = hm._value(seven, 7, RANK_KEY, ranks(7), flush())
            won += mine > theirs
            lost += mine < theirs
        paid = won if mine >> 20 >= hm.STRAIGHT else 0
        for t in (turn, river):  # either card may be the turn
            x[t] += paid + 2 * won - 3 * lost
            y[t] += won - lost
    check = sum(x[t] + max(y[t], 0) for t in x)
    return check / he.FLOP_UNIT, (check + sum(y.values())) / he.FLOP_UNIT


def test_a_flop_row_is_what_a_plain_loop_over_every_deal_after_it_gives(solved) -> None:  # type: ignore[no-untyped-def]
    _, path = solved
    dealt_hole, dealt_flop = cards("JD TD"), cards("9C 4D 2H")
    hole, board = hs.canonical(dealt_hole, dealt_flop)
    ((best, ev_bet, ev_no_bet),) = query(path, "SELECT best, ev_bet, ev_no_bet FROM STRATEGY WHERE ante_pays_from = 'straight' "
                                               "AND street = 'flop' AND hole = ? AND board = ?", hole, board)
    check, bet = plain_flop(dealt_hole, dealt_flop)
    assert (ev_no_bet, ev_bet) == (pytest.approx(check, abs=1e-12), pytest.approx(bet, abs=1e-12))
    assert best == ("bet" if bet > check else "check")


@pytest.mark.parametrize("street", ["flop", "turn"])
def test_the_rules_read_from_their_text_agree_with_exact_play_as_often_as_reported(solved, street: str) -> None:  # type: ignore[no-untyped-def]
    reports, path = solved
    seed = reports[0]
    rules = hr.StreetRules.from_dict(next(r for r in seed.street_rules if r["street"] == street))
    folds = set(seed.folds)
    rows = query(path, "SELECT * FROM (SELECT hand, hole, board, situations, best FROM STRATEGY WHERE ante_pays_from = 'straight' "
                       "AND street = ?) USING SAMPLE reservoir(20000 ROWS) REPEATABLE (7)", street)
    rows = [r for r in rows if r[0] not in folds]
    agree = sum(n for _, hole, board, n, best in rows if hr.rule_bets(rules, cards(hole), cards(board)) == (best == "bet"))
    assert abs(agree / sum(r[3] for r in rows) - rules.agreement) < 0.02
    assert rules.agreement > 0.85 and rules.ev_cost < 0.05


def test_a_random_deal_finds_its_row(solved) -> None:  # type: ignore[no-untyped-def]
    _, path = solved
    rng = random.Random(11)
    for _ in range(20):
        dealt = rng.sample(range(52), 6)
        hole, board = hs.canonical(dealt[:2], dealt[2:])
        assert len(query(path, "SELECT 1 FROM STRATEGY WHERE street = 'turn' AND hole = ? AND board = ?", hole, board)) == 2
