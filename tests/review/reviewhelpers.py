"""Helpers of the review tests (``from reviewhelpers import ...``; the fixtures in ``conftest.py``
hand them out): the shipped table configs signed with a fresh key, runs of the real controller on
simulated devices, and controller-shaped logs written line by line."""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import orjson
from click.testing import CliRunner, Result

from tablectl.cli import main
from tablectl.eventlog import EventLog, generate_key, save_keypair

TABLES = Path(__file__).resolve().parents[2] / "config" / "tables"

WriteConfig = Callable[..., tuple[Path, Path]]
RunTable = Callable[..., None]


def toml_text(data: dict[str, Any], prefix: str = "") -> str:
    """Just enough TOML for a table config: scalars, then nested tables."""
    scalars = [f"{k} = {orjson.dumps(v).decode()}" for k, v in data.items() if not isinstance(v, dict)]
    tables = [toml_text(v, f"{prefix}{k}.") for k, v in data.items() if isinstance(v, dict)]
    head = f"[{prefix[:-1]}]\n" if prefix and scalars else ""
    return head + "".join(s + "\n" for s in scalars) + "".join(tables)


def write_config(tmp: Path, table: str, *, drop: Iterable[str] = (), **changes: Any) -> tuple[Path, Path]:
    """The shipped table config *table* signed with a fresh key, *drop* left out and *changes*
    merged in, written to ``tmp/table.toml``: (config, public key)."""
    data = tomllib.loads((TABLES / table).read_text())
    for key in drop:
        data.pop(key, None)
    for key, value in changes.items():
        if isinstance(value, dict):
            data.setdefault(key, {}).update(value)
        else:
            data[key] = value
    keys = save_keypair(tmp / "keys", generate_key())
    data["log"] = {"dir": str(tmp / "unused"), "signing_key": str(keys.private)}
    path = tmp / "table.toml"
    path.write_text(toml_text(data))
    return path, keys.public


def run_table(config: Path, log_dir: Path, rounds: int, *, seed: int, mistakes: float | None = None) -> None:
    """``tablectl run CONFIG --simulate --headless --autoplay ROUNDS`` into *log_dir*."""
    args = ["run", str(config), "--simulate", "--headless", "--autoplay", str(rounds), "--seed", str(seed),
            "--log-dir", str(log_dir)]
    if mistakes is not None:
        args += ["--mistakes", str(mistakes), "--mistakes-log", str(log_dir.parent / "mistakes.jsonl")]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output


def review_command(*args: str | Path) -> Result:
    """``tablectl review ARGS`` in this process; a Python exception other than the exit, or a
    traceback in the output, fails the test."""
    result = CliRunner().invoke(main, ["review", *map(str, args)])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    return result


class TableLog:
    """Controller-shaped lines (One Card Poker at a 6-deck shoe named "shoe"), via the real log."""

    def __init__(self, directory: Path, first_event_no: int = 1) -> None:
        self.directory = directory
        self.key = generate_key()
        self.next_no = first_event_no
        self.log = self.open()

    def open(self) -> EventLog:
        self.log = EventLog(self.directory, "T1", signing_key=self.key)
        self.log.append("table_started", game="one-card-poker", decks=6, cap=0.9, seats=7, source="shoe",
                        source_kind="shoe", devices={"shoe": "shoe"})
        return self.log

    def device(self, event: str, event_no: int | None = None, **fields: Any) -> int:
        number = self.next_no if event_no is None else event_no
        self.next_no = max(self.next_no, number + 1)
        return self.log.append(event, **fields, device="shoe", event_no=number)

    def card(self, event: str, card: str, to: str, round_no: int | None = None, event_no: int | None = None, **fields: Any) -> int:
        return self.device(event, event_no, card=card, to=to, face="up", shoe=1, round=round_no, penetration=0.01, **fields)

    def shoe(self) -> None:
        self.device("shoe_loaded", shoe=1, decks=6, cards=312, deck_ok=True)
        self.card("burned", "2C", "burn", reason="shuffle")

    def round(self, number: int, dealer: str | None = "D-01") -> None:
        """A complete round: seat 2 (primary $10) against the DP at seat 1; 9S beats 4D."""
        self.log.append("round_started", round=number, seats=[2], wagers={"2": {"primary": 1000}}, banker=1,
                        banker_stake=100000, shoe=1, dealer=dealer, last_round=False)
        self.card("dealt", "9S", "seat:2", number)
        self.card("dealt", "4D", "dp", number)
        self.log.append("settled", round=number, seat=2, bet="primary", stake=1000, outcome="win", pays="1:1", net=1000)
        self.log.append("round_ended", round=number, complete=True)

    def close(self, clean: bool = True) -> None:
        self.log.commit()
        self.log.close(clean=clean)

    def crash_in_round_2(self) -> None:
        """Round 1; round 2 started, one card dealt, and the controller crashes; a new start (not
        going on with round 2) deals a round 1 again."""
        self.shoe()
        self.round(1)
        self.log.append("round_started", round=2, seats=[2], wagers={"2": {"primary": 1000}}, banker=1, banker_stake=None,
                        shoe=1, dealer=None, last_round=False)
        self.card("dealt", "9S", "seat:2", 2)
        self.close(clean=False)
        self.open()
        self.round(1)
        self.close()
