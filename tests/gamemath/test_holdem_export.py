"""Texas Hold'em Bonus's exact strategy exported as a table any tool reads: written from a
small stand-in (one starting hand, made-up counts) and read back with DuckDB and pyarrow. The
export of the real solve is checked in the slow test (test_holdem_strategy_full.py)."""

from __future__ import annotations

from itertools import permutations
from pathlib import Path

import duckdb
import numpy as np
import pyarrow.parquet as pq
import pytest

from tablectl.cards import cards
from tablectl.gamemath.holdem import export as he
from tablectl.gamemath.holdem import main as hm
from tablectl.gamemath.holdem import situations as hs

REPS, WEIGHTS, LABELS = hm.starting_hands()
R = LABELS.index("T9s")


@pytest.fixture(scope="module")
def stand_in() -> tuple[np.ndarray, np.ndarray, np.ndarray, he.Solved]:
    """Made-up turn-node counts for T9s alone, carried through the solver's own flop pass."""
    rng = np.random.default_rng(5)
    won = rng.integers(0, 30000, size=(1, hm.NODES), dtype=np.int32)
    lost = rng.integers(0, 30000, size=(1, hm.NODES), dtype=np.int32)
    qualified = (won * rng.random((1, hm.NODES)) * 0.2).astype(np.int32)
    counts = hm.NodeCounts(won.astype(hm.COUNT_DTYPE), lost.astype(hm.COUNT_DTYPE),
                           {"straight": qualified.astype(hm.COUNT_DTYPE)})
    d = hm.decisions(REPS[[R]], counts, "straight")
    return won[0], lost[0], qualified[0], he.Solved("straight", d.play_sum, d.flop_y, d.flop_check,
                                                    qualified + 2 * won - 3 * lost, won - lost)


@pytest.fixture(scope="module")
def exported(stand_in: tuple[np.ndarray, np.ndarray, np.ndarray, he.Solved], tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("export")
    table = he.strategy_table(REPS[[R]], WEIGHTS[[R]], [LABELS[R]], [stand_in[3]])
    he.write(table, folder / "thb.parquet")
    he.write(table, folder / "thb.csv")
    return folder


def node(cards_: list[int]) -> int:
    return sum(int(hm.BINOM[c, i + 1]) for i, c in enumerate(sorted(cards_)))


def row(path: Path, street: str, hole: str, board: str) -> tuple[str, int, float, float]:
    return duckdb.execute(f"SELECT best, situations, ev_bet, ev_no_bet FROM '{path}' WHERE street = ? AND hole = ? AND board = ?",
                          [street, hole, board]).fetchall()[0]  # fmt: skip


def dealt_situations(hole: list[int], board: list[int]) -> int:
    """How many dealt (hole, board) situations a suit renaming turns these cards into."""
    return len({(frozenset(p[c & 3] | c >> 2 << 2 for c in hole), frozenset(p[c & 3] | c >> 2 << 2 for c in board))
                for p in permutations(range(4))})


def test_a_flop_row_holds_the_evs_a_plain_loop_over_the_turns_gives(stand_in, exported: Path) -> None:  # type: ignore[no-untyped-def]
    won, lost, qualified, _ = stand_in
    dealt_hole, dealt_flop = cards("TH 9H"), cards("8H 7C 2D")
    hole, board = hs.canonical(dealt_hole, dealt_flop)
    flop = cards(board)
    value = gain = 0
    for turn in (c for c in range(52) if c not in cards(hole) and c not in flop):
        n = node([*flop, turn])
        y = int(won[n]) - int(lost[n])
        value += int(qualified[n]) + 2 * int(won[n]) - 3 * int(lost[n]) + max(y, 0)
        gain += y
    best, situations, ev_bet, ev_no_bet = row(exported / "thb.parquet", "flop", hole, board)
    assert ev_no_bet == pytest.approx(value / he.FLOP_UNIT, abs=1e-12)
    assert ev_bet == pytest.approx((value + gain) / he.FLOP_UNIT, abs=1e-12)
    assert best == ("bet" if gain > 0 else "check")
    assert situations == dealt_situations(dealt_hole, dealt_flop)


def test_a_turn_row_holds_the_turn_nodes_values_without_a_turn_bet(stand_in, exported: Path) -> None:  # type: ignore[no-untyped-def]
    won, lost, qualified, _ = stand_in
    hole, board = hs.canonical(cards("9C TC"), cards("JD 8C 3H 3S"))
    n = node(cards(board))
    x, y = int(qualified[n]) + 2 * int(won[n]) - 3 * int(lost[n]), int(won[n]) - int(lost[n])
    best, _, ev_bet, ev_no_bet = row(exported / "thb.parquet", "turn", hole, board)
    assert (ev_no_bet, ev_bet) == (pytest.approx(x / he.TURN_UNIT), pytest.approx((x + y) / he.TURN_UNIT))
    assert best == ("bet" if y > 0 else "check")


def test_the_rows_stand_for_every_deal_of_the_hand_once(exported: Path) -> None:
    counts = dict(duckdb.execute(f"SELECT street, sum(situations) FROM '{exported / 'thb.parquet'}' GROUP BY street").fetchall())
    assert counts == {"preflop": 4, "flop": 4 * 19600, "turn": 4 * 230300}


def test_the_csv_holds_the_same_rows_as_the_parquet(exported: Path) -> None:
    query = "SELECT street, hole, board, situations, best, ev_bet FROM '{}' ORDER BY street, board"
    assert duckdb.execute(query.format(exported / "thb.csv")).fetchall()[:50] == duckdb.execute(query.format(exported / "thb.parquet")).fetchall()[:50]


def test_the_columns_are_named_and_the_cards_are_text(exported: Path) -> None:
    table = pq.read_table(exported / "thb.parquet")
    assert table.column_names == ["ante_pays_from", "street", "hand", "hole", "board", "situations", "best", "ev_bet", "ev_no_bet"]
    first = table.slice(0, 1).to_pylist()[0]
    assert first["street"] == "preflop" and first["hole"] == "TS 9S" and first["hand"] == "T9s"
