"""Texas Hold'em Bonus's exact strategy as a self-describing table (Parquet or CSV).

One row per decision situation up to suits (``holdem_situations``) and Ante rule: the street
(``preflop``: play with the Flop bet 2x or fold; ``flop``: the Turn bet 1x or check; ``turn``:
the River bet 1x or check), the cards as the log writes them, how many dealt situations the row
stands for, the best action and the EV of betting and of not betting, in Antes, for the whole
hand from the deal with optimal play afterwards. At the turn the EVs leave the Turn bet out: a
Turn bet made adds ``ev_bet - ev_no_bet`` to both (it is settled as the River bet is). The
columns are described in docs/rules.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from tablectl.cards import text
from tablectl.files import NewFile
from tablectl.gamemath.holdem import situations as hs
from tablectl.gamemath.holdem.main import BINOM, DEALER_HANDS, FLOPS, RIVERS, TURNS

FORMATS = (".parquet", ".csv")
FILE_MODE = 0o644  # the strategy is public math: readable by all, writable by its owner only
FLOP_UNIT = TURNS * RIVERS * DEALER_HANDS  # a flop's counts are per Ante times this
TURN_UNIT = RIVERS * DEALER_HANDS
PREFLOP_UNIT = FLOPS * FLOP_UNIT


@dataclass(frozen=True)
class Solved:
    """One Ante rule's exact values, per starting hand (rows) and board (colex index): the
    pre-flop play sum (``holdem_main.Decisions.play_sum``), ``flop_values``'s two arrays, and
    the turn nodes' X (the hand's result with no Turn or River bet) and Y (what each of those
    bets adds), all integer counts."""

    variant: str
    play_sum: np.ndarray
    flop_y: np.ndarray
    flop_check: np.ndarray
    turn_x: np.ndarray
    turn_y: np.ndarray


def _board_text(boards: np.ndarray) -> pa.Array:
    """Boards (rows sorted ascending) as text, highest card first."""
    names = pa.array([text(c) for c in range(52)])
    columns = [pc.take(names, pa.array(boards[:, i])) for i in range(boards.shape[1] - 1, -1, -1)]
    return pc.binary_join_element_wise(*columns, " ")


def _colex(boards: np.ndarray) -> np.ndarray:
    return sum(BINOM[boards[:, i], i + 1] for i in range(boards.shape[1]))  # type: ignore[no-any-return]


def strategy_table(reps: np.ndarray, weights: np.ndarray, labels: list[str], solved: list[Solved]) -> pa.Table:
    """The table: for each Ante rule, pre-flop, flop and turn situations (canonical ones only)."""
    holes = [hs.cards_text([int(reps[r, 0]), int(reps[r, 1])]) for r in range(len(labels))]
    streets: dict[int, list[tuple[int, np.ndarray, np.ndarray, np.ndarray]]] = {3: [], 4: []}
    for r in range(len(labels)):
        c1, c2 = int(reps[r, 0]), int(reps[r, 1])
        perms = hs.stabiliser(c1, c2)
        for n in (3, 4):
            boards, sizes = hs.canonical_boards(c1, c2, n, perms, BINOM)
            streets[n].append((r, boards, sizes * int(weights[r]), _colex(boards)))
    texts = {n: pa.concat_arrays([_board_text(b) for _, b, _, _ in streets[n]]) for n in (3, 4)}
    batches = []
    for s in solved:
        rows = np.arange(len(labels))
        ev_play = s.play_sum / PREFLOP_UNIT
        batches.append(_batch(s.variant, "preflop", rows, labels, holes, pa.array([""] * len(labels)), weights,
                              ev_play > -1, ev_play, np.full(len(labels), -1.0), ("play", "fold")))
        for n, street in ((3, "flop"), (4, "turn")):
            hand_rows = np.concatenate([np.full(len(idx), r) for r, _, _, idx in streets[n]])
            index = np.concatenate([idx for _, _, _, idx in streets[n]])
            counts = np.concatenate([sz for _, _, sz, _ in streets[n]])
            if n == 3:
                gain, base, unit = s.flop_y[hand_rows, index], s.flop_check[hand_rows, index], FLOP_UNIT
            else:
                gain, base, unit = s.turn_y[hand_rows, index], s.turn_x[hand_rows, index], TURN_UNIT
            no_bet = base.astype(np.float64) / unit
            batches.append(_batch(s.variant, street, hand_rows, labels, holes, texts[n], counts, gain > 0,
                                  no_bet + gain.astype(np.float64) / unit, no_bet, ("bet", "check")))
    return pa.concat_tables(batches)


def _batch(variant: str, street: str, hand_rows: np.ndarray, labels: list[str], holes: list[str], boards: pa.Array,
           situations: np.ndarray, bet: np.ndarray, ev_bet: np.ndarray, ev_no_bet: np.ndarray,
           actions: tuple[str, str]) -> pa.Table:
    n = len(hand_rows)
    index = pa.array(hand_rows.astype(np.int32))
    return pa.table({
        "ante_pays_from": pa.DictionaryArray.from_arrays(pa.array(np.zeros(n, np.int32)), pa.array([variant])),
        "street": pa.DictionaryArray.from_arrays(pa.array(np.zeros(n, np.int32)), pa.array([street])),
        "hand": pa.DictionaryArray.from_arrays(index, pa.array(labels)),
        "hole": pa.DictionaryArray.from_arrays(index, pa.array(holes)),
        "board": boards,
        "situations": pa.array(situations.astype(np.int64)),
        "best": pa.DictionaryArray.from_arrays(pa.array(np.where(bet, 0, 1).astype(np.int32)), pa.array(list(actions))),
        "ev_bet": pa.array(ev_bet.astype(np.float64)),
        "ev_no_bet": pa.array(ev_no_bet.astype(np.float64)),
    })  # fmt: skip


def check_path(path: Path) -> None:
    """Refuse a path the export cannot write, before minutes of solving."""
    if path.suffix.lower() not in FORMATS:
        raise ValueError(f"--export-strategy {path}: the file name must end in .parquet or .csv")
    if not path.parent.is_dir():
        raise ValueError(f"--export-strategy {path}: no such folder {path.parent}")


def write(table: pa.Table, path: Path) -> None:
    """Write ``table`` to ``path`` (Parquet or CSV by the suffix) whole or not at all: a random
    hidden name beside it (``O_EXCL``), fsynced and renamed over it, never through a link."""
    check_path(path)
    with NewFile(path.parent, FILE_MODE, what="strategy export") as new:
        if path.suffix.lower() == ".parquet":
            import pyarrow.parquet as pq

            pq.write_table(table, new.file, compression="zstd")
        else:
            import pyarrow.csv as pcsv

            plain = table.cast(pa.schema([pa.field(f.name, pa.string() if pa.types.is_dictionary(f.type) else f.type)
                                          for f in table.schema]))
            pcsv.write_csv(plain, new.file)
        new.commit(path.name)


__all__ = ["FORMATS", "Solved", "check_path", "strategy_table", "write"]
