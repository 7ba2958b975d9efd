"""``tablectl pit --demo N``: a whole floor on this machine in one command — the embedded broker,
N simulated tables (``demo_table``, one process each, autoplay at a pace a person can follow,
publishing their logs), the collector (``tablectl collect``, where ``tablectl.live`` provides it)
and, every few minutes, an export of the tables' logs for the floor report view. ``Demo`` is a
context manager: leaving it stops the tables (clean shutdowns), the collector and the broker."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self

from tablectl.pit.nats import live_broker

#: the table configs the demo tables cycle through (from the checkout's config/tables)
GAMES = ("one-card-poker", "three-card-poker", "one-for-the-money-csm", "three-card-poker-florida", "texas-holdem-bonus")


def configs_dir() -> Path:
    """The checkout's ``config/tables`` (the demo runs from a checkout)."""
    return Path(__file__).resolve().parents[3] / "config" / "tables"


def table_id(i: int) -> str:
    """The demo's i-th table (1-based)."""
    return f"demo-{i}"


@dataclass
class Demo:
    """N demo tables and what they need, under ``root`` (a temporary folder when None)."""

    tables: int
    root: Path | None = None
    pace: float = 0.1
    mistakes: float = 0.05
    seed: int = 1
    env: dict[str, str] | None = None  # the tables' environment (default: this process's)
    broker: Any = None  # a running broker to use (the demo starts and stops its own when None)
    procs: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    collector: subprocess.Popen[bytes] | None = None
    _tmp: Any = None
    _own_broker: bool = False

    @property
    def url(self) -> str:
        return str(self.broker.url)

    @property
    def logs(self) -> Path:
        assert self.root is not None
        return self.root / "logs"

    @property
    def dataset(self) -> Path:
        assert self.root is not None
        return self.root / "dataset"

    def __enter__(self) -> Self:
        if self.root is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="tablectl-pit-demo-")
            self.root = Path(self._tmp.name)
        self.root.mkdir(parents=True, exist_ok=True)
        if self.broker is None:
            self.broker, self._own_broker = live_broker(self.root / "broker"), True
            self.broker.__enter__()
        try:
            for i in range(1, self.tables + 1):
                self.start_table(i)
            self.start_collector()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def start_table(self, i: int) -> subprocess.Popen[bytes]:
        """Start (or start again) the demo's i-th table."""
        name = table_id(i)
        config = configs_dir() / f"{GAMES[(i - 1) % len(GAMES)]}.toml"
        proc = subprocess.Popen(
            [sys.executable, "-m", "tablectl.pit.demo_table", str(config), name, str(self.logs / name), self.url,
             "--seed", str(self.seed + i), "--pace", str(self.pace), "--mistakes", str(self.mistakes)],
            env=self.env, stdin=subprocess.DEVNULL)
        self.procs[name] = proc
        return proc

    def exits(self) -> dict[str, int | None]:
        """Each table's exit code (None: running), and the collector's."""
        out = {name: p.poll() for name, p in self.procs.items()}
        if self.collector is not None:
            out["collector"] = self.collector.poll()
        return out

    def stop_table(self, name: str, timeout: float = 15.0) -> None:
        proc = self.procs.pop(name, None)
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def start_collector(self) -> None:
        """``tablectl collect URL --to DIR`` when the live package provides it."""
        if importlib.util.find_spec("tablectl.commands.collect") is None:  # not in this tree
            return
        assert self.root is not None
        self.collector = subprocess.Popen([sys.executable, "-m", "tablectl", "collect", self.url, "--to", str(self.root / "collected")],
                                          env=self.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)

    def export(self) -> None:
        """Export the tables' logs to the demo's dataset (for the floor report view). Export takes
        only closed, signed logs: while a table deals, its log ends in lines no checkpoint signs
        yet, and the export refuses it (RuntimeError, its one line)."""
        dirs = [str(d) for d in sorted(self.logs.glob("*")) if d.is_dir() and any(d.glob("*.jsonl"))]
        if not dirs:
            return
        r = subprocess.run([sys.executable, "-m", "tablectl", "export", *dirs, "--to", str(self.dataset)],
                           env=self.env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300, check=False)
        if r.returncode != 0:
            lines = r.stderr.strip().splitlines()
            raise RuntimeError(lines[-1] if lines else f"tablectl export exited with {r.returncode}")

    def __exit__(self, *exc: object) -> None:
        for name in list(self.procs):
            with contextlib.suppress(Exception):
                self.procs[name].terminate()
        for name in list(self.procs):
            self.stop_table(name)
        if self.collector is not None and self.collector.poll() is None:
            self.collector.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.collector.wait(10)
        if self._own_broker:
            self.broker.__exit__(None, None, None)
        if self._tmp is not None:
            self._tmp.cleanup()


def child_env(**extra: str) -> dict[str, str]:
    """This process's environment with ``extra`` set."""
    return {**os.environ, **extra}


__all__ = ["GAMES", "Demo", "child_env", "configs_dir", "table_id"]
