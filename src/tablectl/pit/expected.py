"""The approved math's house edge of each wager, for a tile's expected hold: the approved set that
judges a table's logged rules (``tablectl.analytics.approved.verdict``, as the floor report picks
it) and that set's exact wager math (``tablectl.analytics.expected.wager_math``). Nothing is
recomputed here. The math is worked out off the event loop (a fraction of a second per game the
first time); until it is ready, and for Texas Hold'em Bonus on a machine that has not analysed its
main game yet (``tablectl math texas-holdem-bonus``, minutes), a tile shows no expected hold."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import orjson

from tablectl.analytics import approved as ap
from tablectl.analytics.expected import wager_math

THB = "texas-holdem-bonus"


def edges_now(approved: ap.Approved, game: str, decks: int | None, rules: dict[str, Any] | None) -> dict[str, float | None] | None:
    """Wager -> house edge under the approved set judging ``rules`` (None: not judged)."""
    verdict = ap.verdict(approved, game, decks, rules)
    if verdict.judged_by is None:
        return None
    if game == THB:
        from tablectl.gamemath.holdem import strategy

        if strategy.cached() is None:
            return None
    return {m.wager: m.edge for m in wager_math(game, decks, verdict.judged_by.rules)}


class EdgeBook:
    """:data:`tablectl.pit.state.Edges` that never blocks: the first ask for a rule set starts its
    math in a worker thread and answers None; later asks answer from the result."""

    def __init__(self, approved_path: Path | None = None) -> None:
        self.approved = ap.load(approved_path or ap.shipped_path())
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="pit-math")
        self._found: dict[str, Future[dict[str, float | None] | None]] = {}
        self._lock = threading.Lock()

    def __call__(self, game: str, decks: int | None, rules: dict[str, Any] | None) -> Mapping[str, float | None] | None:
        key = orjson.dumps([game, decks, rules], option=orjson.OPT_SORT_KEYS).decode()
        with self._lock:
            fut = self._found.get(key)
            if fut is None:
                fut = self._found[key] = self._pool.submit(edges_now, self.approved, game, decks, rules)
        if not fut.done() or fut.exception() is not None:
            return None
        return fut.result()

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


__all__ = ["EdgeBook", "edges_now"]
