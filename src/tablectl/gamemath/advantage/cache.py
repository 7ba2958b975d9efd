"""Advantage-play figures that take long to count (Three Card Poker's, half a minute or more),
computed once per machine and then read from the cache (``holdem_strategy.cache_dir()``:
``$XDG_CACHE_HOME/tablectl``, else ``~/.cache/tablectl``), one JSON file per game, keyed by a
version and by what the figures depend on. A cache file that cannot be read is counted again and
replaced."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

from tablectl.files import atomic_write
from tablectl.gamemath.advantage.figure import AdvantageFigure
from tablectl.gamemath.holdem.strategy import cache_dir

CACHE_VERSION = 1  # bump when the counting or the figures' shape changes


def path_for(name: str, depends_on: str, cache: Path | None = None) -> Path:
    """The cache file of the figures ``name`` computed under ``depends_on`` (e.g. a pay table)."""
    key = hashlib.sha256(json.dumps([CACHE_VERSION, name, depends_on]).encode()).hexdigest()[:16]
    return (cache or cache_dir()) / f"advantage-{name}-{key}.json"


def load(name: str, depends_on: str, cache: Path | None = None) -> list[AdvantageFigure] | None:
    """The figures from the cache; None when they are not there, or cannot be read (then they
    are counted again)."""
    try:
        stored = json.loads(path_for(name, depends_on, cache).read_text(encoding="utf-8"))
        return [AdvantageFigure.from_cache(d) for d in stored]
    except FileNotFoundError:
        return None
    except (ValueError, KeyError, TypeError):
        return None  # damaged or from another shape


def load_or_compute(
    name: str, depends_on: str, compute: Callable[[], list[AdvantageFigure]], cache: Path | None = None
) -> list[AdvantageFigure]:
    """The figures from the cache, or computed and stored (atomically, fsynced)."""
    found = load(name, depends_on, cache)
    if found is not None:
        return found
    figures = compute()
    path = path_for(name, depends_on, cache)
    path.parent.mkdir(parents=True, exist_ok=True)
    # a random hidden name beside it (O_EXCL), fsynced, renamed: whole or absent, never through a link
    atomic_write(path, json.dumps([f.to_cache() for f in figures]).encode(), 0o644, what="game math cache")
    return figures
