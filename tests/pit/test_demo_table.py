"""One table of ``tablectl pit --demo`` (``pit.demo_table.main``), run in this process: the table on
simulated devices, dealt by the virtual dealer, its signed log handed to a publisher for the
stream (here one that records what it is asked), and a clean shutdown at the end or on SIGTERM."""

from __future__ import annotations

import json
import signal
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

from tablectl.pit import demo_table

CONFIG = Path(__file__).parents[2] / "config" / "tables" / "one-card-poker.toml"
URL = "nats://127.0.0.1:9"


class Publisher:
    """Stands in for ``tablectl.live.publish.Publisher``: what it was given, and the log as it
    stood when it was told to stop."""

    made: ClassVar[list[Publisher]] = []

    def __init__(self, url: str, log_dir: Path, table: str, *args: Any, **kwargs: Any) -> None:
        self.url, self.log_dir, self.table = url, log_dir, table
        self.started = False
        self.drain: float | None = None
        self.log_at_stop: list[dict[str, Any]] = []
        Publisher.made.append(self)

    def start(self) -> Publisher:
        self.started = True
        return self

    def stop(self, drain: float = 0.0) -> None:
        self.drain, self.log_at_stop = drain, records(self.log_dir)


def records(log_dir: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for f in sorted(log_dir.glob("tablectl-*.jsonl")) for line in f.read_text().splitlines()]


@dataclass
class Run:
    code: int
    log_dir: Path
    publisher: Publisher

    @property
    def log(self) -> list[dict[str, Any]]:
        return records(self.log_dir)


@pytest.fixture
def run_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    from tablectl.live import publish

    monkeypatch.setattr(publish, "Publisher", Publisher)
    handlers = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)

    def run(table: str, *args: str) -> Run:
        Publisher.made.clear()
        log_dir = tmp_path / "logs" / table
        code = demo_table.main([str(CONFIG), table, str(log_dir), URL, "--pace", "0", *args])
        assert len(Publisher.made) == 1
        return Run(code, log_dir, Publisher.made[0])

    yield run
    signal.signal(signal.SIGTERM, handlers[0])
    signal.signal(signal.SIGINT, handlers[1])


def test_a_demo_table_plays_its_rounds_and_closes_its_log_with_the_shutdown_checkpoint(run_table: Any) -> None:
    done = run_table("demo-7", "--rounds", "2", "--seed", "3")
    assert done.code == 0
    log = done.log
    assert {r["table"] for r in log} == {"demo-7"}
    assert next(r for r in log if r["event"] == "table_started")["game"] == "one-card-poker"
    assert [r["round"] for r in log if r["event"] == "round_ended"] == [1, 2]
    assert [r["event"] for r in log[-3:]] == ["table_stopped", "state", "checkpoint"]
    assert log[-1]["reason"] == "shutdown"
    assert [r["seq"] for r in log] == list(range(1, len(log) + 1))


def test_its_log_goes_to_the_stream_through_its_tables_publisher_drained_after_the_shutdown(run_table: Any) -> None:
    done = run_table("demo-8", "--rounds", "1")
    p = done.publisher
    assert (p.url, p.log_dir, p.table, p.started) == (URL, done.log_dir, "demo-8", True)
    assert p.drain is not None and p.drain > 0  # given time to send the last lines
    assert p.log_at_stop and p.log_at_stop[-1]["event"] == "checkpoint"  # the shutdown written before the drain


def test_sigterm_stops_the_table_cleanly_and_exits_0(run_table: Any, tmp_path: Path) -> None:
    import os

    before = signal.getsignal(signal.SIGTERM)
    log_dir = tmp_path / "logs" / "demo-9"
    stop_watching = threading.Event()

    def terminate_once_dealing() -> None:  # never before the table's own handler is there (the default kills pytest)
        while not stop_watching.wait(0.02):
            dealing = any('"event":"round_started"' in f.read_text() for f in log_dir.glob("tablectl-*.jsonl"))
            if dealing and signal.getsignal(signal.SIGTERM) is not before:
                os.kill(os.getpid(), signal.SIGTERM)
                return

    watcher = threading.Thread(target=terminate_once_dealing)
    watcher.start()
    try:
        done = run_table("demo-9", "--pace", "0.02", "--rounds", "300")  # ended by the signal long before 300
    finally:
        stop_watching.set()
        watcher.join()
    assert done.code == 0
    log = done.log
    assert 1 <= sum(r["event"] == "round_started" for r in log) < 300
    assert log[-1]["event"] == "checkpoint" and log[-1]["reason"] == "shutdown"
    assert next(r for r in log if r["event"] == "table_stopped")["reason"] == "stop"
