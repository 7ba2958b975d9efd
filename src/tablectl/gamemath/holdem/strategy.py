"""Texas Hold'em Bonus, the main game: the analysis a person reads — house edge, element of risk,
average total bet, how often each decision is made, the 169 starting hands to play or fold, and
the flop and turn strategy summarised by the hand the player holds — from the exact counts of
``holdem_main``. The full analysis runs once per machine and is cached on disk
(``$XDG_CACHE_HOME/tablectl``, else ``~/.cache/tablectl``), keyed by what it depends on.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from tablectl.files import NewFile, atomic_write
from tablectl.gamemath.table import BetAnalysis, Tally
from tablectl.rules.hand7 import CATEGORY_NAMES

CACHE_VERSION = 2  # bump when the counting or the report changes
Progress = Callable[[float], None]  # told the share of a solve done, 0 to 1
VARIANTS = ("straight", "flush")  # the Ante pays from: the seed / the Atlantic City rule
TURNS, RIVERS, DEALER_HANDS = 47, 46, 990
DEALS_AFTER_HOLE = 19600 * TURNS * RIVERS * DEALER_HANDS  # flops x turns x rivers x dealer hands, per starting hand


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tablectl"


@lru_cache(maxsize=1)
def _cache_key() -> str:
    what = json.dumps({"version": CACHE_VERSION, "variants": VARIANTS})
    return hashlib.sha256(what.encode()).hexdigest()[:16]


MAIN_BET = "main game (ante, flop, turn, river)"


@dataclass(frozen=True)
class MainGameAnalysis(BetAnalysis):
    """One variant of the main game (the Ante pays from a straight, or from a flush) under
    optimal play: the outcomes per Ante, and what a person reads besides the house edge."""

    element_of_risk: Fraction = Fraction(0)  # the house edge per unit of all money wagered
    average_bet: Fraction = Fraction(0)  # Ante + Flop + Turn + River, in Antes, per hand dealt
    decisions: dict[str, float] = field(default_factory=dict)  # how often: fold, flop/turn/river bet
    preflop: list[dict[str, Any]] = field(default_factory=list)  # the 169 starting hands: hand, play, ev
    flop: list[dict[str, Any]] = field(default_factory=list)  # Turn bet share by the hand held after the flop
    turn: list[dict[str, Any]] = field(default_factory=list)  # River bet share by the hand held after the turn
    street_rules: list[dict[str, Any]] = field(default_factory=list)  # flop and turn rules (holdem_rules.StreetRules)

    def to_dict(self) -> dict[str, Any]:
        data = super().to_dict()
        data.update({
            "element_of_risk": float(self.element_of_risk),
            "average_total_bet": float(self.average_bet),
            "decisions": self.decisions,
            "preflop": self.preflop,
            "flop_strategy": self.flop,
            "turn_strategy": self.turn,
            "street_rules": self.street_rules,
        })  # fmt: skip
        return data

    @property
    def folds(self) -> list[str]:
        return [p["hand"] for p in self.preflop if not p["play"]]


def cached(cache: Path | None = None) -> list[MainGameAnalysis] | None:
    """The analysis if this machine has it already, else None (nothing is computed; a FIFO or a
    device in its place is not read). Each version of the file (its length and time of change) is
    read once: an export asks at every decision."""
    stored = _files(cache or cache_dir())[0]
    try:
        found = stored.stat()
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(found.st_mode):
        return None
    return _read_version(stored, found.st_size, found.st_mtime_ns)


@lru_cache(maxsize=4)
def _read_version(stored: Path, size: int, changed_ns: int) -> list[MainGameAnalysis] | None:
    return _read(stored)


def _read(stored: Path) -> list[MainGameAnalysis] | None:
    """The cached analysis; None if there is none (or what is there cannot be read: solved again)."""
    try:
        return [_from_dict(d) for d in json.loads(stored.read_text(encoding="utf-8"))]
    except FileNotFoundError:
        return None
    except (ValueError, KeyError, TypeError):
        return None


def analyse(cache: Path | None = None, *, strategy_file: Path | None = None, export: Path | None = None,
            progress: Progress | None = None) -> list[MainGameAnalysis]:
    """The main game's analysis for both variants (from the cache when it is there; else solved,
    ``progress`` told the share done as it goes, and cached). ``export``: also write the exact
    strategy there (``holdem_export``: Parquet or CSV), which solves the game again (its values
    are not cached). Each cache file is written whole or not at all (an interrupted solve leaves
    none), the decisions first: the analysis's file is there only with them."""
    from tablectl.gamemath.holdem import export as holdem_export

    if export is not None:
        holdem_export.check_path(export)
    folder = cache or cache_dir()
    stored, decisions_file = _files(folder)
    reports = _ready(folder, strategy_file, export)
    if reports is None:
        reports, arrays, table = _run(with_table=export is not None, progress=progress)
        with NewFile(folder, 0o644, folder_mode=0o755, what="game math cache") as new:
            np.savez_compressed(new.file, **arrays)
            new.commit(decisions_file.name)
        atomic_write(stored, json.dumps([_to_cache(r) for r in reports]).encode(), 0o644, what="game math cache")
        if export is not None and table is not None:
            holdem_export.write(table, export)
    if strategy_file is not None:
        atomic_write(strategy_file, decisions_file.read_bytes(), 0o644, what="strategy file")
    return reports


