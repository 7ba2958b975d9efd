"""The full-deck count of Texas Hold'em Bonus with the dealer's hole cards seen, resumable.

The count takes hours of CPU (5,083 canonical triples, seconds each), so it runs only when asked
(``tablectl math texas-holdem-bonus --advantage``) and keeps each triple's result as it goes: one
JSON line per triple, flushed and fsynced, in the cache directory
(``holdem_strategy.cache_dir()``). A run that stops, for whatever reason, loses at most the
triple in progress; the next run reads the lines back (a torn last line is counted again) and
goes on. When every triple is counted the two figures are written to the advantage cache
(``advantage_cache``) and from then on ``tablectl math texas-holdem-bonus`` shows them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import numpy as np

from tablectl.gamemath import advantage_cache
from tablectl.gamemath.advantage import AdvantageFigure
from tablectl.gamemath.advantage_holdem import Triple, canonical_triples, count_triple, from_totals, totals

NAME = "texas-holdem-bonus-hole-card"
ANTE_PAYS_FROM = "straight"  # the seed rule, as the game's config has it by default
Progress = Callable[[int, int, int], None]  # (triples done, of, done in this run)


def _depends_on(ante_pays_from: str) -> str:
    return f"ante pays from a {ante_pays_from}"


def results_path(ante_pays_from: str = ANTE_PAYS_FROM, cache: Path | None = None) -> Path:
    """The file of per-triple results of a count (beside the finished figures' cache file)."""
    return advantage_cache.path_for(NAME, _depends_on(ante_pays_from), cache).with_suffix(".triples.jsonl")


def cached(ante_pays_from: str = ANTE_PAYS_FROM, cache: Path | None = None) -> list[AdvantageFigure]:
    """The figures if a count has finished on this machine, else none (never counts)."""
    path = advantage_cache.path_for(NAME, _depends_on(ante_pays_from), cache)
    try:
        return [AdvantageFigure.from_cache(d) for d in json.loads(path.read_text(encoding="utf-8"))]
    except FileNotFoundError:
        return []
    except (ValueError, KeyError, TypeError):
        return []


def read_results(path: Path) -> dict[Triple, tuple[int, np.ndarray]]:
    """The triples counted so far: weight and the kernel's sums; lines that do not parse (a torn
    last line) are left out, to be counted again."""
    done: dict[Triple, tuple[int, np.ndarray]] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return done
    for line in lines:
        try:
            row = json.loads(line)
            rep = (int(row["t"][0]), int(row["t"][1]), int(row["t"][2]))
            sums = np.array(row["r"], dtype=np.int64).reshape(2, -1)
            done[rep] = (int(row["w"]), sums)
        except (ValueError, KeyError, TypeError, IndexError):
            continue
    return done


def describe(done: int, of: int, this_run: int, elapsed: float) -> str:
    """``dealer hole cards seen: 120/5,083 triples (2%), 6.4 s each, ETA 8:49:10``."""
    text = f"dealer hole cards seen: {done:,}/{of:,} triples ({done * 100 // of}%)"
    if this_run and elapsed > 0:
        each = elapsed / this_run
        left = int(each * (of - done))
        text += f", {each:.1f} s each, ETA {left // 3600}:{left // 60 % 60:02d}:{left % 60:02d}"
    return text


def count(ante_pays_from: str = ANTE_PAYS_FROM, cache: Path | None = None, progress: Progress | None = None,
          limit: int | None = None, deck: list[int] | None = None) -> list[AdvantageFigure]:
    """Count the triples not yet counted (at most ``limit`` of them in this run), appending each
    result as it is found; the figures once every triple is counted (then cached), else none."""
    deck = list(range(52)) if deck is None else deck
    reps = canonical_triples(deck)
    path = results_path(ante_pays_from, cache)
    path.parent.mkdir(parents=True, exist_ok=True)
    done = read_results(path)
    todo = [(rep, w) for rep, w in reps if rep not in done]
    if limit is not None:
        todo = todo[:limit]
    with open(path, "ab") as out:
        if out.tell() and not path.read_bytes().endswith(b"\n"):
            out.write(b"\n")  # end a torn line, so the next result starts a line of its own
        for i, (rep, weight) in enumerate(todo):
            sums = count_triple(deck, rep, ante_pays_from)
            done[rep] = (weight, sums)
            row = {"t": list(rep), "w": weight, "r": sums.reshape(-1).tolist()}
            out.write(json.dumps(row).encode() + b"\n")
            out.flush()
            os.fsync(out.fileno())
            if progress:
                progress(len(done), len(reps), i + 1)
    if any(rep not in done for rep, _ in reps):
        return []
    figures = from_totals(totals(done[rep] for rep, _ in reps))
    return advantage_cache.load_or_compute(NAME, _depends_on(ante_pays_from), lambda: figures, cache)
