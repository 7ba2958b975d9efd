"""The full-deck count of Texas Hold'em Bonus with the dealer's hole cards seen, resumable.

The count takes hours of CPU (5,083 canonical triples for one card seen, about a second each,
then 93,769 canonical pairs of hands for both seen, a sixth of a second each), so it runs only
when asked (``tablectl math texas-holdem-bonus --advantage``) and keeps each unit's result as it
goes: one JSON line per unit, flushed and fsynced, in the cache directory
(``holdem_strategy.cache_dir()``). A run that stops, for whatever reason, loses at most the unit
in progress; the next run reads the lines back (a torn last line is counted again) and goes on.
When every unit is counted the two figures are written to the advantage cache
(``advantage_cache``) and from then on ``tablectl math texas-holdem-bonus`` shows them.
"""

from __future__ import annotations

import json
import multiprocessing
import os
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import numpy as np

from tablectl.files import open_for_append_nofollow
from tablectl.gamemath.advantage import cache as advantage_cache
from tablectl.gamemath.advantage.figure import AdvantageFigure
from tablectl.gamemath.advantage.holdem import count_unit, from_totals, totals, units

NAME = "texas-holdem-bonus-hole-card"
Unit = tuple[str, tuple[int, ...]]  # kind (``advantage_holdem.ONE`` or ``BOTH``) and representative
ANTE_PAYS_FROM = "straight"  # the seed rule, as the game's config has it by default
Progress = Callable[[int, int, int], None]  # (units done, of, done in this run)


def _depends_on(ante_pays_from: str) -> str:
    return f"ante pays from a {ante_pays_from}"


def results_path(ante_pays_from: str = ANTE_PAYS_FROM, cache: Path | None = None) -> Path:
    """The file of per-unit results of a count (beside the finished figures' cache file)."""
    return advantage_cache.path_for(NAME, _depends_on(ante_pays_from), cache).with_suffix(".units.jsonl")


def cached(ante_pays_from: str = ANTE_PAYS_FROM, cache: Path | None = None) -> list[AdvantageFigure]:
    """The figures if a count has finished on this machine, else none (never counts)."""
    path = advantage_cache.path_for(NAME, _depends_on(ante_pays_from), cache)
    try:
        return [AdvantageFigure.from_cache(d) for d in json.loads(path.read_text(encoding="utf-8"))]
    except FileNotFoundError:
        return []
    except (ValueError, KeyError, TypeError):
        return []


def read_results(path: Path) -> dict[Unit, tuple[int, np.ndarray]]:
    """The units counted so far: weight and the kernel's sums; lines that do not parse (a torn
    last line) are left out, to be counted again."""
    done: dict[Unit, tuple[int, np.ndarray]] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return done
    for line in lines:
        try:
            row = json.loads(line)
            unit = (str(row["k"]), tuple(int(c) for c in row["u"]))
            done[unit] = (int(row["w"]), np.array(row["r"], dtype=np.int64))
        except (ValueError, KeyError, TypeError, IndexError):
            continue
    return done


def describe(done: int, of: int, this_run: int, elapsed: float) -> str:
    """``dealer hole cards seen: 120/98,852 hands counted (0%), 0.9 s each, ETA 24:39:10``."""
    text = f"dealer hole cards seen: {done:,}/{of:,} hands counted ({done * 100 // of}%)"
    if this_run and elapsed > 0:
        each = elapsed / this_run
        left = int(each * (of - done))
        text += f", {each:.2f} s each, ETA {left // 3600}:{left // 60 % 60:02d}:{left % 60:02d}"
    return text


def _count_one(job: tuple[str, tuple[int, ...], int], deck: list[int], ante_pays_from: str) -> np.ndarray:
    kind, rep, _ = job
    return count_unit(deck, kind, rep, ante_pays_from)


def _counted(todo: list[tuple[str, tuple[int, ...], int]], deck: list[int], ante_pays_from: str,
             workers: int) -> Iterator[np.ndarray]:
    """Each unit's sums, in the order of ``todo``: counted here, or by ``workers`` processes
    (ended at once if the run is stopped: a unit is kept only once counted)."""
    one = partial(_count_one, deck=deck, ante_pays_from=ante_pays_from)
    if workers <= 1 or len(todo) < 2:
        yield from map(one, todo)
        return
    pool = multiprocessing.Pool(workers)
    try:
        yield from pool.imap(one, todo)
        pool.close()
    except BaseException:  # a stop (Ctrl-C, SIGTERM): the units in progress end now, counted again next run
        pool.terminate()
        raise
    finally:
        pool.join()


def count(ante_pays_from: str = ANTE_PAYS_FROM, cache: Path | None = None, progress: Progress | None = None,
          limit: int | None = None, deck: list[int] | None = None, workers: int = 1) -> list[AdvantageFigure]:
    """Count the units not yet counted (at most ``limit`` of them in this run; ``workers``
    processes at once), appending each result as it is found; the figures once every unit is
    counted (then cached), else none."""
    deck = list(range(52)) if deck is None else deck
    every = units(deck)
    path = results_path(ante_pays_from, cache)
    path.parent.mkdir(parents=True, exist_ok=True)
    done = read_results(path)
    todo = [(kind, rep, w) for kind, rep, w in every if (kind, rep) not in done]
    if limit is not None:
        todo = todo[:limit]
    with os.fdopen(open_for_append_nofollow(path, 0o644, "game math cache")[0], "ab") as out:  # never through a link
        if out.tell() and not path.read_bytes().endswith(b"\n"):
            out.write(b"\n")  # end a torn line, so the next result starts a line of its own
        for i, ((kind, rep, weight), sums) in enumerate(zip(todo, _counted(todo, deck, ante_pays_from, workers))):
            done[(kind, rep)] = (weight, sums)
            row = {"k": kind, "u": list(rep), "w": weight, "r": sums.tolist()}
            out.write(json.dumps(row).encode() + b"\n")
            out.flush()
            os.fsync(out.fileno())
            if progress:
                progress(len(done), len(every), i + 1)
    if any((kind, rep) not in done for kind, rep, _ in every):
        return []
    figures = from_totals(totals((kind, rep, *done[(kind, rep)]) for kind, rep, _ in every))
    return advantage_cache.load_or_compute(NAME, _depends_on(ante_pays_from), lambda: figures, cache)