def will_solve(cache: Path | None = None, *, strategy_file: Path | None = None, export: Path | None = None) -> bool:
    """Whether ``analyse`` with these solves the game (under a minute of CPU) rather than read it
    from the cache."""
    return _ready(cache or cache_dir(), strategy_file, export) is None


def _files(folder: Path) -> tuple[Path, Path]:
    """The cached analysis (JSON) and decisions (``.npz``) in ``folder``."""
    return folder / f"thb-main-{_cache_key()}.json", folder / f"thb-main-{_cache_key()}.npz"


def _ready(folder: Path, strategy_file: Path | None, export: Path | None) -> list[MainGameAnalysis] | None:
    """The cached analysis if it serves (an export never is; a strategy file needs the decisions)."""
    stored, decisions_file = _files(folder)
    if export is not None or (strategy_file is not None and not decisions_file.exists()):
        return None
    return _read(stored)


def derive_street_rules(weights: np.ndarray, play: np.ndarray, flop_tally: np.ndarray,
                        turn_tally: np.ndarray) -> list[dict[str, Any]]:
    """The flop and turn rules of one Ante rule (the starting hands it plays) from the solve's
    per-hand tallies (``holdem_rules.tally_cells``), measured against its exact values."""
    from tablectl.gamemath.holdem import rules as hr
    from tablectl.gamemath.holdem.export import FLOP_UNIT, TURN_UNIT

    return [hr.derive(street, hr.weigh(tally, weights, play), unit).to_dict()
            for street, tally, unit in (("flop", flop_tally, FLOP_UNIT), ("turn", turn_tally, TURN_UNIT))]


def _run(with_table: bool = False, progress: Progress | None = None) -> tuple[list[MainGameAnalysis], dict[str, np.ndarray], Any]:
    """Solve: the reports, the decision arrays (the ``.npz``) and, if asked, the strategy table."""
    from tablectl.gamemath.holdem.solve import solve

    solution = solve(progress, keep_nodes=with_table)
    reps, weights, labels = solution.reps, solution.weights, solution.labels
    reports = []
    arrays: dict[str, np.ndarray] = {"hands": np.array(labels), "representatives": reps}
    for v, (variant, d) in enumerate(zip(VARIANTS, solution.decisions)):
        play = d.play_sum > -DEALS_AFTER_HOLE
        shares = np.einsum("r,rsck->sck", weights * play, solution.shares[..., [0, 1 + v]])
        rules = derive_street_rules(weights, play, solution.flop_tally, solution.turn_tally)
        reports.append(replace(report(variant, reps, weights, labels, d, shares), street_rules=rules))
        arrays[f"{variant}_play"] = play
        arrays[f"{variant}_turn_bet"] = d.turn_bet
        arrays[f"{variant}_river_bet"] = d.river_bet
    table = None
    if with_table:
        from tablectl.gamemath.holdem.export import Solved, strategy_table

        nodes = solution.nodes
        assert nodes is not None
        won, lost = nodes.won.astype(np.int32), nodes.lost.astype(np.int32)
        turn_y = won - lost
        solved = [Solved(variant, d.play_sum, d.flop_y, d.flop_check,
                         nodes.won_qualified[variant].astype(np.int32) + 2 * won - 3 * lost, turn_y)
                  for variant, d in zip(VARIANTS, solution.decisions)]
        table = strategy_table(reps, weights, labels, solved)
    return reports, arrays, table


