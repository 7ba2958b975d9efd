"""Helpers of the surveillance tests (``from exporthelpers import ...``): ``tablectl`` run as a
user runs it, in a subprocess."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import duckdb

from tablectl.analytics.dataset.schemas import SCHEMAS

THB_MAIN = Path(__file__).parent / "data" / "thb-main.json"  # the main game's stored analysis


@dataclass
class Done:
    """A finished ``tablectl`` run."""

    code: int
    out: str
    err: str


Tablectl = Callable[..., Done]


def run_tablectl(*args: str | Path, timeout: float = 600) -> Done:
    """``python -m tablectl ARGS`` of this interpreter; its exit code, stdout and stderr."""
    proc = subprocess.run([sys.executable, "-m", "tablectl", *map(str, args)], capture_output=True, text=True,
                          timeout=timeout)
    return Done(proc.returncode, proc.stdout, proc.stderr)


# figures an export takes over the log as far as it has read it (a shoe's shuffle-quality test, a
# device's event numbers): a row written by an earlier export keeps the figures of its time
SO_FAR = ("quality_", "event_no")


def play_and_export(root: Path, config: Path, rounds: int, *players: str, seed: int = 3) -> Path:
    """A signed simulated table of *config* played *rounds* rounds by the virtual dealer with the
    seat *players* (``SEAT:PROFILE``), exported: *root* holds ``keys``, ``logs`` and the dataset
    ``ds``."""
    assert run_tablectl("keygen", root / "keys").code == 0
    profiles = [arg for player in players for arg in ("--player", player)]
    done = run_tablectl("run", config, "--simulate", "--headless", "--autoplay", str(rounds), "--seed", str(seed),
                        "--log-dir", root / "logs", "--signing-key", root / "keys" / "table.key", *profiles)
    assert done.code == 0, done.err
    done = run_tablectl("export", root / "logs", "--to", root / "ds", "--key", root / "keys" / "table.pub")
    assert done.code == 0, done.err
    return root


def dataset_difference(mine: Path, fresh: Path, name: str) -> tuple[int, int, int]:
    """Rows of dataset *name* only in *mine*, only in *fresh* (as multisets), and in *fresh*."""
    columns = ", ".join(f'"{c}"' for c in ["table", "date", *SCHEMAS[name].names] if not c.startswith(SO_FAR))

    def rows(root: Path) -> str:
        return f"SELECT {columns} FROM read_parquet('{root}/{name}/*/*/*.parquet', hive_partitioning = true)"

    con = duckdb.connect()
    only_mine = con.execute(f"SELECT count(*) FROM ({rows(mine)} EXCEPT ALL {rows(fresh)})").fetchall()[0][0]
    only_fresh = con.execute(f"SELECT count(*) FROM ({rows(fresh)} EXCEPT ALL {rows(mine)})").fetchall()[0][0]
    total = con.execute(f"SELECT count(*) FROM ({rows(fresh)})").fetchall()[0][0]
    return only_mine, only_fresh, total
