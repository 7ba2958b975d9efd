"""The worker that runs ``query``'s and ``floor``'s DuckDB work (``limits.within``) stops when its
time runs out or a signal lands even if the work was between two queries then: DuckDB forgets an
interrupt when the next query starts, so the connection is interrupted until the work has ended."""

from __future__ import annotations

import threading

import duckdb
import pytest

from tablectl.analytics.dataset.limits import TimeLimitError, within

ENDLESS = "SELECT sum(i) FROM range(1000000000000000) t(i)"


class Watched:
    """A connection's ``interrupt`` as ``within`` calls it, told to the test."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con, self.interrupted = con, threading.Event()

    def interrupt(self) -> None:
        self.con.interrupt()
        self.interrupted.set()


def test_a_query_started_after_the_interrupt_is_stopped_too() -> None:
    con = duckdb.connect()
    watched = Watched(con)
    ended: list[BaseException] = []
    worker: list[threading.Thread] = []

    def work() -> None:
        worker.append(threading.current_thread())
        watched.interrupted.wait(60)  # between two queries when the time runs out
        try:
            con.execute(ENDLESS).fetchall()
        except BaseException as e:
            ended.append(e)
            raise

    try:
        with pytest.raises(TimeLimitError):
            within(watched, work, 0.05)  # type: ignore[arg-type]
        assert len(ended) == 1 and isinstance(ended[0], duckdb.InterruptException), ended
        assert not worker[0].is_alive()
    finally:
        while worker and worker[0].is_alive():  # (the code before left it running: stop it here)
            con.interrupt()
            worker[0].join(0.05)