def report(variant: str, reps: np.ndarray, weights: np.ndarray, labels: list[str], d: Any,
           shares: np.ndarray) -> MainGameAnalysis:
    """One variant's report from its decisions (``holdem_main.Decisions``) and the category
    counts of the hands it plays (``shares[street, category]`` = [boards met, boards with a
    bet], weighted by deals)."""
    from tablectl.gamemath.holdem import main as hm

    tally = Tally()
    deals = int(weights.sum()) * DEALS_AFTER_HOLE
    play = d.play_sum > -DEALS_AFTER_HOLE
    folds = plays = turn_bets = river_bets = 0
    preflop = []
    for r, label in enumerate(labels):
        w = int(weights[r])
        preflop.append({"hand": label, "play": bool(play[r]), "ev": float(Fraction(int(d.play_sum[r]), DEALS_AFTER_HOLE))})
        if not play[r]:
            tally.add("fold", -1, w * DEALS_AFTER_HOLE)
            folds += w * DEALS_AFTER_HOLE
            continue
        plays += w * DEALS_AFTER_HOLE
        for bets in range(3):
            tally.add(f"win, Ante paid, {bets} more bet(s)", 3 + bets, w * int(d.tally[r, 0, bets]))
            tally.add(f"win, Ante pushed, {bets} more bet(s)", 2 + bets, w * int(d.tally[r, 1, bets]))
            tally.add(f"loss, {bets} more bet(s)", -(3 + bets), w * int(d.tally[r, 2, bets]))
            tally.add("tie", 0, w * int(d.tally[r, 3, bets]))
        # a Turn bet is made on a flop: 47 x 46 x 990 deals follow; a River bet on a turn node,
        # which 4 flops lead to (any of its cards may be the turn): 4 x 46 x 990 deals each
        turn_bets += w * int(d.turn_bet[r].sum()) * hm.TURNS * hm.RIVERS * hm.DEALER_HANDS
        river_bets += w * int(d.river_bet[r].sum()) * 4 * hm.RIVERS * hm.DEALER_HANDS
    rules = {"ante_pays_from": variant, "strategy": "optimal"}
    play_share, turn_share, river_share = Fraction(plays, deals), Fraction(turn_bets, deals), Fraction(river_bets, deals)
    average = 1 + 2 * play_share + turn_share + river_share
    outcomes = tally.lines()
    edge = BetAnalysis(MAIN_BET, rules, outcomes).house_edge
    return MainGameAnalysis(
        MAIN_BET, rules, outcomes, (), edge / average, average,
        {"fold": float(Fraction(folds, deals)), "flop_bet": float(play_share), "turn_bet": float(turn_share),
         "river_bet": float(river_share)},
        preflop, _shares(shares[0]), _shares(shares[1]),
    )


def _shares(counts: np.ndarray) -> list[dict[str, Any]]:
    """Per hand category (those that occur): how often it is met and the share with a bet."""
    total = int(counts[:, 0].sum())
    return [
        {"hand": CATEGORY_NAMES[cat], "share_of_boards": int(n) / total, "share_bet": int(n_bet) / int(n)}
        for cat, (n, n_bet) in enumerate(counts) if n
    ]


def _to_cache(r: MainGameAnalysis) -> dict[str, Any]:
    return {
        "rules": r.rules, "outcomes": [[line.outcome, str(line.pays), line.combinations] for line in r.outcomes],
        "element_of_risk": str(r.element_of_risk), "average_bet": str(r.average_bet),
        "decisions": r.decisions, "preflop": r.preflop, "flop": r.flop, "turn": r.turn, "street_rules": r.street_rules,
    }  # fmt: skip


def _from_dict(d: dict[str, Any]) -> MainGameAnalysis:
    from tablectl.gamemath.table import OutcomeLine

    outcomes = tuple(OutcomeLine(o, Fraction(p), n) for o, p, n in d["outcomes"])
    return MainGameAnalysis(MAIN_BET, d["rules"], outcomes, (), Fraction(d["element_of_risk"]), Fraction(d["average_bet"]),
                            d["decisions"], d["preflop"], d["flop"], d["turn"], d.get("street_rules", []))


__all__ = ["MAIN_BET", "MainGameAnalysis", "Progress", "analyse", "cache_dir", "cached", "derive_street_rules", "report",
           "will_solve"]
