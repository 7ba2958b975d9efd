"""DuckDB work that ends: run in a worker thread while the calling thread waits, so that a time
limit, Ctrl-C or SIGTERM (which Python handles only in the main thread, and not while DuckDB holds
it) interrupts the query (``con.interrupt()``) and the command stops at once.

``tablectl query`` runs its SQL through :func:`within`, ``queries.connect`` its views and
``tablectl floor`` its report; the memory limit is DuckDB's own (``SET memory_limit``, set by
``queries.connect``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

import duckdb

T = TypeVar("T")

#: how long the work is given to stop once interrupted before the command goes on without it
STOP_WAIT = 1.5


class TimeLimitError(Exception):
    """The work ran past its time limit and was interrupted."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"stopped after {seconds:g} s")
        self.seconds = seconds


def within(con: duckdb.DuckDBPyConnection, work: Callable[[], T], seconds: float | None) -> T:
    """What ``work()`` (DuckDB work on *con*) returns, or raises, run in a worker thread. Past
    *seconds* (None: no limit) *con* is interrupted and :class:`TimeLimitError` raised; an
    exception raised in this thread meanwhile (``KeyboardInterrupt`` for Ctrl-C, ``SystemExit``
    for SIGTERM) interrupts *con* too and is raised again. Either way *con* is interrupted
    until the work stops (each query it still starts), for at most :data:`STOP_WAIT` seconds;
    then the work is left (a daemon thread)."""
    outcome: dict[str, Any] = {}
    done = threading.Event()

    def run() -> None:
        try:
            outcome["value"] = work()
        except BaseException as e:  # noqa: BLE001 (handed to the waiting thread, raised there)
            outcome["error"] = e
        finally:
            done.set()

    worker = threading.Thread(target=run, name="duckdb-work", daemon=True)
    deadline = None if seconds is None else time.monotonic() + seconds
    try:
        worker.start()  # a signal may land here already, the work begun
        while not done.wait(0.1 if deadline is None else max(0.0, min(0.1, deadline - time.monotonic()))):
            if deadline is not None and time.monotonic() >= deadline:
                raise TimeLimitError(seconds or 0.0)
    except BaseException:  # the time limit, or a signal's handler raised while waiting
        stop = time.monotonic() + STOP_WAIT
        # again and again: DuckDB forgets an interrupt when the next query starts, and the work
        # may have been between two queries, or about to start its first
        while True:
            con.interrupt()
            if done.wait(0.02):
                worker.join()  # DuckDB has let go: a thread still in it at exit would abort the process
                break
            if time.monotonic() >= stop:
                break
        raise
    worker.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]  # type: ignore[no-any-return]
