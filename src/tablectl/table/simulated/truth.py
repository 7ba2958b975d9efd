"""The simulation's truth: which seat played which profile and, per decision, what it saw.

A JSON-lines file kept apart from the event log (review never reads it): a first line
``{"kind": "simulation", "table": T, "game": G, "seed": S, "profiles": {"1": "hole-card@0.5"}}``,
then one line per profiled decision (``kind`` "decision": round, seat, profile, ``hidden``
(a hole-card or edge-sort seat had its hidden information that round), ``saw`` (each dealer card as seen:
its text, "high"/"low", or null), ``partners`` (a team seat's partners), options, ``chose``,
``best`` and each option's exact value). Each line is flushed and fsynced as written, so a run
cut short keeps the truth of every decision already in the log.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO, Any

import orjson

from tablectl.files import replace_with_new


#: the truth names what each profiled seat saw: owner and group only
FILE_MODE = 0o640


class TruthWriter:
    """Appends the truth lines to ``path``: a new file in place of any there (renamed over it,
    never truncated or written through a link)."""

    def __init__(self, path: Path, header: dict[str, Any]) -> None:
        self.path = path
        self._out: IO[bytes] = os.fdopen(replace_with_new(path, FILE_MODE, "simulation truth"), "wb")
        self.write({"kind": "simulation", **header})

    def write(self, record: dict[str, Any]) -> None:
        """One line, on disk before this returns."""
        self._out.write(orjson.dumps(record) + b"\n")
        self._out.flush()
        os.fsync(self._out.fileno())

    def decision(self, record: dict[str, Any]) -> None:
        """A profiled seat's decision (the ``Players.on_decision`` callback)."""
        self.write({"kind": "decision", **record})

    def close(self) -> None:
        self._out.close()


def read_truth(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(the header, the decision lines) of a truth file."""
    lines = [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]
    if not lines or lines[0].get("kind") != "simulation":
        raise ValueError(f"{path}: line 1: not a simulation truth file")
    return lines[0], lines[1:]


def default_truth_path(log_dir: Path) -> Path:
    """Beside the log directory, never in it: ``LOGDIR.simulation.jsonl``."""
    log_dir = Path(log_dir)
    return log_dir.parent / f"{log_dir.name}.simulation.jsonl"


__all__ = ["TruthWriter", "default_truth_path", "read_truth"]
