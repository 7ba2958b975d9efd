"""DuckDB work that ends (``analytics.dataset.limits.within``), in this process on an in-memory
DuckDB: the work's answer or its error, a time limit that interrupts the query, and Ctrl-C that
does too (``test_query_limits.py`` runs ``tablectl query`` itself)."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from typing import Any

import duckdb
import pytest

from tablectl.analytics.dataset import limits
from tablectl.analytics.dataset.limits import TimeLimitError, within

ENDLESS = "SELECT sum(i) AS s FROM range(1000000000000000) t(i)"  # hours, in constant memory


@pytest.fixture
def con() -> Iterator[duckdb.DuckDBPyConnection]:
    c = duckdb.connect()
    yield c
    c.close()


def test_the_works_answer_is_returned(con: duckdb.DuckDBPyConnection) -> None:
    assert within(con, lambda: con.execute("SELECT 6 * 7").fetchone(), 10.0) == (42,)


def test_without_a_limit_the_work_runs_to_its_end(con: duckdb.DuckDBPyConnection) -> None:
    assert within(con, lambda: con.execute("SELECT count(*) FROM range(1000000)").fetchone(), None) == (1_000_000,)


def test_the_works_error_is_raised_in_the_caller(con: duckdb.DuckDBPyConnection) -> None:
    with pytest.raises(duckdb.CatalogException, match="no_such_table"):
        within(con, lambda: con.execute("SELECT * FROM no_such_table").fetchall(), 10.0)


def test_a_query_past_its_time_limit_is_interrupted_and_said_in_one_line(con: duckdb.DuckDBPyConnection) -> None:
    t0 = time.monotonic()
    with pytest.raises(TimeLimitError) as e:
        within(con, lambda: con.execute(ENDLESS).fetchone(), 0.3)
    took = time.monotonic() - t0
    assert 0.3 <= took < 0.3 + limits.STOP_WAIT
    assert str(e.value) == "stopped after 0.3 s" and e.value.seconds == 0.3
    assert con.execute("SELECT 1").fetchone() == (1,)  # the connection let go of the query


def test_ctrl_c_while_waiting_interrupts_the_query_and_is_raised_again(con: duckdb.DuckDBPyConnection) -> None:
    def ctrl_c(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGALRM, ctrl_c)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        t0 = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            within(con, lambda: con.execute(ENDLESS).fetchone(), None)
        assert time.monotonic() - t0 < 0.3 + limits.STOP_WAIT
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
    assert con.execute("SELECT 1").fetchone() == (1,)


def test_work_that_will_not_stop_is_left_behind_and_the_command_goes_on(con: duckdb.DuckDBPyConnection,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "STOP_WAIT", 0.2)
    t0 = time.monotonic()
    with pytest.raises(TimeLimitError):
        within(con, lambda: time.sleep(3), 0.1)  # not DuckDB's: the interrupt does not reach it
    assert time.monotonic() - t0 < 1.0
